import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import { decodeBmp, detectImageType } from './image-type.js';

export const AVATAR_SIZE = 150;
/** Spec 1: maximum image size 4000 (pixels per side). */
export const AVATAR_MAX_SIDE = 4000;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** Avatars: checked by content, re-encoded as a 150x150 jpg under a generated name in DATA_DIR/avatars. */
export class AvatarService {
  private readonly folder: string;

  constructor(
    private readonly deps: { db: Kysely<Database>; log: OperationLog; dataDir: string },
  ) {
    this.folder = path.join(deps.dataDir, 'avatars');
    fs.mkdirSync(this.folder, { recursive: true });
  }

  private async toJpeg(file: Buffer): Promise<Buffer> {
    const type = detectImageType(file);
    if (!type) throw new AppError('personal.avatarType', 400);
    const options = { limitInputPixels: AVATAR_MAX_SIDE * AVATAR_MAX_SIDE, failOn: 'error' as const };
    let image: sharp.Sharp;
    if (type === 'bmp') {
      const raw = decodeBmp(file, AVATAR_MAX_SIDE);
      if (!raw) throw new AppError('personal.avatarType', 400);
      image = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
    } else {
      image = sharp(file, { ...options, animated: false });
      const meta = await image.metadata().catch(() => {
        throw new AppError('personal.avatarType', 400);
      });
      if ((meta.width ?? 0) > AVATAR_MAX_SIDE || (meta.height ?? 0) > AVATAR_MAX_SIDE) throw new AppError('personal.avatarTooLarge', 400);
    }
    return image.resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' }).flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer().catch(() => {
      throw new AppError('personal.avatarType', 400);
    });
  }

  /** Stores a new avatar for the caller and removes the old file. Returns the new name. */
  async replace(caller: SessionUser, file: Buffer, ip: string): Promise<string> {
    const jpeg = await this.toJpeg(file);
    const name = `${crypto.randomBytes(16).toString('hex')}.jpg`;
    await fs.promises.writeFile(path.join(this.folder, name), jpeg, { flag: 'wx' });
    const previous = await this.deps.db.selectFrom('users').select('avatar').where('id', '=', caller.id).executeTakeFirst();
    await this.deps.db.updateTable('users').set({ avatar: name }).where('id', '=', caller.id).execute();
    if (previous?.avatar) await fs.promises.rm(this.pathOf(previous.avatar), { force: true });
    await this.deps.log.recordBy(caller, ip, 'updateAvatar', 'changed the avatar');
    return name;
  }

  /** The file of the caller's avatar, or undefined when there is none. */
  async fileOf(caller: SessionUser): Promise<string | undefined> {
    const row = await this.deps.db.selectFrom('users').select('avatar').where('id', '=', caller.id).executeTakeFirst();
    return row?.avatar ? this.pathOf(row.avatar) : undefined;
  }

  private pathOf(name: string): string {
    // Names are generated here; anything else in the column is not a file of ours.
    if (!/^[a-f0-9]{32}\.jpg$/.test(name)) throw new AppError('common.notFound', 404);
    return path.join(this.folder, name);
  }
}
