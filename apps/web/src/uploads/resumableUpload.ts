import type { DetailedError, Upload } from 'tus-js-client';
import { uploads, type Language } from '@panelfleet/contract';

export interface UploadProgress {
  sent: number;
  total: number;
}

export interface RunningUpload {
  /** Resolves with the upload id once every byte is stored; rejects with the server's message. */
  done: Promise<string>;
  /** Stops the upload and deletes what was stored (tus termination); `done` rejects with UploadCancelled. */
  cancel(): Promise<void>;
}

/** The operator cancelled the upload. */
export class UploadCancelled extends Error {
  constructor() {
    super('upload cancelled');
    this.name = 'UploadCancelled';
  }
}

const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000];
const CHUNK_BYTES = 8 * 1024 * 1024;

/** The server's refusal text of a tus reply (the envelope's hhtMsg), if it sent one. */
function refusalOf(error: Error): string {
  const body = (error as DetailedError).originalResponse?.getBody();
  if (body) {
    try {
      const parsed = JSON.parse(body) as { hhtMsg?: unknown };
      if (typeof parsed.hhtMsg === 'string' && parsed.hhtMsg) return parsed.hhtMsg;
    } catch {
      return body.slice(0, 200);
    }
  }
  return error.message;
}

/**
 * A resumable upload (tus, /upload/tus) of one file of a kind (firmware, an APK, ...), with
 * tus-js-client loaded only when an upload starts. The upload's address is kept in the browser
 * under the file's fingerprint (name, type, size, last change) until it finishes, so choosing the
 * same file again after a closed tab, a reload or a network drop resumes from the bytes the server
 * already holds (tus HEAD) instead of starting over.
 */
export function startUpload(
  file: File,
  kind: (typeof uploads.UPLOAD_KINDS)[number],
  language: Language | string,
  onProgress: (progress: UploadProgress) => void,
): RunningUpload {
  let upload: Upload | undefined;
  let cancelled = false;
  let fail: (error: Error) => void = () => undefined;
  const done = new Promise<string>((resolve, reject) => {
    fail = reject;
    const begin = async () => {
      const { Upload } = await import('tus-js-client');
      if (cancelled) return;
      const created: Upload = new Upload(file, {
        endpoint: uploads.TUS_PATH,
        metadata: { kind, filename: file.name },
        chunkSize: CHUNK_BYTES,
        retryDelays: RETRY_DELAYS,
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        headers: { 'Accept-Language': language },
        onProgress: (sent, total) => onProgress({ sent, total }),
        onError: (error) => reject(new Error(refusalOf(error))),
        onSuccess: () => resolve((created.url ?? '').split('/').pop() ?? ''),
      });
      upload = created;
      const previous = await created.findPreviousUploads();
      const latest = previous.sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];
      if (latest) created.resumeFromPreviousUpload(latest);
      if (!cancelled) created.start();
    };
    begin().catch((error: unknown) => reject(error instanceof Error ? error : new Error(String(error))));
  });
  return {
    done,
    cancel: async () => {
      cancelled = true;
      // The waiting flow ends now; the stored bytes are deleted (tus termination) meanwhile.
      fail(new UploadCancelled());
      await upload?.abort(true);
    },
  };
}

/** Whether this browser holds an unfinished upload of this file (choosing it resumes). */
export async function hasUnfinishedUpload(file: File): Promise<boolean> {
  const { Upload } = await import('tus-js-client');
  const probe = new Upload(file, { endpoint: uploads.TUS_PATH });
  return (await probe.findPreviousUploads()).length > 0;
}
