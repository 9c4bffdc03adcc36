import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { UserRepository } from '../users/repository.js';
import { decodeBmp, detectImageType } from './image-type.js';

export const AVATAR_SIZE = 150;
/** Spec 1: maximum image size 4000 (pixels per side). */
export const AVATAR_MAX_SIDE = 4000;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** Avatars: checked by content, re-encoded as a 150x150 jpg under a generated name in DATA_DIR/avatars. */
export class AvatarService {
  private readonly folder: string;

  constructor(
    private readonly deps: {
      users: Pick<UserRepository, 'avatarOf' | 'setAvatar'>;
      log: OperationLog;
      dataDir: string;
    },
  ) {
    this.folder = path.join(deps.dataDir, 'avatars');
    fs.mkdirSync(this.folder, { recursive: true });
  }

  private async toJpeg(file: Buffer): Promise<Buffer> {
    const type = detectImageType(file);
    if (!type) throw new Refusal('personal.avatarType', 'invalid');
    const options = { limitInputPixels: AVATAR_MAX_SIDE * AVATAR_MAX_SIDE, failOn: 'error' as const };
    let image: sharp.Sharp;
    if (type === 'bmp') {
      const raw = decodeBmp(file, AVATAR_MAX_SIDE);
      if (!raw) throw new Refusal('personal.avatarType', 'invalid');
      image = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
    } else {
      image = sharp(file, { ...options, animated: false });
      const meta = await image.metadata().catch(() => {
        throw new Refusal('personal.avatarType', 'invalid');
      });
      if ((meta.width ?? 0) > AVATAR_MAX_SIDE || (meta.height ?? 0) > AVATAR_MAX_SIDE)
        throw new Refusal('personal.avatarTooLarge', 'invalid');
    }
    return image
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer()
      .catch(() => {
        throw new Refusal('personal.avatarType', 'invalid');
      });
  }

  /** Stores a new avatar for the caller and removes the old file. Returns the new name. */
  async replace(caller: SessionUser, file: Buffer, ip: string): Promise<string> {
    const jpeg = await this.toJpeg(file);
    const name = `${crypto.randomBytes(16).toString('hex')}.jpg`;
    await fs.promises.writeFile(path.join(this.folder, name), jpeg, { flag: 'wx' });
    const previous = await this.deps.users.avatarOf(caller.id);
    await this.deps.users.setAvatar(caller.id, name);
    if (previous) await fs.promises.rm(this.pathOf(previous), { force: true });
    await this.deps.log.recordBy(caller, ip, 'updateAvatar', 'changed the avatar');
    return name;
  }

  /** The file of the caller's avatar, or undefined when there is none. */
  async fileOf(caller: SessionUser): Promise<string | undefined> {
    const avatar = await this.deps.users.avatarOf(caller.id);
    return avatar ? this.pathOf(avatar) : undefined;
  }

  private pathOf(name: string): string {
    // Names are generated here; anything else in the column is not a file of ours.
    if (!/^[a-f0-9]{32}\.jpg$/.test(name)) throw new Refusal('common.notFound', 'notFound');
    return path.join(this.folder, name);
  }
}
