import crypto from 'node:crypto';
import type { apk, MultipartFile } from '@panelfleet/contract';
import sharp from 'sharp';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { FileStore } from '../../files/store.js';
import { pageOffset } from '../../http/access.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { UploadService } from '../uploads/service.js';
import { readApk, type ApkInfo } from './apk-reader.js';
import type { ApkRepository, CardRow } from './repository.js';
import { toCard, toSub, toVersion } from './views.js';

type Sub = z.infer<typeof apk.apkFileSub>;

/** The APK: a finished resumable upload, or a small file sent whole (stored as one first). */
type ApkSource = { uploadId?: string; file?: MultipartFile };

/** Where APKs and their icons live in the store's files area (the downloads module serves it). */
const APK_DIR = 'apk';
const ICON_SIZE = 192;

/** Refusals about the file itself: the upload can never become an APK and is discarded. */
const CONTENT_REFUSALS = new Set(['apk.notApk', 'apk.zipBomb', 'apk.unsigned', 'apk.badSignature']);

interface Stored {
  info: ApkInfo;
  upload: { fileName: string; size: number; sha256: string; md5: string };
  relative: string;
  iconRelative: string;
  /** Removes the stored files and gives the upload back (a rule refused the APK). */
  undo(): Promise<void>;
  /** The upload is used up. */
  done(): Promise<void>;
}

/**
 * The APK repository (spec 3 section 2.6): every APK is read on upload (apk-reader.ts) and
 * checked against its card before anything is stored; the bytes go into the file store under
 * files/apk (on a directory store a second name, never a copy) and the launcher icon is
 * re-encoded as a PNG beside them; the upload's bytes go once the APK is recorded. A refused
 * file leaves nothing stored: its bytes stay with the upload (a rule refusal: the operator may
 * retry with the downgrade box) or are deleted (not an APK).
 */
export class ApkService {
  constructor(
    private readonly deps: {
      apks: ApkRepository;
      uploads: UploadService;
      /** The file store's files area: the downloads module serves panels from here. */
      files: FileStore;
      log: OperationLog;
      clock: Clock;
    },
  ) {}

  // ---- reading ----

  async list(caller: SessionUser, p: { start: number; size: number; label?: string }) {
    const { rows, total } = await this.deps.apks.page(
      caller.orgId,
      pageOffset(p.start, p.size),
      p.size,
      p.label,
    );
    return { rows: rows.map(toCard), total };
  }

  async card(caller: SessionUser, id: number): Promise<CardRow> {
    const row = await this.deps.apks.card(caller.orgId, id);
    if (!row) throw new Refusal('apk.cardNotFound', 'notFound');
    return row;
  }

  async details(caller: SessionUser, p: { apkMarkId: number; start: number; size: number }) {
    const card = await this.card(caller, p.apkMarkId);
    const { rows, subs, total } = await this.deps.apks.versions(
      caller.orgId,
      card.id,
      pageOffset(p.start, p.size),
      p.size,
    );
    const subsOf = new Map<number, Sub[]>();
    for (const s of subs) subsOf.set(s.version_id, [...(subsOf.get(s.version_id) ?? []), toSub(s)]);
    return {
      card: toCard(card),
      rows: rows.map((v) => toVersion(v, v.id === card.latest_id, subsOf.get(v.id) ?? [])),
      total,
    };
  }

  /** The icon (PNG bytes) of a version or auxiliary app the caller sees. */
  async icon(caller: SessionUser, kind: 'version' | 'sub', id: number): Promise<Buffer> {
    const row =
      kind === 'version'
        ? await this.deps.apks.version(caller.orgId, id)
        : await this.deps.apks.sub(caller.orgId, id);
    if (!row?.icon_path) throw new Refusal('apk.iconNotFound', 'notFound');
    const png = await this.deps.files.readBytes(row.icon_path);
    if (!png) throw new Refusal('apk.iconNotFound', 'notFound');
    return png;
  }

  // ---- uploads ----

  /** Claims an upload, reads it, and stores the APK and its icon (the caller then records them). */
  private async store(caller: SessionUser, source: ApkSource): Promise<Stored> {
    if (!source.uploadId && !source.file) throw new Refusal('apk.fileOrUpload', 'invalid');
    const uploadId = source.uploadId ?? (await this.deps.uploads.receiveWhole(caller, 'apk', source.file!));
    const upload = await this.deps.uploads.claim(caller.orgId, uploadId, 'apk');
    let info: ApkInfo;
    try {
      info = await readApk(await upload.localFile(), upload.contentChunks);
    } catch (err) {
      if (err instanceof Refusal && CONTENT_REFUSALS.has(err.key)) await upload.discard();
      else await upload.giveBack();
      throw err;
    }
    const name = crypto.randomUUID();
    const relative = `${APK_DIR}/${name}.apk`;
    let iconRelative = '';
    const remove = async () => {
      await this.deps.files.delete(relative);
      if (iconRelative) await this.deps.files.delete(iconRelative);
    };
    try {
      if (info.icon) {
        // Re-encoded: what the console shows is a PNG the server made, never the APK's bytes.
        const png = await sharp(info.icon)
          .resize(ICON_SIZE, ICON_SIZE, { fit: 'inside', withoutEnlargement: true })
          .png()
          .toBuffer()
          .catch(() => undefined);
        if (png) {
          iconRelative = `${APK_DIR}/${name}.png`;
          await this.deps.files.putBytes(iconRelative, png, 'image/png');
        }
      }
      await upload.storeAs(this.deps.files, relative, {
        contentType: 'application/vnd.android.package-archive',
      });
    } catch (err) {
      await remove();
      await upload.giveBack();
      throw err;
    }
    return {
      info,
      upload: { fileName: upload.fileName, size: upload.size, sha256: upload.sha256, md5: upload.md5 },
      relative,
      iconRelative,
      undo: async () => {
        await remove();
        await upload.giveBack();
      },
      done: () => upload.done(),
    };
  }

  private async recorded<T>(stored: Stored, record: () => Promise<T>): Promise<T> {
    try {
      const out = await record();
      await stored.done();
      return out;
    } catch (err) {
      await stored.undo();
      throw err;
    }
  }

  private versionRow(caller: SessionUser, s: Stored, remark: string, now: number) {
    return {
      version_name: s.info.versionName,
      version_code: s.info.versionCode,
      min_sdk: s.info.minSdk,
      label: s.info.label,
      file_name: s.upload.fileName,
      stored_path: s.relative,
      icon_path: s.iconRelative,
      file_size: s.upload.size,
      md5: s.upload.md5,
      sha256: s.upload.sha256,
      signer_sha256: s.info.signerSha256,
      remark,
      user_id: caller.id,
      user_name: caller.userName,
      created_at: now,
    };
  }

  private outcome(markId: number, versionId: number, info: ApkInfo) {
    return {
      apkMarkId: markId,
      apkVersionId: versionId,
      packageName: info.packageName,
      label: info.label,
      versionName: info.versionName,
      versionCode: info.versionCode,
    };
  }

  async upload(caller: SessionUser, ip: string, p: ApkSource & { mark: string; remark: string }) {
    const stored = await this.store(caller, p);
    const { info } = stored;
    const ids = await this.recorded(stored, async () => {
      const now = this.deps.clock.now();
      const made = await this.deps.apks.insertCard(
        {
          org_id: caller.orgId,
          package_name: info.packageName,
          label: info.label,
          mark: p.mark,
          remark: p.remark,
          signer_sha256: info.signerSha256,
          created_at: now,
          updated_at: now,
        },
        { ...this.versionRow(caller, stored, p.remark, now), org_id: caller.orgId },
      );
      if (!made) throw new Refusal('apk.packageExists', 'conflict', { packageName: info.packageName });
      return made;
    });
    await this.deps.log.recordBy(caller, ip, 'apk.upload', {
      k: 'apkNew',
      v: { package: info.packageName, version: info.versionName, code: info.versionCode },
    });
    return this.outcome(ids.markId, ids.versionId, info);
  }

  async uploadVersion(
    caller: SessionUser,
    ip: string,
    p: ApkSource & { apkMarkId: number; remark: string; downgrade: '0' | '1' },
  ) {
    await this.card(caller, p.apkMarkId);
    const stored = await this.store(caller, p);
    const { info } = stored;
    const id = await this.recorded(stored, async () => {
      const now = this.deps.clock.now();
      const added = await this.deps.apks.addVersion(
        caller.orgId,
        p.apkMarkId,
        this.versionRow(caller, stored, p.remark, now),
        info.packageName,
        p.downgrade === '1',
        now,
      );
      if (added.ok) return added.id;
      switch (added.reason) {
        case 'cardGone':
          throw new Refusal('apk.cardNotFound', 'notFound');
        case 'packageDiffers':
          throw new Refusal('apk.packageDiffers', 'conflict', {
            packageName: info.packageName,
            expected: added.expected,
          });
        case 'signerDiffers':
          throw new Refusal('apk.signerDiffers', 'conflict');
        case 'versionNotHigher':
          throw new Refusal('apk.versionNotHigher', 'conflict', {
            versionCode: info.versionCode,
            latest: added.latest,
          });
        case 'versionTaken':
          throw new Refusal('apk.versionTaken', 'conflict', { versionCode: info.versionCode });
      }
    });
    await this.deps.log.recordBy(caller, ip, 'apk.upload', {
      k: p.downgrade === '1' ? 'apkDowngrade' : 'apk',
      v: { package: info.packageName, version: info.versionName, code: info.versionCode },
    });
    return this.outcome(p.apkMarkId, id, info);
  }

  async uploadSub(
    caller: SessionUser,
    ip: string,
    p: ApkSource & { apkMarkId: number; apkVersionId: number },
  ) {
    const version = await this.deps.apks.version(caller.orgId, p.apkVersionId);
    if (!version || version.mark_id !== p.apkMarkId) throw new Refusal('apk.versionNotFound', 'notFound');
    const stored = await this.store(caller, p);
    const { info } = stored;
    const id = await this.recorded(stored, () =>
      this.deps.apks.insertSub({
        version_id: version.id,
        org_id: caller.orgId,
        package_name: info.packageName,
        label: info.label,
        version_name: info.versionName,
        version_code: info.versionCode,
        file_name: stored.upload.fileName,
        stored_path: stored.relative,
        icon_path: stored.iconRelative,
        file_size: stored.upload.size,
        sha256: stored.upload.sha256,
        created_at: this.deps.clock.now(),
      }),
    );
    await this.deps.log.recordBy(caller, ip, 'apk.sub', {
      k: 'apkSub',
      v: { package: info.packageName, version: info.versionName, parent: version.version_name },
    });
    return id;
  }

  // ---- changes ----

  async deleteSub(caller: SessionUser, ip: string, id: number) {
    const sub = await this.deps.apks.sub(caller.orgId, id);
    if (!sub || !(await this.deps.apks.deleteSub(caller.orgId, id)))
      throw new Refusal('apk.subNotFound', 'notFound');
    await this.removeFiles([sub.stored_path, sub.icon_path]);
    await this.deps.log.recordBy(caller, ip, 'apk.sub', {
      k: 'apkSubDeleted',
      v: { file: sub.file_name },
    });
  }

  async updateRemark(caller: SessionUser, ip: string, id: number, remark: string) {
    const version = await this.deps.apks.version(caller.orgId, id);
    if (!version) throw new Refusal('apk.versionNotFound', 'notFound');
    await this.deps.apks.updateRemark(caller.orgId, id, remark);
    await this.deps.log.recordBy(caller, ip, 'apk.remark', {
      k: 'apkFile',
      v: { file: version.file_name, version: version.version_name },
    });
  }

  async deleteVersion(caller: SessionUser, ip: string, id: number) {
    const version = await this.deps.apks.version(caller.orgId, id);
    if (!version) throw new Refusal('apk.versionNotFound', 'notFound');
    const out = await this.deps.apks.deleteVersion(caller.orgId, id);
    if (!out) throw new Refusal('apk.versionNotFound', 'notFound');
    if (out.open) throw new Refusal('apk.versionInUse', 'conflict', { count: out.open });
    await this.removeFiles(out.files);
    await this.deps.log.recordBy(caller, ip, 'apk.delete', {
      k: out.cardDeleted ? 'apkDeletedWithCard' : 'apkFile',
      v: { file: version.file_name, version: version.version_name },
    });
    return out.cardDeleted;
  }

  private async removeFiles(files: string[]) {
    for (const file of files) if (file) await this.deps.files.delete(file);
  }
}
