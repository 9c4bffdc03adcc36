import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { materials, programs } from '@panelfleet/contract';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { z } from 'zod';
import { Refusal } from '../../refusal.js';

/**
 * The program zip (docs/ARCHITECTURE.md, Programs): `program.json` with the playlist and a
 * `media/` folder with one file per media item, named in program.json.
 */
export const MANIFEST_NAME = 'program.json';
export const ZIP_FORMAT = 'panelfleet-program';

/** Limits of an imported zip, all checked on the central directory before anything inflates. */
export const ZIP_LIMITS = {
  /** The upload itself. */
  uploadBytes: 512 * 1024 * 1024,
  /** program.json and one file per item at most. */
  entries: programs.ITEMS_MAX + 1,
  manifestBytes: 256 * 1024,
  /** All entries inflated together. */
  totalBytes: 1024 * 1024 * 1024,
  /** An entry above 1 MiB that inflates to more than this many times its compressed size is a bomb. */
  ratio: 100,
} as const;

const MEDIA_NAME = /^media\/[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;

export const zipManifest = z.object({
  format: z.literal(ZIP_FORMAT),
  v: z.literal(1),
  name: z.string().trim().min(1).max(programs.NAME_MAX),
  playTime: z.number().int().min(1).max(programs.PLAY_TIME_MAX),
  items: z
    .array(
      z.discriminatedUnion('type', [
        z.object({
          type: z.enum(['image', 'video', 'audio']),
          duration: z.number().int().min(1).max(programs.ITEM_DURATION_MAX),
          file: z.string().regex(MEDIA_NAME),
          /** The name the material had, for the library. */
          fileName: z.string().min(1).max(255),
        }),
        z.object({
          type: z.literal('web'),
          duration: z.number().int().min(1).max(programs.ITEM_DURATION_MAX),
          url: z.string(),
        }),
      ]),
    )
    .min(1)
    .max(programs.ITEMS_MAX),
});
export type ZipManifest = z.infer<typeof zipManifest>;

export interface ZipMedia {
  /** The entry name in the zip. */
  entry: string;
  size: number;
  open(): Promise<NodeJS.ReadableStream>;
}

/** Writes a program's zip to `out`: the manifest first, then every media file. */
export async function writeProgramZip(
  manifest: ZipManifest,
  media: ZipMedia[],
  out: NodeJS.WritableStream,
): Promise<void> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), MANIFEST_NAME);
  // Media are compressed already: stored, not deflated again.
  for (const file of media)
    zip.addReadStreamLazy(file.entry, { compress: false, size: file.size }, (callback) => {
      file.open().then(
        (stream) => callback(null, stream),
        (error: unknown) => callback(error, undefined as unknown as NodeJS.ReadableStream),
      );
    });
  zip.end();
  await pipeline(zip.outputStream, out);
}

const bad = (key: string) => new Refusal(key, 'invalid');

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      file,
      {
        lazyEntries: true,
        autoClose: false,
        decodeStrings: true,
        validateEntrySizes: true,
        strictFileNames: true,
      },
      (err, zip) => (err || !zip ? reject(bad('program.zipInvalid')) : resolve(zip)),
    ),
  );
}

/** yauzl's own name checks (absolute, `..`, backslashes) and ours (links, unknown folders). */
function unsafe(error: unknown): boolean {
  const text = error instanceof Error ? error.message : '';
  return /^(absolute path|invalid relative path|invalid characters in fileName)/.test(text);
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/** Lists the entries: every rule that needs no inflating (names, links, counts, sizes, ratios). */
async function listEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  const entries = new Map<string, yauzl.Entry>();
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = entry.fileName;
      const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
      // Directories are allowed and skipped; anything but a regular file (a link) is refused.
      if (name.endsWith('/')) {
        if (name !== 'media/') return reject(bad('program.zipUnsafePath'));
        zip.readEntry();
        return;
      }
      if (mode !== 0 && mode !== S_IFREG) return reject(bad('program.zipUnsafePath'));
      if (name !== MANIFEST_NAME && !MEDIA_NAME.test(name)) return reject(bad('program.zipUnsafePath'));
      if (entries.has(name)) return reject(bad('program.zipInvalid'));
      if (entries.size >= ZIP_LIMITS.entries) return reject(bad('program.zipTooManyEntries'));
      total += entry.uncompressedSize;
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (
        total > ZIP_LIMITS.totalBytes ||
        entry.uncompressedSize > materials.VIDEO_MAX_BYTES ||
        (entry.uncompressedSize > 1024 * 1024 && ratio > ZIP_LIMITS.ratio)
      )
        return reject(bad('program.zipBomb'));
      entries.set(name, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', (error: unknown) =>
      reject(unsafe(error) ? bad('program.zipUnsafePath') : bad('program.zipInvalid')),
    );
    zip.readEntry();
  });
  return entries;
}

/** Inflates an entry to a file; yauzl stops one whose bytes exceed its declared size. */
function extract(zip: yauzl.ZipFile, entry: yauzl.Entry, target: string): Promise<void> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(bad('program.zipInvalid'));
      pipeline(stream, fs.createWriteStream(target, { flags: 'wx' })).then(resolve, () =>
        reject(bad('program.zipBomb')),
      );
    }),
  );
}

export interface ReadZip {
  manifest: ZipManifest;
  /** Each media item's extracted file, by entry name. */
  files: Map<string, string>;
}

/**
 * Reads an uploaded program zip into `staging` (an empty folder the caller removes): the central
 * directory is checked first (names without `..`, absolute paths or links, entry count, sizes and
 * ratios), then program.json, then every media entry is extracted within its declared size.
 * Contents are checked by the caller, before anything is stored.
 */
export async function readProgramZip(file: string, staging: string): Promise<ReadZip> {
  const zip = await openZip(file);
  try {
    const entries = await listEntries(zip);
    const manifestEntry = entries.get(MANIFEST_NAME);
    if (!manifestEntry) throw bad('program.zipNoManifest');
    if (manifestEntry.uncompressedSize > ZIP_LIMITS.manifestBytes) throw bad('program.zipManifestInvalid');
    const manifestPath = path.join(staging, 'program.json');
    await extract(zip, manifestEntry, manifestPath);
    let manifest: ZipManifest;
    try {
      manifest = zipManifest.parse(JSON.parse(await fs.promises.readFile(manifestPath, 'utf8')));
    } catch {
      throw bad('program.zipManifestInvalid');
    }
    const named = new Set(manifest.items.flatMap((item) => (item.type === 'web' ? [] : [item.file])));
    for (const name of entries.keys())
      if (name !== MANIFEST_NAME && !named.has(name)) throw bad('program.zipUnexpectedEntry');
    const files = new Map<string, string>();
    let index = 0;
    for (const name of named) {
      const entry = entries.get(name);
      if (!entry) throw bad('program.zipMissingFile');
      const target = path.join(staging, `media-${index++}`);
      await extract(zip, entry, target);
      files.set(name, target);
    }
    return { manifest, files };
  } finally {
    zip.close();
  }
}
