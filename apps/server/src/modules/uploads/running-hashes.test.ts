import crypto from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { BeyondLength, RunningHashes } from './running-hashes.js';

const bytes = crypto.randomBytes(10_000);
const hex = (algorithm: string, data: Buffer) => crypto.createHash(algorithm).update(data).digest('hex');

/** Sends `data` through the part's pass-through; answers the offset the "store" reached. */
async function send(hashes: RunningHashes, id: string, offset: number, data: Buffer, limit = 1e9) {
  const part = hashes.part(id, offset, { md5: true, limit });
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
    const digests = await hashes.digests('u1', bytes.length, true, async () => {
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
    const digests = await hashes.digests('u2', bytes.length, false, async () => {
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
    const part = hashes.part('u4', 0, { md5: false, limit: 1e9 });
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
