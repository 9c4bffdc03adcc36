import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server as TusServer } from '@tus/server';
import { failWithKey, translate, uploads, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import { HashingFileStore } from './hashing-store.js';
import type { UploadClaims, UploadRecord, UploadRepository } from './repository.js';

export interface UploadLimits {
  firmware: number;
  apk: number;
  video: number;
}

interface RequestContext {
  user: SessionUser;
  language: Language;
}

/** What a kind's call receives when it takes a finished upload. */
export interface ClaimedUpload {
  id: string;
  fileName: string;
  size: number;
  sha256: string;
  md5: string;
  /** Where the bytes are now; the taker copies them into the file store, then calls `done` (or `giveBack`). */
  absolute: string;
}

const DAY_MS = 86_400_000;
const ID_PATTERN = /^[0-9a-f]{32}$/;

const formatBytes = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/**
 * Resumable uploads with tus (`@tus/server` + a hashing `@tus/file-store`), behind Fastify's raw
 * request: bytes stream to DATA_DIR/uploads and are hashed as they arrive; an upload belongs to
 * the uploading organisation; each kind has its size limit. A finished upload is only bytes and
 * hashes until a kind's call claims it; unfinished and unclaimed ones are swept after a day.
 */
export class UploadService {
  readonly directory: string;
  private readonly store: HashingFileStore;
  private readonly tus: TusServer;
  private readonly context = new WeakMap<IncomingMessage, RequestContext>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      dataDir: string;
      limits: UploadLimits;
      repository: UploadRepository;
      claims: UploadClaims;
      clock: Clock;
      logError: (err: unknown, message: string) => void;
    },
  ) {
    this.directory = path.join(deps.dataDir, 'uploads');
    fs.mkdirSync(this.directory, { recursive: true });
    this.store = new HashingFileStore(this.directory);
    this.tus = new TusServer({
      path: uploads.TUS_PATH,
      datastore: this.store,
      relativeLocation: true,
      // Each kind's limit is checked at creation (onUploadCreate), in the caller's language; tus
      // then refuses any PATCH beyond the announced length.
      namingFunction: () => crypto.randomBytes(16).toString('hex'),
      onUploadCreate: async (req, upload) => {
        const ctx = this.contextOf(req);
        const kind = upload.metadata?.kind ?? '';
        const fileName = (upload.metadata?.filename ?? '').trim();
        const fail = (key: string, status: number, vars: Record<string, string | number> = {}) => {
          throw { status_code: status, body: this.failBody(ctx.language, key, vars) };
        };
        if (!(uploads.UPLOAD_KINDS as readonly string[]).includes(kind)) fail('upload.kindInvalid', 400);
        if (!uploads.UPLOAD_KIND_USER_TYPES[kind as uploads.UploadKind].includes(ctx.user.userType))
          fail('upload.kindNotAllowed', 403);
        if (upload.size === undefined) fail('upload.lengthRequired', 400);
        if (upload.size === 0) fail('upload.empty', 400);
        const limit = deps.limits[kind as uploads.UploadKind];
        if (upload.size! > limit) fail('upload.tooLarge', 413, { limit: formatBytes(limit) });
        if (!fileName || fileName.length > 255 || fileName.includes('\0'))
          fail('upload.fileNameInvalid', 400);
        await deps.repository.insert({
          id: upload.id,
          org_id: ctx.user.orgId,
          user_id: ctx.user.id,
          kind,
          file_name: fileName,
          size: upload.size!,
          state: 'receiving',
          created_at: deps.clock.now(),
          completed_at: null,
        });
        return {};
      },
      onUploadFinish: async (_req, upload) => {
        const digests = await this.store.digests(upload.id, upload.size!);
        await deps.repository.complete(upload.id, digests, deps.clock.now());
        return {};
      },
      onResponseError: (req, err) => {
        if ('status_code' in err) return undefined;
        deps.logError(err, `upload ${req.method} failed`);
        return undefined;
      },
    });
  }

  private contextOf(req: Request): RequestContext {
    const raw = (req as unknown as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    const ctx = raw ? this.context.get(raw) : undefined;
    if (!ctx) throw new Error('an upload request arrived without its caller');
    return ctx;
  }

  private failBody(language: Language, key: string, vars: Record<string, string | number>) {
    return JSON.stringify(failWithKey(translate(language, key, vars), key, vars));
  }

  limits(): UploadLimits {
    return this.deps.limits;
  }

  /**
   * An upload id must name one of the caller's organisation's uploads still receiving or
   * complete; another company's reads as unknown.
   */
  async admit(user: SessionUser, uploadId: string | undefined): Promise<void> {
    if (uploadId === undefined) return;
    const row = ID_PATTERN.test(uploadId) ? await this.deps.repository.find(user.orgId, uploadId) : undefined;
    if (!row || row.state === 'used') throw new Refusal('upload.notFound', 'notFound');
  }

  /** Runs an admitted request (see `admit`) through tus, which writes the response. */
  async handle(
    user: SessionUser,
    language: Language,
    raw: { req: IncomingMessage; res: ServerResponse },
    uploadId: string | undefined,
  ): Promise<void> {
    this.context.set(raw.req, { user, language });
    await this.tus.handle(raw.req, raw.res);
    if (raw.req.method === 'DELETE' && uploadId !== undefined && raw.res.statusCode === 204) {
      this.store.forget(uploadId);
      await this.deps.repository.delete(user.orgId, uploadId);
    }
  }

  async state(user: SessionUser, uploadId: string): Promise<uploads.UploadState> {
    const row = await this.deps.repository.find(user.orgId, uploadId);
    if (!row) throw new Refusal('upload.notFound', 'notFound');
    return {
      uploadId: row.id,
      kind: row.kind as uploads.UploadKind,
      fileName: row.file_name,
      size: row.size,
      offset: row.state === 'receiving' ? await this.storedBytes(row) : row.size,
      state: row.state,
      sha256: row.sha256,
      md5: row.md5,
      createdAt: row.created_at,
    };
  }

  private async storedBytes(row: UploadRecord) {
    const stat = await fs.promises.stat(path.join(this.directory, row.id)).catch(() => undefined);
    return stat?.size ?? 0;
  }

  /**
   * Takes a finished upload of the organisation for a file of `kind`: it is marked used at once (a
   * parallel request gets notFound or incomplete). The taker puts the bytes into the file store
   * and calls `done`, which removes them here; if making its file failed it calls `giveBack`.
   */
  async claim(
    orgId: number,
    uploadId: string,
    kind: uploads.UploadKind,
  ): Promise<ClaimedUpload & { done(): Promise<void>; giveBack(): Promise<void>; discard(): Promise<void> }> {
    const claimed = await this.deps.claims.claim(orgId, uploadId, kind);
    if (!claimed) {
      const row = await this.deps.repository.find(orgId, uploadId);
      if (row?.state === 'receiving') throw new Refusal('upload.incomplete', 'conflict');
      if (row?.state === 'used') throw new Refusal('upload.used', 'conflict');
      throw new Refusal('upload.notFound', 'notFound');
    }
    const absolute = path.join(this.directory, claimed.id);
    // Partial uploads live in this instance's uploads directory (shared between instances, or a
    // balancer that keeps a console on one instance): bytes received by another are not here.
    const stat = await fs.promises.stat(absolute).catch(() => undefined);
    if (stat?.size !== claimed.size) {
      await this.deps.claims.release(orgId, claimed.id);
      throw new Refusal('upload.elsewhere', 'conflict');
    }
    return {
      id: claimed.id,
      fileName: claimed.file_name,
      size: claimed.size,
      sha256: claimed.sha256,
      md5: claimed.md5,
      absolute,
      done: async () => {
        await this.removeFiles(claimed.id);
        await this.deps.claims.forget(claimed.id);
      },
      giveBack: () => this.deps.claims.release(orgId, claimed.id),
      // The bytes can never become a file of this kind (not an APK): they and the row go.
      discard: async () => {
        await this.removeFiles(claimed.id);
        await this.deps.claims.forget(claimed.id);
      },
    };
  }

  /** Deletes unfinished and unclaimed uploads older than a day, and files no row knows. */
  async sweep(): Promise<number> {
    const now = this.deps.clock.now();
    let removed = 0;
    for (const row of await this.deps.repository.stale(now - DAY_MS, 500)) {
      await this.removeFiles(row.id);
      await this.deps.repository.deleteById(row.id);
      removed++;
    }
    const names = await fs.promises.readdir(this.directory);
    const ids = [...new Set(names.map((n) => n.replace(/\.json$/, '')).filter((n) => ID_PATTERN.test(n)))];
    const known = await this.deps.repository.knownIds(ids);
    for (const id of ids) {
      if (known.has(id)) continue;
      // A file without a row is older than a minute: a creation that never committed its row.
      const stat = await fs.promises.stat(path.join(this.directory, id)).catch(() => undefined);
      if (stat && now - stat.mtimeMs < 60_000) continue;
      await this.removeFiles(id);
      removed++;
    }
    return removed;
  }

  private async removeFiles(id: string) {
    this.store.forget(id);
    await fs.promises.rm(path.join(this.directory, id), { force: true });
    await fs.promises.rm(path.join(this.directory, `${id}.json`), { force: true });
  }

  startSweeping(everyMs = 10 * 60_000) {
    const run = () =>
      void this.sweep().catch((err: unknown) => this.deps.logError(err, 'upload sweep failed'));
    run();
    this.sweeper = setInterval(run, everyMs);
    this.sweeper.unref();
  }

  stop() {
    if (this.sweeper) clearInterval(this.sweeper);
  }
}
