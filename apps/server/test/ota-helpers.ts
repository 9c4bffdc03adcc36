import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ota, type TestClientLike } from './ota-types.js';

export { ota };

const TUS = { 'tus-resumable': '1.0.0' };

/** The base64 of tus Upload-Metadata values. */
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

export interface TusTarget {
  url: string;
  cookie: string;
  language?: string;
}

export function tusTarget(base: string, client: TestClientLike, language = 'en-US'): TusTarget {
  return { url: base, cookie: `pf_session=${client.cookie('pf_session')}`, language };
}

/** tus creation (POST /upload/tus); the response as it came. */
export async function tusCreate(t: TusTarget, size: number, fileName = 'firmware.bin', kind = 'firmware') {
  const response = await fetch(`${t.url}/upload/tus`, {
    method: 'POST',
    headers: {
      ...TUS,
      cookie: t.cookie,
      'accept-language': t.language ?? 'en-US',
      'upload-length': String(size),
      'upload-metadata': `kind ${b64(kind)},filename ${b64(fileName)}`,
    },
  });
  const location = response.headers.get('location');
  return {
    response,
    uploadId: location ? location.split('/').pop()! : undefined,
    body: await response.text(),
  };
}

/** tus PATCH of `bytes` from `offset`; answers the new offset. */
export async function tusPatch(t: TusTarget, uploadId: string, offset: number, bytes: Uint8Array) {
  const response = await fetch(`${t.url}/upload/tus/${uploadId}`, {
    method: 'PATCH',
    headers: {
      ...TUS,
      cookie: t.cookie,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    body: bytes,
  });
  await response.arrayBuffer();
  return { status: response.status, offset: Number(response.headers.get('upload-offset') ?? -1) };
}

export async function tusOffset(t: TusTarget, uploadId: string) {
  const response = await fetch(`${t.url}/upload/tus/${uploadId}`, {
    method: 'HEAD',
    headers: { ...TUS, cookie: t.cookie },
  });
  return { status: response.status, offset: Number(response.headers.get('upload-offset') ?? -1) };
}

/** A whole upload in chunks; the upload id. */
export async function tusUpload(
  t: TusTarget,
  content: Uint8Array,
  fileName = 'firmware.bin',
  chunk = 256 * 1024,
) {
  const created = await tusCreate(t, content.length, fileName);
  if (created.response.status !== 201 || !created.uploadId)
    throw new Error(`upload not created: ${created.response.status} ${created.body}`);
  let offset = 0;
  while (offset < content.length) {
    const next = await tusPatch(t, created.uploadId, offset, content.subarray(offset, offset + chunk));
    if (next.status !== 204) throw new Error(`PATCH answered ${next.status}`);
    offset = next.offset;
  }
  return created.uploadId;
}

/** Bytes of a firmware image, different for each seed. */
export function firmwareBytes(size: number, seed = 1): Buffer {
  const out = Buffer.alloc(size);
  let block = crypto.createHash('sha256').update(String(seed)).digest();
  for (let i = 0; i < size; i += 32) {
    block.copy(out, i, 0, Math.min(32, size - i));
    block = crypto.createHash('sha256').update(block).digest();
  }
  return out;
}

/** A plain HTTP hop, so BASE_URL (what signed URLs name) is known before the server listens. */
export class ForwardingProxy {
  target = 0;
  /** Panels (by device key) whose downloads crawl: a chunk every 50 ms. */
  readonly slow = new Set<string>();
  private server = http.createServer((req, res) => {
    const auth = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const deviceKey = auth ? Buffer.from(auth, 'base64').toString().split(':')[0]! : '';
    const upstream = http.request(
      { host: '127.0.0.1', port: this.target, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        if (!this.slow.has(deviceKey)) return void up.pipe(res);
        up.on('data', (chunk: Buffer) => {
          up.pause();
          res.write(chunk);
          setTimeout(() => up.resume(), 50);
        });
        up.on('end', () => res.end());
        res.on('close', () => up.destroy());
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });

  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
