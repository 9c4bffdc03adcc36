import crypto from 'node:crypto';
import sharp from 'sharp';
import type { FileStore } from '../../files/store.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { UserRepository } from '../users/repository.js';
import { decodeBmp, detectImageType } from './image-type.js';

export const AVATAR_SIZE = 150;
/** Spec 1: maximum image size 4000 (pixels per side). */
export const AVATAR_MAX_SIDE = 4000;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** Avatars: checked by content, re-encoded as a 150x150 jpg under a generated name in the file store (avatars/). */
export class AvatarService {
  constructor(
    private readonly deps: {
      users: Pick<UserRepository, 'avatarOf' | 'setAvatar'>;
      log: OperationLog;
      /** The file store's avatars area. */
      files: FileStore;
    },
  ) {}

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
    await this.deps.files.putBytes(name, jpeg, 'image/jpeg');
    const previous = await this.deps.users.avatarOf(caller.id);
    await this.deps.users.setAvatar(caller.id, name);
    if (previous) await this.deps.files.delete(this.keyOf(previous));
    await this.deps.log.recordBy(caller, ip, 'updateAvatar', { k: 'avatarChanged' });
    return name;
  }

  /** The caller's avatar (JPEG bytes), or undefined when there is none. */
  async imageOf(caller: SessionUser): Promise<Buffer | undefined> {
    const avatar = await this.deps.users.avatarOf(caller.id);
    return avatar ? this.deps.files.readBytes(this.keyOf(avatar)) : undefined;
  }

  private keyOf(name: string): string {
    // Names are generated here; anything else in the column is not a file of ours.
    if (!/^[a-f0-9]{32}\.jpg$/.test(name)) throw new Refusal('common.notFound', 'notFound');
    return name;
  }
}
