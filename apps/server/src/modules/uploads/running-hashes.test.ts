import crypto from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { CONTENT_CHUNK } from './chunk-digests.js';
import { BeyondLength, RunningHashes } from './running-hashes.js';

const bytes = crypto.randomBytes(10_000);
const hex = (algorithm: string, data: Buffer) => crypto.createHash(algorithm).update(data).digest('hex');
const MD5 = { md5: true, chunks: false };
const PLAIN = { md5: false, chunks: false };
const APK = { md5: false, chunks: true };

/** Sends `data` through the part's pass-through; answers the offset the "store" reached. */
async function send(
  hashes: RunningHashes,
  id: string,
  offset: number,
  data: Buffer,
  limit = 1e9,
  kinds = MD5,
) {
  const part = hashes.part(id, offset, { ...kinds, limit });
  let stored = offset;
  await pipeline(
    Readable.from([data.subarray(0, 3000), data.subarray(3000)]),
    part.stream,
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        stored += chunk.length;
        callback();
      },
    }),
  );
  part.settle(stored);
  return stored;
}

describe('running hashes of uploads', () => {
  it('consecutive parts on one instance are hashed as they pass: nothing is read back', async () => {
    const hashes = new RunningHashes();
    await send(hashes, 'u1', 0, bytes.subarray(0, 4000));
    await send(hashes, 'u1', 4000, bytes.subarray(4000));
    let readBack = 0;
    const digests = await hashes.digests('u1', bytes.length, MD5, async () => {
      readBack++;
      return Readable.from([bytes]);
    });
    expect(digests).toEqual({ sha256: hex('sha256', bytes), md5: hex('md5', bytes) });
    expect([readBack, hashes.size]).toEqual([0, 0]);
  });

  it('a part that starts where this instance holds no hash (another took the one before) leads to one read back', async () => {
    const hashes = new RunningHashes();
    await send(hashes, 'u2', 0, bytes.subarray(0, 4000));
    // 4000-7000 went to another instance; this one gets the part after it.
    await send(hashes, 'u2', 7000, bytes.subarray(7000));
    let readBack = 0;
    const digests = await hashes.digests('u2', bytes.length, PLAIN, async () => {
      readBack++;
      return Readable.from([bytes.subarray(0, 5000), bytes.subarray(5000)]);
    });
    expect(digests).toEqual({ sha256: hex('sha256', bytes), md5: '' });
    expect(readBack).toBe(1);
  });

  it('refuses bytes beyond the limit and keeps no hash of a part the store did not take whole', async () => {
    const hashes = new RunningHashes();
    await expect(send(hashes, 'u3', 0, bytes, 5000)).rejects.toBeInstanceOf(BeyondLength);
    expect(hashes.size).toBe(0);
    const part = hashes.part('u4', 0, { ...PLAIN, limit: 1e9 });
    part.stream.end(bytes);
    part.stream.resume();
    await new Promise((resolve) => part.stream.on('end', resolve));
    part.settle(1000);
    expect(hashes.size).toBe(0);
  });

  it('drops hashes that no part continued for an hour', async () => {
    let now = 0;
    const hashes = new RunningHashes(() => now);
    await send(hashes, 'u5', 0, bytes.subarray(0, 100));
    now = 30 * 60_000;
    hashes.prune();
    expect(hashes.size).toBe(1);
    now = 61 * 60_000;
    hashes.prune();
    expect(hashes.size).toBe(0);
  });
});

/** v2's digest of one whole chunk, written out independently of chunk-digests.ts. */
const v2Chunk = (chunk: Buffer) => {
  const prefix = Buffer.alloc(5);
  prefix[0] = 0xa5;
  prefix.writeUInt32LE(chunk.length, 1);
  return crypto.createHash('sha256').update(prefix).update(chunk).digest();
};

describe("an APK's v2 content chunks, taken with the running hash", () => {
  const apk = crypto.randomBytes(3 * CONTENT_CHUNK + 12_345);
  const wholeChunks = [0, 1, 2].map((i) => v2Chunk(apk.subarray(i * CONTENT_CHUNK, (i + 1) * CONTENT_CHUNK)));

  it('parts whose edges fall anywhere give the digests of every whole MiB, kept until the upload is claimed', async () => {
    const hashes = new RunningHashes();
    let offset = 0;
    for (const end of [700_000, 1_500_000, CONTENT_CHUNK * 2, apk.length])
      offset = await send(hashes, 'a1', offset, apk.subarray(offset, end), 1e9, APK);
    let readBack = 0;
    const digests = await hashes.digests('a1', apk.length, APK, async () => {
      readBack++;
      return Readable.from([apk]);
    });
    expect(digests).toEqual({ sha256: hex('sha256', apk), md5: '' });
    expect(readBack).toBe(0);
    expect(hashes.contentChunks('a1')).toEqual(wholeChunks);
    hashes.forget('a1');
    expect([hashes.contentChunks('a1'), hashes.size]).toEqual([undefined, 0]);
  });

  it('after a restart (the running hash lost) the one read back takes the SHA-256 and the chunks together', async () => {
    const before = new RunningHashes();
    const cut = await send(before, 'a2', 0, apk.subarray(0, 1_800_000), 1e9, APK);
    // The server restarts: its running hashes are gone; the upload resumes where the store is.
    const after = new RunningHashes();
    await send(after, 'a2', cut, apk.subarray(cut), 1e9, APK);
    let readBack = 0;
    const digests = await after.digests('a2', apk.length, APK, async () => {
      readBack++;
      return Readable.from([apk.subarray(0, 999_999), apk.subarray(999_999)]);
    });
    expect(digests).toEqual({ sha256: hex('sha256', apk), md5: '' });
    expect(readBack).toBe(1);
    expect(after.contentChunks('a2')).toEqual(wholeChunks);
  });

  it('a kind without chunks keeps none; unclaimed chunks go after a day', async () => {
    let now = 0;
    const hashes = new RunningHashes(() => now);
    await send(hashes, 'v1', 0, apk, 1e9, PLAIN);
    await hashes.digests('v1', apk.length, PLAIN, async () => Readable.from([apk]));
    expect([hashes.contentChunks('v1'), hashes.size]).toEqual([undefined, 0]);
    await send(hashes, 'a3', 0, apk, 1e9, APK);
    await hashes.digests('a3', apk.length, APK, async () => Readable.from([apk]));
    now = 23 * 60 * 60_000;
    hashes.prune();
    expect(hashes.contentChunks('a3')).toHaveLength(3);
    now = 25 * 60 * 60_000;
    hashes.prune();
    expect([hashes.contentChunks('a3'), hashes.size]).toEqual([undefined, 0]);
  });
});
