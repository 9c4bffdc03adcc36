import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSigner } from '../src/modules/apk/apk-signature.js';
import { ChunkDigests, CONTENT_CHUNK } from '../src/modules/uploads/chunk-digests.js';
import { Refusal } from '../src/refusal.js';
import { apkSigner, buildApk, type ApkSigner } from './apk-fixtures.js';

/** The v2 chunks an upload takes as the bytes arrive (here in 64 KiB socket-sized pieces). */
function chunksOf(bytes: Buffer) {
  const digests = new ChunkDigests();
  for (let at = 0; at < bytes.length; at += 65_536) digests.update(bytes.subarray(at, at + 65_536));
  return digests.digests();
}

const refusalKey = (promise: Promise<unknown>) =>
  promise.then(
    () => 'verified',
    (error: unknown) => (error instanceof Refusal ? error.key : String(error)),
  );

describe("the APK signature check with the upload's v2 chunk digests", () => {
  let dir: string;
  let signer: ApkSigner;
  let bytes: Buffer;
  let file: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-apk-chunks-'));
    signer = apkSigner('Chunk Signer');
    bytes = await buildApk(
      {
        packageName: 'com.panel.chunks',
        versionCode: 1,
        versionName: '1.0',
        label: 'Chunks',
        padding: 3 * CONTENT_CHUNK + 4321,
      },
      signer,
    );
    file = path.join(dir, 'chunks.apk');
    fs.writeFileSync(file, bytes);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('verifies the same signer with the chunks as by reading the whole file', async () => {
    const chunks = chunksOf(bytes);
    expect(chunks).toHaveLength(3);
    const read = await readSigner(file);
    const taken = await readSigner(file, chunks);
    expect(taken).toEqual(read);
    expect(taken.certificate.equals(signer.certificate)).toBe(true);
  });

  it('uses the chunks instead of the file: a chunk digest that differs is a bad signature, bytes changed on disk inside whole chunks are not read again', async () => {
    const chunks = chunksOf(bytes);
    const wrong = chunks.map((d, i) => (i === 1 ? Buffer.alloc(d.length, 7) : d));
    expect(await refusalKey(readSigner(file, wrong))).toBe('apk.badSignature');

    const changed = path.join(dir, 'changed.apk');
    const copy = Buffer.from(bytes);
    copy.fill(0x42, CONTENT_CHUNK + 10, CONTENT_CHUNK + 20);
    fs.writeFileSync(changed, copy);
    expect(await refusalKey(readSigner(changed))).toBe('apk.badSignature');
    expect(await refusalKey(readSigner(changed, chunks))).toBe('verified');
  });

  it('still reads what follows the last whole chunk: a change there is a bad signature even with the chunks', async () => {
    const chunks = chunksOf(bytes);
    const changed = path.join(dir, 'tail.apk');
    const copy = Buffer.from(bytes);
    // Inside the padding asset, past the third whole MiB (the signing block is further on).
    copy.fill(0x42, 3 * CONTENT_CHUNK + 100, 3 * CONTENT_CHUNK + 110);
    fs.writeFileSync(changed, copy);
    expect(await refusalKey(readSigner(changed, chunks))).toBe('apk.badSignature');
  });
});
