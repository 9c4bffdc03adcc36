import * as tus from 'tus-js-client';
import { uploads, type Language } from '@panelfleet/contract';

export interface UploadProgress {
  sent: number;
  total: number;
}

export interface RunningUpload {
  /** Resolves with the upload id once every byte is stored; rejects with the server's message. */
  done: Promise<string>;
  /** Stops the upload and deletes what was stored (tus termination). */
  cancel(): Promise<void>;
}

/** The operator cancelled the upload. */
export class UploadCancelled extends Error {
  constructor() {
    super('upload cancelled');
    this.name = 'UploadCancelled';
  }
}

/** The server's refusal text of a tus reply (the envelope's hhtMsg), if it sent one. */
function refusalOf(error: Error): string {
  const body = (error as tus.DetailedError).originalResponse?.getBody();
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
 * A resumable upload (tus, /upload/tus) of one file of a kind: a cut (network, closed tab)
 * resumes from the stored offset when the same file is chosen again, because tus-js-client keeps
 * the upload's address by the file's fingerprint until it finishes.
 */
export function startUpload(
  file: File,
  kind: (typeof uploads.UPLOAD_KINDS)[number],
  language: Language,
  onProgress: (p: UploadProgress) => void,
): RunningUpload {
  let upload: tus.Upload;
  let fail: (error: Error) => void = () => undefined;
  const done = new Promise<string>((resolve, reject) => {
    fail = reject;
    upload = new tus.Upload(file, {
      endpoint: uploads.TUS_PATH,
      metadata: { kind, filename: file.name },
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      removeFingerprintOnSuccess: true,
      headers: { 'Accept-Language': language },
      onProgress: (sent, total) => onProgress({ sent, total }),
      onError: (error) => reject(new Error(refusalOf(error))),
      onSuccess: () => resolve((upload.url ?? '').split('/').pop() ?? ''),
    });
    void upload.findPreviousUploads().then((previous) => {
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    });
  });
  return {
    done,
    cancel: async () => {
      // The waiting flow ends now; the stored bytes are deleted (tus termination) meanwhile.
      fail(new UploadCancelled());
      await upload.abort(true);
    },
  };
}

/** Bytes as MB (bytes / 1048576) with `digits` decimals, as spec 3 section 9 shows them. */
export const megabytes = (bytes: number, digits: number) => (bytes / 1048576).toFixed(digits);
