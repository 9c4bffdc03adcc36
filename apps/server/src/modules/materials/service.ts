import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { materials, oplog } from '@panelfleet/contract';
import sharp from 'sharp';
import type { Clock } from '../../clock.js';
import { FileMissing, type ByteSpan, type FileStore } from '../../files/store.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import { fileSize } from '../operation-log/words.js';
import type { MaterialRecord, MaterialRepository } from './repository.js';
import { DETECTORS, mediaTypeOf } from './media-type.js';
import { receiveMedia, type IncomingFile } from './receive-media.js';
import { extractPosterFrame, type PosterSettings } from './poster.js';
import type { UploadService } from '../uploads/service.js';

const STORED_NAME = /^[a-f0-9]{32}\.[a-z0-9]{2,4}$/;
/** Thumbnails of images: WebP, this wide at most. */
const THUMB_WIDTH = 320;
/** Decoding stops above this many pixels (a small file may announce a huge canvas). */
const MAX_IMAGE_PIXELS = 100_000_000;
const MAX_NAME_LENGTH = 255;

/** The name as the browser gave it, without any folder part, cut to what the column holds. */
export function displayName(raw: string): string {
  const base = raw.split(/[/\\]/).pop()!.trim();
  if (base.length <= MAX_NAME_LENGTH) return base;
  const extension = materials.extensionOf(base);
  return `${base.slice(0, MAX_NAME_LENGTH - extension.length - 1)}.${extension}`;
}

/** A material as the console sees it; `poster`: a video's poster frame exists. */
export const toMaterial = (row: MaterialRecord, poster = false): materials.Material => ({
  materialId: row.id,
  fileName: row.file_name,
  fileType: row.file_type,
  format: row.format as materials.MediaFormat,
  hasThumbnail: row.file_type === materials.MATERIAL_FILE_TYPES.image || poster,
  fileSize: row.file_size,
  sha256: row.sha256,
  createTime: row.created_at,
});

export interface StoredFile {
  record: MaterialRecord;
  /** The file's key in the store's files area (what the downloads module registers). */
  key: string;
}

/** Where materials live in the store's files area, so panels can fetch one through a signed URL. */
const FOLDER = 'materials';

/**
 * Materials of a customer (audio for notifications; images and videos for programs): checked by
 * name and by content in a local work directory before anything is kept, then stored under a
 * generated name in the file store (files/materials) with their SHA-256; images are decoded once
 * and get a WebP thumbnail; videos get a WebP poster frame made by ffmpeg when it can (otherwise
 * the console shows the video type icon, and the reason is logged).
 */
export class MaterialService {
  constructor(
    private readonly deps: {
      repository: MaterialRepository;
      log: OperationLog;
      clock: Clock;
      /** The file store's files area. */
      files: FileStore;
      /** A local directory for files being received and checked (nothing stays there). */
      workDir: string;
      /** Whether a program plays the material (from the root; programs sit above materials). */
      inUse?: (orgId: number, materialId: number) => Promise<boolean>;
      /** How video poster frames are made (ffmpeg); none are made without it. */
      poster?: PosterSettings;
      /** A poster frame that could not be made (the video is kept, shown with its type icon). */
      logWarn?: (message: string) => void;
    },
  ) {
    fs.mkdirSync(deps.workDir, { recursive: true });
  }

  private get files() {
    return this.deps.files;
  }

  async list(orgId: number, fileType: number) {
    return this.toMaterials(await this.deps.repository.list(orgId, fileType));
  }

  /** One page of the materials tab. */
  async page(orgId: number, filter: { fileType?: number; fileName?: string }, offset: number, limit: number) {
    const { rows, total } = await this.deps.repository.page(orgId, filter, offset, limit);
    return { rows: await this.toMaterials(rows), total };
  }

  private toMaterials(rows: MaterialRecord[]) {
    return Promise.all(rows.map((row) => this.toMaterial(row)));
  }

  private async toMaterial(row: MaterialRecord) {
    const video = row.file_type === materials.MATERIAL_FILE_TYPES.video;
    return toMaterial(row, video && (await this.files.stat(thumbKey(row.stored_name))) !== undefined);
  }

  private workFile(suffix = '') {
    return path.join(this.deps.workDir, `.work-${crypto.randomBytes(12).toString('hex')}${suffix}`);
  }

  /** A video's poster frame as a WebP thumbnail; false (logged) when none could be made. */
  private async makePoster(source: string, target: string, name: string): Promise<boolean> {
    const settings = this.deps.poster;
    if (!settings) return false;
    const frame = await extractPosterFrame(source, settings);
    if (!frame.ok) {
      this.deps.logWarn?.(`no poster frame for video ${name}: ${frame.reason}`);
      return false;
    }
    try {
      await sharp(frame.png, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
        .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
        .webp({ quality: 75 })
        .toFile(target);
      return true;
    } catch (error) {
      await fs.promises.rm(target, { force: true });
      this.deps.logWarn?.(`no poster frame for video ${name}: ${(error as Error).message}`);
      return false;
    }
  }

  /** Refuses a wrong name before reading a byte; the content decides the rest. */
  async upload(
    caller: SessionUser,
    ip: string,
    fileName: string,
    file: IncomingFile,
    kind: materials.MaterialKind = 'audio',
  ): Promise<materials.Material> {
    const name = displayName(fileName);
    const detector = DETECTORS[kind];
    if (!materials.fitsKind(kind, name)) throw new Refusal(detector.refusal, 'invalid');
    const received = await receiveMedia(file, this.deps.workDir, detector);
    const storedName = `${crypto.randomBytes(16).toString('hex')}.${received.format}`;
    const thumb = this.workFile('.webp');
    const key = `${FOLDER}/${storedName}`;
    try {
      let thumbnail = false;
      if (kind === 'image') {
        await this.makeThumbnail(received.tempPath, thumb);
        thumbnail = true;
      }
      if (kind === 'video') thumbnail = await this.makePoster(received.tempPath, thumb, name);
      if (thumbnail) await this.files.putFile(thumbKey(storedName), thumb, { contentType: 'image/webp' });
      await this.files.putFile(key, received.tempPath, {
        contentType: mediaTypeOf(materials.MATERIAL_FILE_TYPES[kind], received.format),
      });
      const row = await this.deps.repository.insert({
        org_id: caller.orgId,
        file_type: materials.MATERIAL_FILE_TYPES[kind],
        file_name: name,
        stored_name: storedName,
        format: received.format,
        file_size: received.size,
        sha256: received.sha256,
        created_by: caller.id,
        created_at: this.deps.clock.now(),
      });
      await this.deps.log.recordBy(caller, ip, 'insertMaterial', {
        k: 'material',
        v: {
          kind: oplog.term(`materialKind.${kind}`),
          name,
          format: received.format.toUpperCase(),
          size: fileSize(received.size),
        },
      });
      return await this.toMaterial(row);
    } catch (error) {
      await fs.promises.rm(received.tempPath, { force: true });
      await fs.promises.rm(thumb, { force: true });
      await this.files.delete(key);
      await this.files.delete(thumbKey(storedName));
      throw error;
    }
  }

  /**
   * A video from a finished resumable upload of the organisation (kind `video`): checked by
   * content exactly as a direct upload, then stored; the upload's bytes go either way. An upload
   * still receiving is refused (`upload.incomplete`), so a partial file never becomes a material.
   */
  async videoFromUpload(
    caller: SessionUser,
    ip: string,
    uploads: Pick<UploadService, 'claim'>,
    uploadId: string,
  ): Promise<materials.Material> {
    const claimed = await uploads.claim(caller.orgId, uploadId, 'video');
    let stored: materials.Material;
    try {
      stored = await this.upload(
        caller,
        ip,
        claimed.fileName,
        { stream: await claimed.read(), truncated: () => false },
        'video',
      );
    } catch (error) {
      // Bytes that are not a video can never become one; anything else may be tried again.
      if (error instanceof Refusal) await claimed.discard();
      else await claimed.giveBack();
      throw error;
    }
    await claimed.done();
    return stored;
  }

  /**
   * Checks a file on disk as an upload of `kind` named `name` would be checked (name, size, the
   * format by content, an image decoded whole), storing nothing.
   */
  async check(kind: materials.MaterialKind, name: string, file: string): Promise<void> {
    const detector = DETECTORS[kind];
    if (!materials.fitsKind(kind, displayName(name))) throw new Refusal(detector.refusal, 'invalid');
    const stat = await fs.promises.stat(file);
    if (stat.size === 0) throw new Refusal('material.fileMissing', 'invalid');
    if (stat.size > materials.MAX_BYTES_OF[kind]) throw new Refusal(detector.tooLarge, 'tooLarge');
    const handle = await fs.promises.open(file, 'r');
    try {
      const first = Buffer.alloc(Math.min(stat.size, 16));
      await handle.read(first, 0, first.length, 0);
      const head = Buffer.alloc(Math.min(stat.size, detector.headBytesNeeded(first)));
      await handle.read(head, 0, head.length, 0);
      if (!detector.detect(head)) throw new Refusal(detector.refusal, 'invalid');
    } finally {
      await handle.close();
    }
    if (kind === 'image') {
      const probe = this.workFile('.webp');
      try {
        await this.makeThumbnail(file, probe);
      } finally {
        await fs.promises.rm(probe, { force: true });
      }
    }
  }

  /** Removes materials this server just made (an import that failed after storing some). */
  async discard(orgId: number, ids: number[]): Promise<void> {
    for (const id of ids) {
      const row = await this.deps.repository.find(orgId, id);
      if (!row) continue;
      await this.deps.repository.remove(orgId, id);
      await this.files.delete(this.keyOf(row));
      await this.files.delete(thumbKey(row.stored_name));
    }
  }

  /** Decodes the whole image (a file with a valid header but broken data is refused) and writes its thumbnail. */
  private async makeThumbnail(source: string, target: string) {
    try {
      await sharp(source, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
        .rotate()
        .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
        .webp({ quality: 75 })
        .toFile(target);
    } catch {
      // sharp's own message names the decoder's complaint; the operator needs only to know the file is unusable.
      throw new Refusal('material.imageDamaged', 'invalid');
    }
  }

  /** The thumbnail of an image, or the poster frame of a video, of the organisation. */
  async thumbnailOf(orgId: number, id: number): Promise<Readable> {
    const record = await this.deps.repository.find(orgId, id);
    if (!record || record.file_type === materials.MATERIAL_FILE_TYPES.audio)
      throw new Refusal('material.notFound', 'notFound');
    this.keyOf(record);
    return this.readOrRefuse(thumbKey(record.stored_name));
  }

  /** A material's bytes (or a span of them), as stored. */
  async read(file: StoredFile, span?: ByteSpan): Promise<Readable> {
    return this.readOrRefuse(file.key, span);
  }

  private readOrRefuse(key: string, span?: ByteSpan) {
    return this.files.read(key, span).catch((error: unknown) => {
      if (error instanceof FileMissing) throw new Refusal('material.notFound', 'notFound');
      throw error;
    });
  }

  /** Materials of the organisation by id (a program's check that every one it names is the company's). */
  async findMany(orgId: number, ids: number[]) {
    return this.toMaterials(await this.deps.repository.findMany(orgId, ids));
  }

  /** Deletes a material that no program plays; returns its kind. */
  async remove(caller: SessionUser, ip: string, id: number): Promise<materials.MaterialKind> {
    const row = await this.deps.repository.find(caller.orgId, id);
    if (!row) throw new Refusal('material.notFound', 'notFound');
    if (await this.deps.inUse?.(caller.orgId, id)) throw new Refusal('material.inUse', 'conflict');
    if (!(await this.deps.repository.remove(caller.orgId, id)))
      throw new Refusal('material.notFound', 'notFound');
    await this.files.delete(this.keyOf(row));
    await this.files.delete(thumbKey(row.stored_name));
    const kind = materials.MATERIAL_KIND_OF[row.file_type] ?? 'audio';
    await this.deps.log.recordBy(caller, ip, 'deleteMaterial', {
      k: 'materialDeleted',
      v: { kind: oplog.term(`materialKind.${kind}`), name: row.file_name },
    });
    return kind;
  }

  /** A material of the organisation with its file in the store; another tenant's id reads as unknown. */
  async fileOf(orgId: number, id: number): Promise<StoredFile> {
    const record = await this.deps.repository.find(orgId, id);
    if (!record) throw new Refusal('material.notFound', 'notFound');
    const key = this.keyOf(record);
    if (!(await this.files.stat(key))) throw new Refusal('material.notFound', 'notFound');
    return { record, key };
  }

  /** A material's file as a program plays it: its key, size, SHA-256 and media type. */
  async playable(orgId: number, id: number) {
    const { record, key } = await this.fileOf(orgId, id);
    return {
      path: key,
      size: Number(record.file_size),
      sha256: record.sha256,
      mediaType: mediaTypeOf(record.file_type, record.format as materials.MediaFormat),
      name: record.file_name,
    };
  }

  private keyOf(row: MaterialRecord): string {
    // Names are generated here; anything else in the column is not a file of ours.
    if (!STORED_NAME.test(row.stored_name)) throw new Refusal('material.notFound', 'notFound');
    return `${FOLDER}/${row.stored_name}`;
  }
}

const thumbKey = (storedName: string) => `${FOLDER}/thumbs/${storedName.split('.')[0]}.webp`;
