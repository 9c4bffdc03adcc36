import crypto from 'node:crypto';

export interface DownloadRequest {
  url: string;
  size: number;
  sha256: string;
  /** The panel's own credentials: download URLs are bound to one panel (HTTP Basic). */
  username: string;
  password: string;
  /** Called as bytes arrive (the panel throttles its progress reports itself). */
  progress(received: number, total: number): void;
  /** Network attempts (each resumes where the last one stopped). */
  maxAttempts?: number;
  retryDelayMs?: number;
  /** Stops the download (an OTA_CANCEL or APK_CANCEL): the result is `cancelled`. */
  signal?: AbortSignal;
  /** Test hook: a corrupted image (a byte flipped as it arrives) fails its SHA-256. */
  corrupt?: boolean;
}

export type DownloadResult =
  | { ok: true; attempts: number; resumed: number }
  | { ok: false; detail: 'checksum' | 'download' | 'cancelled'; reason: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Downloads a file as docs/device-protocol.md section 6 says: GET with the panel's credentials,
 * `Range: bytes=N-` (with If-Range) to resume after a broken connection, SHA-256 over the whole
 * file. A file that arrives complete but hashes wrong is fetched once more from the start; a
 * second mismatch is a `checksum` failure. The bytes are hashed as they stream, not kept: the
 * simulated panel "installs" by taking the version.
 */
export async function downloadVerified(request: DownloadRequest): Promise<DownloadResult> {
  const maxAttempts = request.maxAttempts ?? 5;
  const authorization = `Basic ${Buffer.from(`${request.username}:${request.password}`).toString('base64')}`;
  let hash = crypto.createHash('sha256');
  let received = 0;
  let etag: string | undefined;
  let attempts = 0;
  let resumed = 0;
  let fullRetries = 0;
  let lastError = '';
  const restart = () => {
    hash = crypto.createHash('sha256');
    received = 0;
  };
  while (attempts < maxAttempts) {
    attempts++;
    if (request.signal?.aborted) return { ok: false, detail: 'cancelled', reason: 'cancelled' };
    try {
      const headers: Record<string, string> = { authorization };
      if (received > 0) {
        headers.range = `bytes=${received}-`;
        if (etag) headers['if-range'] = etag;
      }
      const response = await fetch(request.url, { headers, signal: request.signal });
      if (response.status === 206 && received > 0) {
        const start = Number(/^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1]);
        if (start !== received) throw new Error(`resumed at ${start}, expected ${received}`);
        resumed++;
      } else if (response.status === 200) {
        restart();
      } else {
        await response.body?.cancel();
        // 401/403/404/410: asking again does not help; the server sends a fresh URL with a retried command.
        if (response.status >= 400 && response.status < 500)
          return { ok: false, detail: 'download', reason: `HTTP ${response.status}` };
        throw new Error(`HTTP ${response.status}`);
      }
      etag = response.headers.get('etag') ?? etag;
      if (!response.body) throw new Error('no body');
      let first = received === 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (request.corrupt && first && chunk.length) {
          const copy = Buffer.from(chunk);
          copy[0] = copy[0]! ^ 0xff;
          hash.update(copy);
          first = false;
        } else hash.update(chunk);
        received += chunk.length;
        if (received > request.size) throw new Error('longer than announced');
        request.progress(received, request.size);
      }
      if (received < request.size)
        throw new Error(`connection ended at ${received} of ${request.size} bytes`);
      const digest = hash.digest('hex');
      if (digest === request.sha256) return { ok: true, attempts, resumed };
      lastError = `sha256 ${digest}`;
      if (fullRetries++ >= 1) return { ok: false, detail: 'checksum', reason: lastError };
      restart();
      attempts--; // a corrupt but complete file is retried from the start, not counted as a network failure
    } catch (err) {
      if (request.signal?.aborted) return { ok: false, detail: 'cancelled', reason: 'cancelled' };
      lastError = String(err);
      // A body longer than announced cannot be resumed: start again.
      if (received > request.size) restart();
      await sleep((request.retryDelayMs ?? 500) * attempts);
    }
  }
  return { ok: false, detail: 'download', reason: lastError };
}
