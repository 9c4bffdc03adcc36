import crypto from 'node:crypto';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { MemoryLocker, Server as TusServer } from '@tus/server';
import { Upload } from '@tus/utils';
import { uploads, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { FileStoreSettings } from '../../files/open-store.js';
import type { FileStore } from '../../files/store.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import { claimedUpload, type ClaimedUpload } from './claim.js';
import { receivePart } from './part-receiver.js';
import type { UploadClaims, UploadRecord, UploadRepository } from './repository.js';
import { RunningHashes, type HashKinds } from './running-hashes.js';
import { openUploadArea, type UploadArea } from './stores.js';
import { failBody, sendFail, sendTusResponse, TUS_VERSION, TusFail } from './tus-replies.js';

export type { ClaimedUpload } from './claim.js';

export interface UploadLimits {
  firmware: number;
  apk: number;
  video: number;
}

interface RequestContext {
  user: SessionUser;
  language: Language;
}

const DAY_MS = 86_400_000;
const ID_PATTERN = /^[0-9a-f]{32}$/;
/**
 * Only firmware shows an MD5 (the OTA file's fileMd5); the other kinds are hashed with SHA-256
 * alone. APKs also get their v2 content chunks' digests, for the signature check (chunk-digests.ts).
 */
const HASHES: Record<uploads.UploadKind, HashKinds> = {
  firmware: { md5: true, chunks: false },
  apk: { md5: false, chunks: true },
  video: { md5: false, chunks: false },
};

const formatBytes = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/**
 * Resumable uploads (tus 1.0 at /upload/tus). Creation, HEAD and DELETE go through `@tus/server`;
 * PATCH bodies stream straight from Node's request into the store (part-receiver.ts). The bytes
 * live in DATA_DIR/uploads, or with FILE_STORE=s3 in the bucket's `uploads/` where every instance
 * takes any request; they are hashed as they arrive (running-hashes.ts). An upload belongs to the
 * uploading organisation; each kind has its size limit. A finished upload is only bytes and hashes
 * until a kind's call claims it; unfinished and unclaimed ones are swept after a day.
 */
export class UploadService {
  private readonly area: UploadArea;
  private readonly hashes: RunningHashes;
  private readonly locker = new MemoryLocker();
  private readonly tus: TusServer;
  private readonly context = new WeakMap<Request, RequestContext>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      dataDir: string;
      files: FileStore;
      fileSettings: FileStoreSettings;
      limits: UploadLimits;
      repository: UploadRepository;
      claims: UploadClaims;
      clock: Clock;
      logError: (err: unknown, message: string) => void;
    },
  ) {
    this.area = openUploadArea(deps.fileSettings, deps.files, deps.dataDir);
    this.hashes = new RunningHashes(() => deps.clock.now());
    this.tus = new TusServer({
      path: uploads.TUS_PATH,
      datastore: this.area.tus,
      locker: this.locker,
      relativeLocation: true,
      namingFunction: () => crypto.randomBytes(16).toString('hex'),
      // Each kind's limit is checked at creation, in the caller's language; a PATCH beyond the
      // announced length is refused.
      onUploadCreate: async (req, upload) => {
        const ctx = this.context.get(req);
        if (!ctx) throw new Error('an upload request arrived without its caller');
        const kind = upload.metadata?.kind ?? '';
        const fileName = (upload.metadata?.filename ?? '').trim();
        const fail = (key: string, status: number, vars: Record<string, string | number> = {}) => {
          throw { status_code: status, body: failBody(ctx.language, key, vars) };
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
    });
  }

  limits(): UploadLimits {
    return this.deps.limits;
  }

  /**
   * An upload id must name one of the caller's organisation's uploads still receiving or
   * complete; another company's reads as unknown. On a directory that is not shared, an upload
   * whose bytes another instance received is refused as such (409), whatever the method.
   */
  async admit(user: SessionUser, uploadId: string | undefined): Promise<UploadRecord | undefined> {
    if (uploadId === undefined) return undefined;
    const row = ID_PATTERN.test(uploadId) ? await this.deps.repository.find(user.orgId, uploadId) : undefined;
    if (!row || row.state === 'used') throw new Refusal('upload.notFound', 'notFound');
    if (!this.area.shared && (await this.area.offset(row.id)) === undefined)
      throw new Refusal('upload.elsewhere', 'conflict');
    return row;
  }

  /** Runs an admitted request (see `admit`): a PATCH here, the rest through tus. */
  async handle(
    user: SessionUser,
    language: Language,
    raw: { req: IncomingMessage; res: ServerResponse },
    upload: UploadRecord | undefined,
  ): Promise<void> {
    if (raw.req.method === 'PATCH' && upload) return this.receive(language, raw, upload);
    const request = new Request(`http://upload.invalid${raw.req.url ?? '/'}`, {
      method: raw.req.method,
      headers: Object.entries(raw.req.headers).flatMap(([name, value]) =>
        value === undefined
          ? []
          : [[name, Array.isArray(value) ? value.join(', ') : value] as [string, string]],
      ),
    });
    this.context.set(request, { user, language });
    const response = await this.tus.handleWeb(request);
    if (raw.req.method === 'DELETE' && upload && response.status === 204) {
      this.hashes.forget(upload.id);
      await this.deps.repository.delete(user.orgId, upload.id);
    }
    await sendTusResponse(raw.res, response, language, (message) => this.deps.logError(undefined, message));
  }

  private async receive(
    language: Language,
    raw: { req: IncomingMessage; res: ServerResponse },
    upload: UploadRecord,
  ) {
    try {
      const kind = upload.kind as uploads.UploadKind;
      const part = await receivePart(raw.req, upload.id, {
        store: this.area.tus,
        locker: this.locker,
        hashes: this.hashes,
        kinds: HASHES[kind],
      });
      if (part.offset === part.size) {
        const digests = await this.hashes.digests(upload.id, part.size, HASHES[kind], () =>
          this.area.bytes.read(upload.id),
        );
        await this.deps.repository.complete(upload.id, digests, this.deps.clock.now());
      }
      raw.res
        .writeHead(204, {
          'Tus-Resumable': TUS_VERSION,
          'Upload-Offset': String(part.offset),
          'Cache-Control': 'no-store',
        })
        .end();
    } catch (error) {
      if (error instanceof TusFail) return sendFail(raw.res, language, error);
      this.deps.logError(error, 'upload PATCH failed');
      sendFail(raw.res, language, new TusFail(500, 'common.serverError'));
    }
  }

  async state(user: SessionUser, uploadId: string): Promise<uploads.UploadState> {
    const row = await this.deps.repository.find(user.orgId, uploadId);
    if (!row) throw new Refusal('upload.notFound', 'notFound');
    let offset = row.size;
    if (row.state === 'receiving') {
      const stored = await this.area.offset(row.id);
      if (stored === undefined && !this.area.shared) throw new Refusal('upload.elsewhere', 'conflict');
      offset = stored ?? 0;
    }
    return {
      uploadId: row.id,
      kind: row.kind as uploads.UploadKind,
      fileName: row.file_name,
      size: row.size,
      offset,
      state: row.state,
      sha256: row.sha256,
      md5: row.md5,
      createdAt: row.created_at,
    };
  }

  /**
   * A small file sent whole (a multipart form's file): stored and hashed as a finished upload of
   * `kind`, under the same rules as a resumable one, so that the kind's call takes it by its id.
   */
  async receiveWhole(
    user: SessionUser,
    kind: uploads.UploadKind,
    file: { fileName: string; bytes: Uint8Array },
  ): Promise<string> {
    if (!uploads.UPLOAD_KIND_USER_TYPES[kind].includes(user.userType))
      throw new Refusal('upload.kindNotAllowed', 'forbidden');
    const size = file.bytes.length;
    if (size === 0) throw new Refusal('upload.empty', 'invalid');
    const limit = this.deps.limits[kind];
    if (size > limit) throw new Refusal('upload.tooLarge', 'tooLarge', { limit: formatBytes(limit) });
    const fileName = file.fileName.trim();
    if (!fileName || fileName.length > 255 || fileName.includes('\0'))
      throw new Refusal('upload.fileNameInvalid', 'invalid');
    const id = crypto.randomBytes(16).toString('hex');
    await this.deps.repository.insert({
      id,
      org_id: user.orgId,
      user_id: user.id,
      kind,
      file_name: fileName,
      size,
      state: 'receiving',
      created_at: this.deps.clock.now(),
      completed_at: null,
    });
    await this.area.tus.create(new Upload({ id, size, offset: 0, metadata: { kind, filename: fileName } }));
    await this.area.tus.write(Readable.from([Buffer.from(file.bytes)]), id, 0);
    const digest = (algorithm: string) => crypto.createHash(algorithm).update(file.bytes).digest('hex');
    await this.deps.repository.complete(
      id,
      { sha256: digest('sha256'), md5: HASHES[kind].md5 ? digest('md5') : '' },
      this.deps.clock.now(),
    );
    return id;
  }

  /**
   * Takes a finished upload of the organisation for a file of `kind`: it is marked used at once (a
   * parallel request gets notFound or incomplete). The taker stores the bytes (`storeAs`) and
   * calls `done`, which removes the upload; if making its file failed it calls `giveBack`.
   */
  async claim(orgId: number, uploadId: string, kind: uploads.UploadKind): Promise<ClaimedUpload> {
    const claimed = await this.deps.claims.claim(orgId, uploadId, kind);
    if (!claimed) {
      const row = await this.deps.repository.find(orgId, uploadId);
      if (row?.state === 'receiving') throw new Refusal('upload.incomplete', 'conflict');
      if (row?.state === 'used') throw new Refusal('upload.used', 'conflict');
      throw new Refusal('upload.notFound', 'notFound');
    }
    // On a directory that is not shared, the bytes are where they were received.
    const stored = await this.area.bytes.stat(claimed.id);
    if (stored?.size !== claimed.size) {
      await this.deps.claims.release(orgId, claimed.id);
      throw new Refusal(this.area.shared ? 'upload.notFound' : 'upload.elsewhere', 'conflict');
    }
    return claimedUpload(claimed, this.area, path.join(this.deps.dataDir, 'tmp'), {
      contentChunks: this.hashes.contentChunks(claimed.id),
      forget: () => {
        this.hashes.forget(claimed.id);
        return this.deps.claims.forget(claimed.id);
      },
      release: () => this.deps.claims.release(orgId, claimed.id),
    });
  }

  /** Deletes unfinished and unclaimed uploads older than a day, and bytes no row knows. */
  async sweep(): Promise<number> {
    const now = this.deps.clock.now();
    let removed = 0;
    this.hashes.prune();
    for (const row of await this.deps.repository.stale(now - DAY_MS, 500)) {
      this.hashes.forget(row.id);
      await this.area.remove(row.id);
      await this.deps.repository.deleteById(row.id);
      removed++;
    }
    const strays = await this.area.strays(now);
    const known = await this.deps.repository.knownIds(strays.map((s) => s.id));
    for (const stray of strays) {
      // Bytes without a row, older than a minute: a creation that never committed its row.
      if (known.has(stray.id) || stray.ageMs < 60_000) continue;
      await this.area.remove(stray.id);
      removed++;
    }
    return removed;
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
