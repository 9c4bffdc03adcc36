import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { materials } from '@panelfleet/contract';
import { Refusal } from '../../refusal.js';
import type { FormatDetector } from './media-type.js';

export interface IncomingFile {
  stream: AsyncIterable<Buffer>;
  /** True once the stream was cut at the size limit. */
  truncated(): boolean;
}

export interface ReceivedMedia {
  tempPath: string;
  size: number;
  sha256: string;
  format: materials.MediaFormat;
}

/** Enough bytes to know whether an ID3 tag comes first (its header is 10 bytes). */
const TAG_HEADER_BYTES = 10;

/**
 * Reads an upload: its first bytes decide the format before anything is written; the rest goes
 * to a temporary file while its SHA-256 is computed. A refused upload is read to its end (so the
 * browser gets the reply) but nothing of it stays on disk.
 */
export async function receiveMedia(
  file: IncomingFile,
  folder: string,
  detector: FormatDetector,
): Promise<ReceivedMedia> {
  const hash = crypto.createHash('sha256');
  const tempPath = path.join(folder, `.upload-${crypto.randomBytes(12).toString('hex')}`);
  const head: Buffer[] = [];
  let headLength = 0;
  let needed = Infinity;
  let size = 0;
  let format: materials.MediaFormat | undefined;
  let refusal: string | undefined;
  let out: fs.promises.FileHandle | undefined;

  const startWriting = async (first: Buffer) => {
    format = detector.detect(first);
    if (!format) {
      refusal = detector.refusal;
      return;
    }
    out = await fs.promises.open(tempPath, 'wx');
    await out.write(first);
  };

  try {
    for await (const chunk of file.stream) {
      if (refusal) continue;
      size += chunk.length;
      hash.update(chunk);
      if (out) {
        await out.write(chunk);
        continue;
      }
      head.push(chunk);
      headLength += chunk.length;
      if (needed === Infinity && headLength >= TAG_HEADER_BYTES)
        needed = detector.headBytesNeeded(Buffer.concat(head));
      if (headLength >= needed) await startWriting(Buffer.concat(head.splice(0)));
    }
    if (file.truncated()) refusal = detector.tooLarge;
    if (!refusal && !out) {
      if (size === 0) refusal = 'material.fileMissing';
      else await startWriting(Buffer.concat(head.splice(0)));
    }
    if (refusal) throw new Refusal(refusal, refusal === detector.tooLarge ? 'tooLarge' : 'invalid');
    await out!.close();
    out = undefined;
    return { tempPath, size, sha256: hash.digest('hex'), format: format! };
  } catch (error) {
    await out?.close();
    await fs.promises.rm(tempPath, { force: true });
    throw error;
  }
}
