import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../clock.js';
import type { DownloadGrant, UrlSigner } from './signing.js';
import { Refusal } from '../../refusal.js';

/** A file panels may download: where it is (relative to the download root) and what it must hash to. */
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

export type Opened =
  { ok: true; grant: DownloadGrant; absolute: string } | { ok: false; why: 'invalid' | 'expired' | 'gone' };

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** Signed URLs live an hour (protocol section 6); a retried command is signed again. */
export const DOWNLOAD_URL_TTL_MS = 60 * 60_000;

export async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

/**
 * Files under DATA_DIR/files that panels download over HTTP (OTA firmware, APKs): registered with
 * the size and SHA-256 the server checked itself, handed out as short-lived URLs bound to one panel.
 */
export class DownloadService {
  constructor(
    readonly root: string,
    private readonly signer: UrlSigner,
    private readonly baseUrl: string,
    private readonly clock: Clock,
    private readonly ttlMs = DOWNLOAD_URL_TTL_MS,
  ) {}

  /** Resolves a path below the root; undefined for anything that escapes it. */
  private inside(relative: string): string | undefined {
    const absolute = path.resolve(this.root, relative);
    return absolute.startsWith(this.root + path.sep) ? absolute : undefined;
  }

  /**
   * Registers a file below the root (a path relative to it, or absolute inside it): it must exist
   * with exactly this size and SHA-256, which the server verifies by reading it once.
   */
  async register(file: { path: string; size: number; sha256: string }): Promise<RegisteredFile> {
    const absolute = this.inside(file.path);
    if (!absolute) throw new RegisterError('outsideRoot');
    const stat = await fs.promises.stat(absolute).catch(() => undefined);
    if (!stat?.isFile()) throw new RegisterError('notFound');
    if (stat.size !== file.size) throw new RegisterError('sizeMismatch');
    const sha256 = file.sha256.toLowerCase();
    if (!SHA256_HEX.test(sha256) || (await sha256OfFile(absolute)) !== sha256)
      throw new RegisterError('checksumMismatch');
    return { path: path.relative(this.root, absolute), size: stat.size, sha256 };
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
  async grantFor(deviceKey: string, token: string): Promise<{ grant: DownloadGrant; absolute: string }> {
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
    const absolute = this.inside(grant.file);
    if (!absolute) return { ok: false, why: 'invalid' };
    const stat = await fs.promises.stat(absolute).catch(() => undefined);
    if (!stat?.isFile() || stat.size !== grant.size) return { ok: false, why: 'gone' };
    return { ok: true, grant, absolute };
  }
}
