import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { materials } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { MaterialRecord, MaterialRepository } from './repository.js';
import { receiveAudio, type IncomingFile } from './receive-audio.js';

const STORED_NAME = /^[a-f0-9]{32}\.[a-z0-9]{2,4}$/;
const MAX_NAME_LENGTH = 255;

/** The name as the browser gave it, without any folder part, cut to what the column holds. */
export function displayName(raw: string): string {
  const base = raw.split(/[/\\]/).pop()!.trim();
  if (base.length <= MAX_NAME_LENGTH) return base;
  const extension = materials.extensionOf(base);
  return `${base.slice(0, MAX_NAME_LENGTH - extension.length - 1)}.${extension}`;
}

export const toMaterial = (row: MaterialRecord): materials.Material => ({
  materialId: row.id,
  fileName: row.file_name,
  fileType: row.file_type,
  format: row.format as materials.AudioFormat,
  fileSize: row.file_size,
  sha256: row.sha256,
  createTime: row.created_at,
});

export interface StoredFile {
  record: MaterialRecord;
  path: string;
}

/**
 * Audio materials of a customer: checked by name and by content before anything is kept, stored
 * under a generated name in DATA_DIR/files/materials with their SHA-256.
 */
export class MaterialService {
  readonly folder: string;

  /** `folder` lies below the download root, so panels can fetch a material through a signed URL. */
  constructor(
    private readonly deps: {
      repository: MaterialRepository;
      log: OperationLog;
      clock: Clock;
      folder: string;
    },
  ) {
    this.folder = deps.folder;
    fs.mkdirSync(this.folder, { recursive: true });
  }

  async list(orgId: number, fileType: number) {
    return (await this.deps.repository.list(orgId, fileType)).map(toMaterial);
  }

  /** Refuses a wrong name before reading a byte; the content decides the rest. */
  async upload(
    caller: SessionUser,
    ip: string,
    fileName: string,
    file: IncomingFile,
  ): Promise<materials.Material> {
    const name = displayName(fileName);
    if (!materials.isAudioFileName(name)) throw new Refusal('deviceManage.FileFormat', 'invalid');
    const received = await receiveAudio(file, this.folder);
    const storedName = `${crypto.randomBytes(16).toString('hex')}.${received.format}`;
    try {
      await fs.promises.rename(received.tempPath, path.join(this.folder, storedName));
      const row = await this.deps.repository.insert({
        org_id: caller.orgId,
        file_type: materials.MATERIAL_FILE_TYPES.audio,
        file_name: name,
        stored_name: storedName,
        format: received.format,
        file_size: received.size,
        sha256: received.sha256,
        created_by: caller.id,
        created_at: this.deps.clock.now(),
      });
      await this.deps.log.recordBy(
        caller,
        ip,
        'insertMaterial',
        `uploaded audio ${name} (${received.format}, ${received.size} bytes, sha256 ${received.sha256})`,
      );
      return toMaterial(row);
    } catch (error) {
      await fs.promises.rm(received.tempPath, { force: true });
      await fs.promises.rm(path.join(this.folder, storedName), { force: true });
      throw error;
    }
  }

  async remove(caller: SessionUser, ip: string, id: number): Promise<void> {
    const row = await this.deps.repository.find(caller.orgId, id);
    if (!row || !(await this.deps.repository.remove(caller.orgId, id)))
      throw new Refusal('material.notFound', 'notFound');
    await fs.promises.rm(this.pathOf(row), { force: true });
    await this.deps.log.recordBy(
      caller,
      ip,
      'deleteMaterial',
      `deleted audio ${row.file_name} (id ${row.id})`,
    );
  }

  /** A material of the organisation with its file on disk; another tenant's id reads as unknown. */
  async fileOf(orgId: number, id: number): Promise<StoredFile> {
    const record = await this.deps.repository.find(orgId, id);
    if (!record) throw new Refusal('material.notFound', 'notFound');
    const file = this.pathOf(record);
    if (!fs.existsSync(file)) throw new Refusal('material.notFound', 'notFound');
    return { record, path: file };
  }

  private pathOf(row: MaterialRecord): string {
    // Names are generated here; anything else in the column is not a file of ours.
    if (!STORED_NAME.test(row.stored_name)) throw new Refusal('material.notFound', 'notFound');
    return path.join(this.folder, row.stored_name);
  }
}
