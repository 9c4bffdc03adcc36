import crypto from 'node:crypto';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../clock.js';
import { checkKey, InvalidKey, type FileStore } from '../../files/store.js';
import type { DownloadGrant, UrlSigner } from './signing.js';
import { Refusal } from '../../refusal.js';

/** A file panels may download: its key in the store's files area and what it must hash to. */
export interface RegisteredFile {
  path: string;
  size: number;
  sha256: string;
}

export type RegisterRefusal = 'outsideRoot' | 'notFound' | 'sizeMismatch' | 'checksumMismatch';

export class RegisterError extends Error {
  constructor(readonly reason: RegisterRefusal) {
    super(`file not registered: ${reason}`);
    this.name = 'RegisterError';
  }
}

/** What a panel's command carries to fetch a file (docs/device-protocol.md section 6). */
export interface SignedDownload {
  url: string;
  size: number;
  sha256: string;
  expiresAt: number;
}

export type Opened = { ok: true; grant: DownloadGrant } | { ok: false; why: 'invalid' | 'expired' | 'gone' };

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** Signed URLs live an hour (protocol section 6); a retried command is signed again. */
export const DOWNLOAD_URL_TTL_MS = 60 * 60_000;
/**
 * A store's own URL (S3 presigned), handed out in a redirect right after the server checked the
 * panel's link: minutes, not the hour of the panel's link. A transfer already started runs on; a
 * resume comes back to the server and gets a new one.
 */
export const STORE_URL_TTL_SECONDS = 5 * 60;

/** The SHA-256 of a file in the store, read once as a stream. */
export async function sha256OfStored(store: FileStore, key: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(await store.read(key), hash);
  return hash.digest('hex');
}

const keyOrUndefined = (key: string) => {
  try {
    return checkKey(key);
  } catch (error) {
    if (error instanceof InvalidKey) return undefined;
    throw error;
  }
};

/**
 * Files of the store's `files/` area that panels download over HTTP (OTA firmware, APKs,
 * materials): registered with the size and SHA-256 the server checked itself, handed out as
 * short-lived URLs bound to one panel. The server checks every link; the bytes come from the
 * server (a directory store) or, through a redirect, from the store itself (S3).
 */
export class DownloadService {
  constructor(
    /** The `files/` area of the file store: keys are `ota/…`, `apk/…`, `materials/…`. */
    readonly files: FileStore,
    private readonly signer: UrlSigner,
    private readonly baseUrl: string,
    private readonly clock: Clock,
    /** nginx's internal location for the files area, when nginx sends the bytes (FILES_ACCEL_REDIRECT). */
    private readonly accelRedirect?: string,
    private readonly ttlMs = DOWNLOAD_URL_TTL_MS,
  ) {}

  /**
   * Registers a file of the store's files area (its key): it must exist with exactly this size
   * and SHA-256, which the server verifies by reading it once.
   */
  async register(file: { path: string; size: number; sha256: string }): Promise<RegisteredFile> {
    const key = keyOrUndefined(file.path);
    if (!key) throw new RegisterError('outsideRoot');
    const stat = await this.files.stat(key);
    if (!stat) throw new RegisterError('notFound');
    if (stat.size !== file.size) throw new RegisterError('sizeMismatch');
    const sha256 = file.sha256.toLowerCase();
    if (!SHA256_HEX.test(sha256) || (await sha256OfStored(this.files, key)) !== sha256)
      throw new RegisterError('checksumMismatch');
    return { path: key, size: stat.size, sha256 };
  }

  /** Where a checked grant's bytes come from: a store URL to redirect to, else undefined (the server sends them). */
  storeUrl(grant: DownloadGrant): Promise<string | undefined> {
    return this.files.directUrl(grant.file, { ttlSeconds: STORE_URL_TTL_SECONDS });
  }

  /**
   * The internal URI nginx sends a checked grant's bytes from (X-Accel-Redirect), or undefined
   * when the server sends them itself. nginx then answers Range and If-Range from the file.
   */
  accelUri(grant: DownloadGrant): string | undefined {
    if (!this.accelRedirect || this.files.localPath(grant.file) === undefined) return undefined;
    return this.accelRedirect + grant.file.split('/').map(encodeURIComponent).join('/');
  }

  /** A URL only `deviceKey` may use, valid for the next hour. */
  signedUrl(file: RegisteredFile, deviceKey: string): SignedDownload {
    const expiresAt = this.clock.now() + this.ttlMs;
    const token = this.signer.sign({
      file: file.path,
      deviceKey,
      size: file.size,
      sha256: file.sha256,
      expiresAt,
    });
    const name = encodeURIComponent(path.basename(file.path));
    return {
      url: `${this.baseUrl}/device/files/${name}?t=${token}`,
      size: file.size,
      sha256: file.sha256,
      expiresAt,
    };
  }

  /**
   * The file a panel may fetch with this token: the link must be signed for that very panel,
   * unexpired, and its file still there with the registered size.
   */
  async grantFor(deviceKey: string, token: string): Promise<{ grant: DownloadGrant }> {
    const opened = await this.open(token);
    if (!opened.ok) {
      if (opened.why === 'expired') throw new Refusal('download.linkExpired', 'gone');
      if (opened.why === 'gone') throw new Refusal('common.notFound', 'notFound');
      throw new Refusal('download.linkInvalid', 'forbidden');
    }
    if (deviceKey !== opened.grant.deviceKey) throw new Refusal('download.deviceOnly', 'forbidden');
    return opened;
  }

  /** Checks a token and finds its file, which must still have the registered size. */
  async open(token: string): Promise<Opened> {
    const grant = this.signer.verify(token);
    if (!grant) return { ok: false, why: 'invalid' };
    if (grant.expiresAt <= this.clock.now()) return { ok: false, why: 'expired' };
    if (!keyOrUndefined(grant.file)) return { ok: false, why: 'invalid' };
    const stat = await this.files.stat(grant.file);
    if (!stat || stat.size !== grant.size) return { ok: false, why: 'gone' };
    return { ok: true, grant };
  }
}
