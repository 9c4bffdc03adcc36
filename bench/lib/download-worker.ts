/**
 * A download client process (forked by bench:ota): the benchmark spreads its panels' downloads
 * over several of these, so the client is not the bottleneck of the 2 cores' share it gets and its
 * CPU can be read apart from the servers'. Each download counts the bytes and drops them; with
 * `cutAt` the connection is dropped once that many bytes arrived and the rest is fetched with
 * `Range: bytes=N-` (and If-Range with the ETag), which must answer 206 from exactly N.
 */
import http from 'node:http';

export interface DownloadJob {
  url: string;
  headers: Record<string, string>;
  cutAt?: number;
}

export type DownloadRequest = { jobs: DownloadJob[]; size: number };
export type DownloadReply = { ok: true; bytes: number } | { ok: false; message: string };

function get(
  url: string,
  headers: Record<string, string>,
  size: number,
  expect: number,
  from: number,
  stopAt?: number,
) {
  return new Promise<{ bytes: number; etag: string | undefined }>((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (res) => {
      if (res.statusCode !== expect) {
        res.resume();
        return reject(new Error(`${url}: HTTP ${res.statusCode}, expected ${expect}`));
      }
      if (expect === 206 && !String(res.headers['content-range']).startsWith(`bytes ${from}-`))
        return reject(new Error(`resumed at ${String(res.headers['content-range'])}, expected ${from}`));
      const etag = res.headers.etag;
      let bytes = 0;
      let done = false;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (stopAt !== undefined && !done && from + bytes >= stopAt) {
          done = true;
          request.destroy();
          resolve({ bytes, etag });
        }
      });
      res.on('end', () => {
        if (done) return;
        if (from + bytes === size) resolve({ bytes, etag });
        else reject(new Error(`${from + bytes} of ${size} bytes`));
      });
      res.on('error', (err) => (done ? undefined : reject(err)));
    });
    request.on('error', (err) => (stopAt !== undefined ? undefined : reject(err)));
  });
}

export async function download(job: DownloadJob, size: number): Promise<number> {
  if (job.cutAt === undefined) return (await get(job.url, job.headers, size, 200, 0)).bytes;
  const first = await get(job.url, job.headers, size, 200, 0, job.cutAt);
  const rest = await get(
    job.url,
    { ...job.headers, range: `bytes=${first.bytes}-`, ...(first.etag ? { 'if-range': first.etag } : {}) },
    size,
    206,
    first.bytes,
  );
  return first.bytes + rest.bytes;
}

if (process.send) {
  process.on('message', (request: DownloadRequest) => {
    Promise.all(request.jobs.map((job) => download(job, request.size))).then(
      (counts) =>
        process.send!({ ok: true, bytes: counts.reduce((a, b) => a + b, 0) } satisfies DownloadReply),
      (err: unknown) => process.send!({ ok: false, message: String(err) } satisfies DownloadReply),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
