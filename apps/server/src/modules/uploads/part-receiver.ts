import type { IncomingMessage } from 'node:http';
import type { DataStore, Locker } from '@tus/utils';
import { BeyondLength, type HashKinds, type HashedPart, type RunningHashes } from './running-hashes.js';
import { TUS_VERSION, TusFail } from './tus-replies.js';

const PART_CONTENT_TYPE = 'application/offset+octet-stream';

/** tus's refusals are plain objects: `{status_code, body}`. */
const tusStatusOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'status_code' in error
    ? Number((error as { status_code: unknown }).status_code)
    : undefined;

/**
 * A tus PATCH (https://tus.io/protocols/resumable-upload#patch), received without tus's fetch-style
 * request: Node's request body streams through one pass-through (the length limit and the running
 * hash) into the store. tus turns a body into a web stream and back; at the server's heap setting
 * the garbage of those hops tripled the upload's CPU (docs/benchmarks.md, "APK upload").
 *
 * A part whose client goes away mid-way ends there: what arrived is stored (the store keeps a
 * short tail as `<id>.part` on S3) and the upload resumes from it. Another request for the same
 * upload on this instance (a HEAD after a retry) ends this part the same way.
 */
export async function receivePart(
  req: IncomingMessage,
  id: string,
  deps: { store: DataStore; locker: Locker; hashes: RunningHashes; kinds: HashKinds },
): Promise<{ offset: number; size: number }> {
  if (req.headers['tus-resumable'] !== TUS_VERSION) throw new TusFail(412, 'upload.versionRequired');
  if (req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== PART_CONTENT_TYPE)
    throw new TusFail(415, 'upload.contentType');
  const offsetHeader = req.headers['upload-offset'];
  if (typeof offsetHeader !== 'string' || !/^\d{1,15}$/.test(offsetHeader))
    throw new TusFail(400, 'upload.requestInvalid');
  const offset = Number(offsetHeader);
  const lengthHeader = req.headers['content-length'];
  const declared = lengthHeader === undefined ? undefined : Number(lengthHeader);

  let part: HashedPart | undefined;
  let ended = false;
  const endPart = () => {
    ended = true;
    if (!part) return;
    req.unpipe(part.stream);
    if (!part.stream.writableEnded && !part.stream.destroyed) part.stream.end();
  };
  const lock = deps.locker.newLock(id);
  try {
    await lock.lock(new AbortController().signal, endPart);
  } catch (error) {
    throw asTusFail(error);
  }
  try {
    const upload = await deps.store.getUpload(id).catch((error: unknown) => {
      throw asTusFail(error);
    });
    if (upload.offset !== offset) throw new TusFail(409, 'upload.offsetConflict');
    const size = upload.size ?? 0;
    if (declared !== undefined && (!Number.isSafeInteger(declared) || offset + declared > size))
      throw new TusFail(413, 'upload.beyondLength');
    part = deps.hashes.part(id, offset, { ...deps.kinds, limit: size - offset });
    req.once('error', endPart);
    req.once('close', () => {
      if (!req.complete) endPart();
    });
    if (ended) endPart();
    else req.pipe(part.stream);
    let stored: number;
    try {
      stored = await deps.store.write(part.stream, id, offset);
    } catch (error) {
      if (error instanceof BeyondLength) throw new TusFail(413, 'upload.beyondLength');
      throw error;
    }
    part.settle(stored);
    return { offset: stored, size };
  } finally {
    await lock.unlock();
  }
}

/** tus's own refusal as ours; anything else (a server error) as it is. */
function asTusFail(error: unknown) {
  const status = tusStatusOf(error);
  if (status === 404 || status === 410) return new TusFail(404, 'upload.notFound');
  if (status !== undefined && status < 500) return new TusFail(status, 'upload.requestInvalid');
  return error instanceof Error ? error : new Error(`tus: ${JSON.stringify(error)}`);
}
