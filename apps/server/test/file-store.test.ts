import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../src/files/local-store.js';
import { S3FileStore } from '../src/files/s3-store.js';
import { FileMissing, InvalidKey, type FileStore } from '../src/files/store.js';
import { startS3, type TestS3 } from './s3-server.js';

const bytesOf = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

interface Engine {
  store: FileStore;
  /** What the store holds, as keys from its root. */
  keys(): string[];
  stop(): Promise<void>;
}

async function localEngine(): Promise<Engine> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-store-'));
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return {
    store: new LocalFileStore(root),
    keys: () =>
      walk(root)
        .map((file) => path.relative(root, file).split(path.sep).join('/'))
        .sort(),
    stop: async () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

async function s3Engine(): Promise<Engine> {
  const s3: TestS3 = await startS3();
  const store = S3FileStore.open({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  return {
    store,
    keys: () => s3.objects(),
    stop: async () => {
      store.close();
      await s3.stop();
    },
  };
}

/** One behaviour list, run against both stores. */
describe.each([
  ['a directory', localEngine],
  ['an S3 bucket (s3rver)', s3Engine],
] as const)('the file store as %s', (_name, open) => {
  let engine: Engine;
  let work: string;
  const content = crypto.randomBytes(9 * 1024 * 1024 + 17);
  const workFile = (bytes: Buffer) => {
    const file = path.join(work, crypto.randomUUID());
    fs.writeFileSync(file, bytes);
    return file;
  };

  beforeAll(async () => {
    engine = await open();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-work-'));
  });
  afterAll(async () => {
    await engine.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('puts a local file under a key and takes it away from the work directory', async () => {
    const local = workFile(content);
    await engine.store.putFile('files/ota/a.bin', local);
    expect(fs.existsSync(local)).toBe(false);
    expect(await engine.store.stat('files/ota/a.bin')).toEqual({ size: content.length });
    expect((await bytesOf(await engine.store.read('files/ota/a.bin'))).equals(content)).toBe(true);
  });

  it('keeps the local file when asked to', async () => {
    const local = workFile(Buffer.from('kept'));
    await engine.store.putFile('files/apk/kept.apk', local, { keep: true });
    expect(fs.readFileSync(local, 'utf8')).toBe('kept');
    expect(await engine.store.readBytes('files/apk/kept.apk')).toEqual(Buffer.from('kept'));
    await engine.store.delete('files/apk/kept.apk');
  });

  it('reads a byte span', async () => {
    const span = await bytesOf(
      await engine.store.read('files/ota/a.bin', { start: 5_000_000, end: 5_000_099 }),
    );
    expect(span.equals(content.subarray(5_000_000, 5_000_100))).toBe(true);
  });

  it('puts bytes, replaces them, and reads them whole', async () => {
    await engine.store.putBytes('avatars/x.jpg', Buffer.from('one'), 'image/jpeg');
    await engine.store.putBytes('avatars/x.jpg', Buffer.from('two'), 'image/jpeg');
    expect((await engine.store.readBytes('avatars/x.jpg'))?.toString()).toBe('two');
  });

  it('answers a missing file as missing, never as an error of the store', async () => {
    expect(await engine.store.stat('files/ota/none.bin')).toBeUndefined();
    expect(await engine.store.readBytes('files/ota/none.bin')).toBeUndefined();
    await expect(engine.store.read('files/ota/none.bin')).rejects.toBeInstanceOf(FileMissing);
    await engine.store.delete('files/ota/none.bin');
  });

  it('scopes keys below a prefix', async () => {
    const files = engine.store.within('files');
    expect(await files.stat('ota/a.bin')).toEqual({ size: content.length });
    await files.within('materials').putBytes('m.mp3', Buffer.from('ID3'));
    expect((await engine.store.readBytes('files/materials/m.mp3'))?.toString()).toBe('ID3');
  });

  it('refuses keys that are not ours', async () => {
    for (const key of ['../escape', '/abs', 'a//b', 'a/../b', '.hidden', 'a/./b', '', 'a\\b', 'a b'])
      await expect(engine.store.stat(key), key).rejects.toBeInstanceOf(InvalidKey);
    expect(() => engine.store.within('..')).toThrow(InvalidKey);
  });

  it('gives a direct URL only when the store serves files itself, and that URL answers ranges', async () => {
    const url = await engine.store.directUrl('files/ota/a.bin', { ttlSeconds: 60 });
    if (engine.store.kind === 'local') {
      expect(url).toBeUndefined();
      expect(engine.store.localPath('files/ota/a.bin')).toMatch(/files\/ota\/a\.bin$/);
      return;
    }
    expect(engine.store.localPath('files/ota/a.bin')).toBeUndefined();
    const response = await fetch(url!, { headers: { range: 'bytes=10-19' } });
    expect(response.status).toBe(206);
    expect(Buffer.from(await response.arrayBuffer()).equals(content.subarray(10, 20))).toBe(true);
    // The URL is for that file alone.
    const other = new URL(url!);
    other.pathname = other.pathname.replace('a.bin', 'b.bin');
    expect((await fetch(other)).status).toBe(403);
  });

  it('deletes, leaving nothing behind', async () => {
    await engine.store.delete('files/ota/a.bin');
    await engine.store.delete('avatars/x.jpg');
    await engine.store.delete('files/materials/m.mp3');
    expect(await engine.store.stat('files/ota/a.bin')).toBeUndefined();
    expect(engine.keys()).toEqual([]);
  });
});
