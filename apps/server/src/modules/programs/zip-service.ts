import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { oplog, programs, type materials } from '@panelfleet/contract';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { IncomingFile } from '../materials/receive-media.js';
import type { StoredFile } from '../materials/service.js';
import type { OperationLog } from '../operation-log/repository.js';
import {
  readProgramZip,
  writeProgramZip,
  ZIP_FORMAT,
  type ZipManifest,
  type ZipMedia,
} from './program-zip.js';
import { parseItems, type ProgramService } from './service.js';

/** What the zip import and export need of the materials library. */
export interface ZipMaterials {
  findMany(orgId: number, ids: number[]): Promise<materials.Material[]>;
  fileOf(orgId: number, id: number): Promise<StoredFile>;
  read(file: StoredFile): Promise<Readable>;
  check(kind: materials.MaterialKind, name: string, file: string): Promise<void>;
  upload(
    caller: SessionUser,
    ip: string,
    fileName: string,
    file: IncomingFile,
    kind: materials.MaterialKind,
  ): Promise<materials.Material>;
  discard(orgId: number, ids: number[]): Promise<void>;
}

const safeName = (name: string) =>
  name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, 80) || 'file';

/**
 * Programs as zips (spec 2: /program/exportZip, /program/importZip): an approved program is
 * written as program.json with its media; an imported zip is checked whole (zip rules, the
 * manifest, every media file by content) before anything is stored, then becomes new materials
 * and a new draft program. Nothing of a refused zip stays on disk.
 */
export class ProgramZipService {
  private readonly tempRoot: string;

  constructor(
    private readonly deps: {
      programs: ProgramService;
      materials: ZipMaterials;
      log: OperationLog;
      /** A local directory for zips being read (nothing stays there). */
      workDir: string;
    },
  ) {
    this.tempRoot = path.join(deps.workDir, 'program-zips');
    fs.mkdirSync(this.tempRoot, { recursive: true });
  }

  /** The address of an approved program's zip. */
  async exportUrl(orgId: number, programId: number): Promise<string> {
    const { row } = await this.deps.programs.get(orgId, programId);
    if (row.status !== 'approval2') throw new Refusal('program.notApproved', 'conflict');
    return `${programs.programZip.path}?programId=${programId}`;
  }

  /** The zip of an approved program, as a stream (checked, and every file found, before the first byte is written). */
  async zipOf(orgId: number, programId: number): Promise<{ name: string; stream: PassThrough }> {
    const { row, media } = await this.deps.programs.get(orgId, programId);
    if (row.status !== 'approval2') throw new Refusal('program.notApproved', 'conflict');
    const byId = new Map(media.map((m) => [m.materialId, m]));
    const files: ZipMedia[] = [];
    const items: ZipManifest['items'] = [];
    for (const [index, item] of parseItems(row).entries()) {
      if (item.type === 'web') {
        items.push(item);
        continue;
      }
      const material = byId.get(item.materialId);
      if (!material) throw new Refusal('program.materialNotFound', 'conflict');
      const entry = `media/${String(index + 1).padStart(3, '0')}-${safeName(material.fileName)}`;
      const file = await this.deps.materials.fileOf(orgId, item.materialId);
      // Opened one at a time as the zip reaches it.
      files.push({ entry, size: Number(file.record.file_size), open: () => this.deps.materials.read(file) });
      items.push({ type: item.type, duration: item.duration, file: entry, fileName: material.fileName });
    }
    const manifest: ZipManifest = {
      format: ZIP_FORMAT,
      v: 1,
      name: row.name,
      playTime: row.play_time,
      items,
    };
    const stream = new PassThrough();
    void writeProgramZip(manifest, files, stream).catch((error: unknown) => stream.destroy(error as Error));
    return { name: `program-${programId}.zip`, stream };
  }

  /** Imports a zip as a new draft; returns the program and how many materials it added. */
  async importZip(caller: SessionUser, ip: string, fileName: string, file: IncomingFile) {
    if (!fileName.toLowerCase().endsWith('.zip')) throw new Refusal('program.zipType', 'invalid');
    const work = await fs.promises.mkdtemp(path.join(this.tempRoot, 'import-'));
    try {
      const zipPath = path.join(work, 'upload.zip');
      let size = 0;
      const out = fs.createWriteStream(zipPath, { flags: 'wx' });
      try {
        for await (const chunk of file.stream) {
          size += chunk.length;
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
      } finally {
        await new Promise<void>((resolve) => out.end(() => resolve()));
      }
      if (file.truncated()) throw new Refusal('program.zipTooLarge', 'tooLarge');
      if (size === 0) throw new Refusal('program.zipMissing', 'invalid');
      const staging = path.join(work, 'staging');
      await fs.promises.mkdir(staging);
      const { manifest, files } = await readProgramZip(zipPath, staging);
      // Every check before anything is stored: web addresses, then each file by its content.
      const web = programs.programContent.safeParse(
        JSON.stringify(manifest.items.filter((item) => item.type === 'web')),
      );
      if (manifest.items.some((item) => item.type === 'web') && !web.success)
        throw new Refusal('program.zipManifestInvalid', 'invalid');
      for (const item of manifest.items) {
        if (item.type === 'web') continue;
        await this.deps.materials
          .check(item.type, item.fileName, files.get(item.file)!)
          .catch((error: unknown) => {
            if (!(error instanceof Refusal)) throw error;
            throw new Refusal('program.zipContentInvalid', 'invalid', {
              file: item.file,
              type: item.type,
            });
          });
      }
      return await this.store(caller, ip, manifest, files);
    } finally {
      await fs.promises.rm(work, { recursive: true, force: true });
    }
  }

  private async store(caller: SessionUser, ip: string, manifest: ZipManifest, files: Map<string, string>) {
    const made: number[] = [];
    try {
      const items: programs.ProgramItem[] = [];
      const byEntry = new Map<string, number>();
      for (const item of manifest.items) {
        if (item.type === 'web') {
          items.push({ type: 'web', url: item.url, duration: item.duration });
          continue;
        }
        let id = byEntry.get(item.file);
        if (id === undefined) {
          const material = await this.deps.materials.upload(
            caller,
            ip,
            item.fileName,
            { stream: fs.createReadStream(files.get(item.file)!), truncated: () => false },
            item.type,
          );
          id = material.materialId;
          made.push(id);
          byEntry.set(item.file, id);
        }
        items.push({ type: item.type, materialId: id, duration: item.duration });
      }
      const programId = await this.deps.programs.create(caller, ip, {
        name: manifest.name,
        playTime: manifest.playTime,
        content: items,
      });
      await this.deps.log.recordBy(caller, ip, 'program.importZip', {
        k: 'programImported',
        v: { name: manifest.name, count: oplog.counted('material', made.length) },
      });
      return { programId, materialCount: made.length };
    } catch (error) {
      await this.deps.materials.discard(caller.orgId, made);
      throw error;
    }
  }
}
