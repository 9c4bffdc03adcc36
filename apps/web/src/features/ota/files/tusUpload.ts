import { uploads } from '@panelfleet/contract';

/** A running resumable upload (tus): progress in bytes, then the upload id, or an error text. */
export interface UploadHandlers {
  onProgress(sent: number, total: number): void;
  onSuccess(uploadId: string): void;
  /** The server's message (hhtMsg) when it sent one, else the transport's. */
  onError(message: string): void;
}

export interface RunningUpload {
  /** Stops and deletes the upload on the server (tus termination). */
  cancel(): Promise<void>;
}

const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000];

/** The server's refusal in the envelope (hhtMsg), if the body is one. */
function serverMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { hhtMsg?: unknown };
    return typeof parsed.hhtMsg === 'string' && parsed.hhtMsg ? parsed.hhtMsg : undefined;
  } catch {
    return body.length < 200 ? body : undefined;
  }
}

/**
 * Uploads a firmware image with tus-js-client (loaded only here, when an upload starts). The
 * upload's URL is kept in the browser under the file's fingerprint (name, type, size, last
 * change), so choosing the same file again after a closed tab, a reload or a network drop resumes
 * from the bytes the server already holds (tus HEAD) instead of starting over.
 */
export async function startUpload(
  file: File,
  language: string,
  handlers: UploadHandlers,
): Promise<RunningUpload> {
  const { Upload } = await import('tus-js-client');
  const upload = new Upload(file, {
    endpoint: uploads.TUS_PATH,
    metadata: { kind: 'firmware', filename: file.name },
    headers: { 'Accept-Language': language },
    retryDelays: RETRY_DELAYS,
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onProgress: (sent, total) => handlers.onProgress(sent, total),
    onSuccess: () => {
      const id = (upload.url ?? '').split('/').pop() ?? '';
      handlers.onSuccess(id);
    },
    onError: (error) => {
      const response = 'originalResponse' in error ? error.originalResponse : null;
      handlers.onError(serverMessage(response?.getBody()) ?? error.message);
    },
  });
  const previous = await upload.findPreviousUploads();
  const latest = previous.sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];
  if (latest) upload.resumeFromPreviousUpload(latest);
  upload.start();
  return { cancel: () => upload.abort(true) };
}

/** Whether this browser holds an unfinished upload of this file (it will resume). */
export async function hasUnfinishedUpload(file: File): Promise<boolean> {
  const { Upload } = await import('tus-js-client');
  const probe = new Upload(file, { endpoint: uploads.TUS_PATH });
  return (await probe.findPreviousUploads()).length > 0;
}
