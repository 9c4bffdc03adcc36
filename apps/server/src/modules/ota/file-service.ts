import crypto from 'node:crypto';
import type { ota } from '@panelfleet/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { FileStore } from '../../files/store.js';
import { pageOffset } from '../../http/access.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { FirmwareSigner } from '../../security/firmware-signing.js';
import { customerScope } from '../customers/policy.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { RolloutRepository } from '../rollouts/repository.js';
import type { UploadService } from '../uploads/service.js';
import type { FileFit, OtaFileRecord, OtaFileRepository } from './file-repository.js';

type OtaFile = z.infer<typeof ota.otaFile>;
type Description = z.infer<typeof ota.otaDescription>;

interface FileFields {
  fitMachineTypeId: number[];
  fitOtaVersionId: number[];
  otaRuleId?: number;
  remarkFileName?: string;
}

/** Where firmware images live in the store's files area (the downloads module serves it). */
const OTA_DIR = 'ota';

/**
 * OTA files (spec 3 section 2.1): made from a finished upload, signed, described in 36
 * languages. A caller sees its organisation's files and those published above it, and changes
 * only its own; a file an unfinished task uses cannot change what it fits nor be deleted.
 */
export class OtaFileService {
  constructor(
    private readonly deps: {
      fileRecords: OtaFileRepository;
      rollouts: RolloutRepository;
      uploads: UploadService;
      signer: FirmwareSigner;
      /** The file store's files area: the downloads module serves panels from here. */
      files: FileStore;
      log: OperationLog;
      clock: Clock;
    },
  ) {}

  visible(caller: SessionUser) {
    return this.deps.fileRecords.lineage(caller.orgId);
  }

  async list(caller: SessionUser, p: { start: number; size: number; fileName?: string }) {
    const { rows, total } = await this.deps.fileRecords.page(
      await this.visible(caller),
      pageOffset(p.start, p.size),
      p.size,
      p.fileName,
    );
    return { rows: await this.describe(caller, rows), total };
  }

  async one(caller: SessionUser, id: number): Promise<OtaFile> {
    const [row] = await this.describe(caller, [await this.find(caller, id)]);
    return row!;
  }

  /** A file the caller sees (another tenant's reads as missing). */
  async find(caller: SessionUser, id: number): Promise<OtaFileRecord> {
    const row = await this.deps.fileRecords.find(await this.visible(caller), id);
    if (!row) throw new Refusal('ota.fileNotFound', 'notFound');
    return row;
  }

  private async own(caller: SessionUser, id: number) {
    const row = await this.find(caller, id);
    if (row.org_id !== caller.orgId) throw new Refusal('ota.notOwner', 'forbidden');
    return row;
  }

  private async describe(caller: SessionUser, rows: OtaFileRecord[]): Promise<OtaFile[]> {
    const ids = rows.map((r) => r.id);
    const [fits, rules, open, done] = await Promise.all([
      this.deps.fileRecords.fits(ids),
      this.deps.fileRecords.ruleNames([
        ...new Set(rows.map((r) => r.rule_id).filter((r): r is number => r !== null)),
      ]),
      this.deps.rollouts.openTasksOf('ota', ids),
      this.deps.rollouts.succeededOf('ota', ids, customerScope(caller)),
    ]);
    const ruleName = new Map(rules.map((r) => [r.id, r.name]));
    return rows.map((r) => {
      const fit = fits.get(r.id) ?? { machineTypes: [], versions: [] };
      return {
        id: r.id,
        fileName: r.file_name,
        otaVersion: r.ota_version,
        fileSize: r.file_size,
        fileMd5: r.md5,
        sha256: r.sha256,
        fitOtaVersion: fit.versions.map((v) => v.name).join(','),
        fitOtaVersionId: fit.versions.map((v) => v.id).join(','),
        fitMachineType: fit.machineTypes.map((m) => m.name).join(','),
        fitMachineTypeId: fit.machineTypes.map((m) => m.id).join(','),
        otaFileRuleName: r.rule_id !== null ? (ruleName.get(r.rule_id) ?? '') : '',
        otaRuleId: r.rule_id,
        userName: r.user_name,
        remarkFileName: r.remark,
        createDate: r.created_at,
        finishUpgradeDeviceCount: done.get(r.id) ?? 0,
        owned: r.org_id === caller.orgId ? '1' : '0',
        openTaskCount: open.get(r.id) ?? 0,
        manifest: r.manifest,
        signature: r.signature,
      };
    });
  }

  /** Checks what a file may fit: enabled machine types, enabled versions, an own policy. */
  private async checkFit(caller: SessionUser, f: FileFields): Promise<FileFit> {
    const machineTypes = await this.deps.fileRecords.enabledMachineTypes(f.fitMachineTypeId);
    if (machineTypes.length !== f.fitMachineTypeId.length)
      throw new Refusal('ota.machineTypeUnknown', 'invalid');
    const versions = await this.deps.fileRecords.enabledVersions(f.fitOtaVersionId);
    if (versions.length !== f.fitOtaVersionId.length) throw new Refusal('ota.fromVersionInvalid', 'invalid');
    if (f.otaRuleId !== undefined && !(await this.deps.fileRecords.ruleOfOrg(caller.orgId, f.otaRuleId)))
      throw new Refusal('otaRule.notFound', 'notFound');
    return { machineTypes, versions };
  }

  private sign(version: string, size: number, sha256: string, fit: FileFit) {
    return this.deps.signer.sign({
      version,
      size,
      sha256,
      machineTypes: fit.machineTypes.map((m) => m.name).sort(),
      fromVersions: fit.versions.map((v) => v.name).sort(),
      issuedAt: this.deps.clock.now(),
    });
  }

  /**
   * Makes a file of a finished upload: the bytes go into the file store under files/ota (on a
   * directory store a second name, never a copy), the manifest is signed, the row inserted, and
   * only then the upload's bytes go. If anything fails the stored file is deleted and the upload
   * can be used again: nothing half-made stays in the store or the database.
   */
  async add(
    caller: SessionUser,
    ip: string,
    f: FileFields & { uploadId: string; otaVersion: string },
  ): Promise<number> {
    const fit = await this.checkFit(caller, f);
    const upload = await this.deps.uploads.claim(caller.orgId, f.uploadId, 'firmware');
    const relative = `${OTA_DIR}/${crypto.randomUUID()}.bin`;
    let stored = false;
    let id: number | undefined;
    try {
      await upload.storeAs(this.deps.files, relative);
      stored = true;
      const signed = this.sign(f.otaVersion, upload.size, upload.sha256, fit);
      const now = this.deps.clock.now();
      id = await this.deps.fileRecords.insert(
        {
          org_id: caller.orgId,
          user_id: caller.id,
          user_name: caller.userName,
          file_name: upload.fileName,
          stored_path: relative,
          ota_version: f.otaVersion,
          file_size: upload.size,
          md5: upload.md5,
          sha256: upload.sha256,
          rule_id: f.otaRuleId ?? null,
          remark: f.remarkFileName ?? '',
          manifest: signed.manifest,
          signature: signed.signature,
          created_at: now,
          updated_at: now,
        },
        fit.machineTypes.map((m) => m.id),
        fit.versions.map((v) => v.id),
      );
      if (id === undefined) throw new Refusal('ota.versionTaken', 'conflict', { version: f.otaVersion });
    } catch (err) {
      if (stored) await this.deps.files.delete(relative);
      await upload.giveBack();
      throw err;
    }
    await upload.done();
    await this.deps.log.recordBy(caller, ip, 'otaFile.add', {
      k: 'otaFile',
      v: { file: upload.fileName, version: f.otaVersion },
    });
    return id;
  }

  async update(caller: SessionUser, ip: string, id: number, f: FileFields) {
    const row = await this.own(caller, id);
    const fit = await this.checkFit(caller, f);
    const open = (await this.deps.rollouts.openTasksOf('ota', [id])).get(id) ?? 0;
    if (open) throw new Refusal('ota.fileInUse', 'conflict', { count: open });
    const signed = this.sign(row.ota_version, row.file_size, row.sha256, fit);
    await this.deps.fileRecords.update(
      caller.orgId,
      id,
      {
        rule_id: f.otaRuleId ?? null,
        remark: f.remarkFileName ?? '',
        ...signed,
        updated_at: this.deps.clock.now(),
      },
      fit.machineTypes.map((m) => m.id),
      fit.versions.map((v) => v.id),
    );
    await this.deps.log.recordBy(caller, ip, 'otaFile.update', {
      k: 'otaFile',
      v: { file: row.file_name, version: row.ota_version },
    });
  }

  async delete(caller: SessionUser, ip: string, id: number) {
    const row = await this.own(caller, id);
    const open = (await this.deps.rollouts.openTasksOf('ota', [id])).get(id) ?? 0;
    if (open) throw new Refusal('ota.fileInUse', 'conflict', { count: open });
    await this.deps.fileRecords.delete(caller.orgId, id);
    await this.deps.files.delete(row.stored_path);
    await this.deps.log.recordBy(caller, ip, 'otaFile.delete', {
      k: 'otaFile',
      v: { file: row.file_name, version: row.ota_version },
    });
  }

  // ---- descriptions ----

  private toDescription(
    d: {
      id: number;
      file_id: number;
      language: string;
      text_content: string;
      remind_text: string;
      update_user: string;
      create_user: string;
      updated_at: number;
    },
    fileName: string,
  ): Description {
    return {
      id: d.id,
      otaFileId: d.file_id,
      fileName,
      language: d.language as Description['language'],
      textContent: d.text_content,
      remindText: d.remind_text,
      userName: d.update_user,
      createUser: d.create_user,
      updateDate: d.updated_at,
    };
  }

  async descriptions(caller: SessionUser, p: { otaFileId: number; start: number; size: number }) {
    const file = await this.find(caller, p.otaFileId);
    const { rows, total } = await this.deps.fileRecords.descriptionPage(
      file.id,
      pageOffset(p.start, p.size),
      p.size,
    );
    return { rows: rows.map((d) => this.toDescription(d, file.file_name)), total };
  }

  async description(caller: SessionUser, id: number) {
    const d = await this.deps.fileRecords.findDescription(await this.visible(caller), id);
    if (!d) throw new Refusal('ota.descriptionNotFound', 'notFound');
    return { row: d, description: this.toDescription(d, d.file_name) };
  }

  private async ownDescription(caller: SessionUser, id: number) {
    const found = await this.description(caller, id);
    if (found.row.org_id !== caller.orgId) throw new Refusal('ota.notOwner', 'forbidden');
    return found.row;
  }

  async addDescription(
    caller: SessionUser,
    ip: string,
    f: { otaFileId: number; language: string; textContent: string; remindText: string },
  ) {
    const file = await this.own(caller, f.otaFileId);
    const now = this.deps.clock.now();
    const id = await this.deps.fileRecords.insertDescription({
      file_id: file.id,
      language: f.language,
      text_content: f.textContent,
      remind_text: f.remindText,
      create_user: caller.userName,
      update_user: caller.userName,
      created_at: now,
      updated_at: now,
    });
    if (id === undefined) throw new Refusal('ota.languageTaken', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'otaFile.description', {
      k: 'otaDescriptionAdded',
      v: { file: file.file_name, language: f.language },
    });
    return id;
  }

  async updateDescription(
    caller: SessionUser,
    ip: string,
    f: { id: number; language: string; textContent: string; remindText: string },
  ) {
    const d = await this.ownDescription(caller, f.id);
    try {
      await this.deps.fileRecords.updateDescription(d.id, {
        language: f.language,
        text_content: f.textContent,
        remind_text: f.remindText,
        update_user: caller.userName,
        updated_at: this.deps.clock.now(),
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new Refusal('ota.languageTaken', 'conflict');
      throw err;
    }
    await this.deps.log.recordBy(caller, ip, 'otaFile.description', {
      k: 'otaDescriptionChanged',
      v: { file: d.file_name, language: f.language },
    });
  }

  async updateRemind(caller: SessionUser, ip: string, id: number, remindText: string) {
    const d = await this.ownDescription(caller, id);
    await this.deps.fileRecords.updateDescription(d.id, {
      remind_text: remindText,
      update_user: caller.userName,
      updated_at: this.deps.clock.now(),
    });
    await this.deps.log.recordBy(caller, ip, 'otaFile.remind', {
      k: 'otaReminderChanged',
      v: { file: d.file_name, language: d.language },
    });
  }

  async deleteDescription(caller: SessionUser, ip: string, id: number) {
    const d = await this.ownDescription(caller, id);
    await this.deps.fileRecords.deleteDescription(d.id);
    await this.deps.log.recordBy(caller, ip, 'otaFile.description', {
      k: 'otaDescriptionDeleted',
      v: { file: d.file_name, language: d.language },
    });
  }

  async machineTypeOptions() {
    return (await this.deps.fileRecords.machineTypeOptions()).map((m) => ({
      machineTypeId: m.id,
      machineType: m.name,
    }));
  }

  async versionOptions() {
    return (await this.deps.fileRecords.versionOptions()).map((v) => ({
      otaVersionId: v.id,
      otaVersion: v.name,
    }));
  }

  /** The device picker's filter: panels of a machine type, or those a file fits. */
  async deviceFit(caller: SessionUser, p: { machineTypeId?: number; otaFileId?: number }) {
    const out: { machineTypes?: string[]; fromVersions?: string[] } = {};
    if (p.machineTypeId !== undefined) {
      const row = await this.deps.fileRecords.machineTypeName(p.machineTypeId);
      if (!row) throw new Refusal('machineType.notFound', 'notFound');
      out.machineTypes = [row.name];
    }
    if (p.otaFileId !== undefined) {
      const file = await this.find(caller, p.otaFileId);
      const fit = await this.deps.fileRecords.fitNames(file.id);
      out.machineTypes = out.machineTypes
        ? out.machineTypes.filter((m) => fit.machineTypes.includes(m))
        : fit.machineTypes;
      if (fit.fromVersions.length) out.fromVersions = fit.fromVersions;
    }
    return out;
  }
}
