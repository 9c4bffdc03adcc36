import type { ServerResponse } from 'node:http';
import fs from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { FileStore } from '../../files/store.js';

const CHUNK = 256 * 1024;

/**
 * Writes bytes start..end (inclusive) of a file to the response through two buffers that are
 * reused for the whole download: a file stream would allocate a new buffer per chunk, and at
 * hundreds of MiB/s that garbage costs the server more CPU than the copying itself. A buffer is
 * refilled only after the socket has taken its previous contents (the write callback), so reading
 * the next chunk overlaps sending the last one. Stops quietly when the panel goes away.
 */
export async function sendFileRange(
  res: ServerResponse,
  file: string,
  start: number,
  end: number,
): Promise<void> {
  const handle = await fs.open(file, 'r');
  const buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
  let gone = false;
  const onClose = () => (gone = true);
  res.on('close', onClose);
  const written: Array<Promise<void> | undefined> = [undefined, undefined];
  try {
    let position = start;
    for (let turn = 0; position <= end && !gone; turn ^= 1) {
      await written[turn];
      const buffer = buffers[turn]!;
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, end - position + 1), position);
      if (bytesRead === 0) throw new Error(`file ended at ${position}, expected ${end + 1} bytes`);
      position += bytesRead;
      written[turn] = new Promise<void>((resolve) =>
        res.write(buffer.subarray(0, bytesRead), () => resolve()),
      );
    }
    await Promise.all(written);
    if (!gone) res.end();
  } finally {
    res.off('close', onClose);
    await handle.close();
  }
}

/**
 * Bytes start..end of a stored file: from its path with reused buffers when the store is a
 * directory, else as the store's stream (a store without its own URLs).
 */
export async function sendStoredRange(
  res: ServerResponse,
  store: FileStore,
  key: string,
  start: number,
  end: number,
): Promise<void> {
  const local = store.localPath(key);
  if (local !== undefined) return sendFileRange(res, local, start, end);
  await pipeline(await store.read(key, { start, end }), res);
}
