import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import yauzl from 'yauzl';
import { Refusal } from '../../refusal.js';
import { readSigner } from './apk-signature.js';
import { resolveResource } from './arsc.js';

const require = createRequire(import.meta.url);

/** adbkit-apkreader's manifest parser, run on bytes this module extracted within its limits. */
const ManifestParser = require('@devicefarmer/adbkit-apkreader/lib/apkreader/parser/manifest') as new (
  buffer: Buffer,
) => { parse(): ParsedManifest };

interface ParsedManifest {
  package?: unknown;
  versionCode?: unknown;
  versionName?: unknown;
  usesSdk?: { minSdkVersion?: unknown } | null;
  application?: { label?: unknown; icon?: unknown } | null;
}

/** What the server reads from an APK (never what the uploader claims). */
export interface ApkInfo {
  packageName: string;
  label: string;
  versionName: string;
  versionCode: number;
  minSdk: number | null;
  /** SHA-256 (hex, lower case) of the signing certificate (DER). */
  signerSha256: string;
  /** Which APK signature scheme carried it. */
  signatureScheme: 'v2' | 'v3';
  /** The launcher icon's bytes as stored in the APK (PNG, WebP or JPEG), when it has one. */
  icon: Buffer | undefined;
}

/** Limits of what is read out of an APK: a zip bomb is refused before anything inflates. */
export const APK_LIMITS = {
  entries: 65_536,
  /** Uncompressed bytes of all entries together. */
  totalBytes: 4 * 1024 ** 3,
  /** An entry that inflates to more than this many times its compressed size (above 1 MiB). */
  ratio: 100,
  manifestBytes: 4 * 1024 * 1024,
  resourcesBytes: 64 * 1024 * 1024,
  iconBytes: 4 * 1024 * 1024,
} as const;

const PACKAGE_PATTERN = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
const ICON_EXTENSIONS = /\.(png|webp|jpe?g)$/i;

const notApk = (detail: string) => new Refusal('apk.notApk', 'invalid', { detail });

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: false }, (err, zip) =>
      err || !zip ? reject(err ?? new Error('no zip')) : resolve(zip),
    ),
  );
}

async function listEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  const entries = new Map<string, yauzl.Entry>();
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entries.size >= APK_LIMITS.entries) return reject(notApk('entries'));
      total += entry.uncompressedSize;
      if (total > APK_LIMITS.totalBytes) return reject(new Refusal('apk.zipBomb', 'invalid'));
      if (
        entry.uncompressedSize > 1024 * 1024 &&
        entry.uncompressedSize > APK_LIMITS.ratio * Math.max(1, entry.compressedSize)
      )
        return reject(new Refusal('apk.zipBomb', 'invalid'));
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

/** An entry's bytes, at most `limit` (the declared size is checked first; yauzl checks the real one). */
function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, limit: number): Promise<Buffer> {
  if (entry.uncompressedSize > limit) return Promise.reject(new Refusal('apk.zipBomb', 'invalid'));
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(err ?? new Error('no stream'));
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          stream.destroy();
          reject(new Refusal('apk.zipBomb', 'invalid'));
        } else chunks.push(chunk);
      });
      stream.on('end', () => resolve(Buffer.concat(chunks)));
      stream.on('error', reject);
    }),
  );
}

const RESOURCE_REF = /^resourceId:0x([0-9a-f]{8})$/i;

/**
 * Reads an APK on disk: its zip directory (refusing broken zips and zip bombs before inflating
 * anything), the binary manifest (with adbkit-apkreader's parser), the label and launcher icon
 * through resources.arsc, and the signing certificate of its v2/v3 signature block, verified.
 * Anything that does not hold is a Refusal with the reason in the caller's language.
 * `contentChunks`: the upload's v2 chunk digests, when it took them (readSigner).
 */
export async function readApk(file: string, contentChunks?: readonly Buffer[]): Promise<ApkInfo> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch {
    throw notApk('zip');
  }
  try {
    let entries: Map<string, yauzl.Entry>;
    try {
      entries = await listEntries(zip);
    } catch (err) {
      if (err instanceof Refusal) throw err;
      throw notApk('zip');
    }
    const manifestEntry = entries.get('AndroidManifest.xml');
    if (!manifestEntry) throw notApk('manifest');
    const bytes = await readEntry(zip, manifestEntry, APK_LIMITS.manifestBytes).catch(rethrowAs('zip'));
    let manifest: ParsedManifest;
    try {
      manifest = new ManifestParser(bytes).parse();
    } catch {
      throw notApk('manifest');
    }
    const packageName = typeof manifest.package === 'string' ? manifest.package : '';
    if (!PACKAGE_PATTERN.test(packageName) || packageName.length > 255) throw notApk('package');
    const versionCode = Number(manifest.versionCode);
    if (!Number.isSafeInteger(versionCode) || versionCode < 0) throw notApk('versionCode');
    const minSdkRaw = manifest.usesSdk?.minSdkVersion;
    const minSdk = Number.isInteger(Number(minSdkRaw)) && minSdkRaw !== undefined ? Number(minSdkRaw) : null;

    const arscEntry = entries.get('resources.arsc');
    const arsc = arscEntry
      ? await readEntry(zip, arscEntry, APK_LIMITS.resourcesBytes).catch(rethrowAs('resources'))
      : undefined;
    const resolve = (value: unknown): string[] => {
      if (typeof value === 'string') {
        const ref = RESOURCE_REF.exec(value);
        if (!ref) return [value];
        if (!arsc) return [];
        try {
          return resolveResource(arsc, parseInt(ref[1]!, 16));
        } catch {
          throw notApk('resources');
        }
      }
      return typeof value === 'number' ? [String(value)] : [];
    };
    const versionName = (resolve(manifest.versionName)[0] ?? '').slice(0, 128);
    const label =
      (resolve(manifest.application?.label)[0] ?? packageName).trim().slice(0, 255) || packageName;
    // The densest bitmap of the icon (adaptive XML icons have no picture to serve).
    const iconPath = resolve(manifest.application?.icon).find((p) => ICON_EXTENSIONS.test(p));
    const iconEntry = iconPath ? entries.get(iconPath) : undefined;
    const icon = iconEntry
      ? await readEntry(zip, iconEntry, APK_LIMITS.iconBytes).catch(rethrowAs('icon'))
      : undefined;
    const signer = await readSigner(file, contentChunks);
    return {
      packageName,
      label,
      versionName,
      versionCode,
      minSdk,
      signerSha256: crypto.createHash('sha256').update(signer.certificate).digest('hex'),
      signatureScheme: signer.scheme,
      icon,
    };
  } finally {
    zip.close();
  }
}

const rethrowAs = (detail: string) => (err: unknown) => {
  if (err instanceof Refusal) throw err;
  throw notApk(detail);
};

/** Size of a file on disk (the reader refuses nothing by size: the upload kind's limit did). */
export async function fileSize(file: string) {
  return (await fs.promises.stat(file)).size;
}
