import sharp from 'sharp';
import { device, screenshots, type device as deviceTypes } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { FileStore } from '../../files/store.js';
import { Refusal } from '../../refusal.js';
import type { ScreenshotRepository } from './repository.js';
import type { UploadTokens } from './upload-token.js';

const MEDIA_TYPES: Record<string, string> = { jpeg: 'image/jpeg', webp: 'image/webp' };
const EXTENSIONS: Record<string, string> = { jpeg: 'jpg', webp: 'webp' };

export interface PanelUploadDeps {
  repository: ScreenshotRepository;
  tokens: UploadTokens;
  /** The store's `screenshots/` area. */
  files: FileStore;
  clock: Clock;
}

/** What sharp reads of an upload: a JPEG or WebP within the grant's sides, or undefined. */
async function readPicture(bytes: Buffer, maxWidth: number, maxHeight: number) {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { failOn: 'error' }).metadata();
  } catch {
    return undefined;
  }
  const { format, width, height } = meta;
  if (!format || !(format in MEDIA_TYPES) || !width || !height) return undefined;
  const min = device.SCREENSHOT_MIN_SIDE;
  if (width < min || height < min || width > maxWidth || height > maxHeight) return undefined;
  return { format, width, height };
}

/**
 * The panel side of screenshots: a panel's upload to its signed URL (checked, then stored with a
 * thumbnail, or refused with nothing stored) and the failed acknowledgements of SCREENSHOT orders.
 */
export class PanelScreenshots {
  constructor(private readonly deps: PanelUploadDeps) {}

  async upload(deviceKey: string, token: string, bytes: Buffer) {
    const { repository, clock } = this.deps;
    const grant = this.deps.tokens.verify(token);
    if (!grant || grant.deviceKey !== deviceKey) throw new Refusal('screenshot.otherPanel', 'forbidden');
    const row = await repository.findForPanel(grant.screenshotId, deviceKey);
    if (!row) throw new Refusal('screenshot.otherPanel', 'forbidden');
    if (row.status !== 'pending') throw new Refusal('screenshot.linkUsed', 'conflict');
    if (clock.now() > grant.expiresAt) {
      await repository.failForPanel(row.id, deviceKey, 'timeout');
      throw new Refusal('screenshot.linkExpired', 'gone');
    }
    if (!(await repository.claimForPanel(row.id, deviceKey)))
      throw new Refusal('screenshot.linkUsed', 'conflict');
    try {
      if (bytes.length > grant.maxBytes)
        throw new Refusal('screenshot.tooLarge', 'tooLarge', { limit: grant.maxBytes });
      const picture = await readPicture(bytes, grant.maxWidth, grant.maxHeight);
      if (!picture) throw new Refusal('screenshot.notImage', 'invalid');
      const thumb = await sharp(bytes)
        .resize({ width: screenshots.SCREENSHOT_THUMB_WIDTH, withoutEnlargement: true })
        .webp({ quality: 70 })
        .toBuffer();
      const base = `${row.org_id}/${row.device_id}/${row.id}`;
      const fileKey = `${base}.${EXTENSIONS[picture.format]}`;
      const thumbKey = `${base}-thumb.webp`;
      await this.deps.files.putBytes(fileKey, bytes, MEDIA_TYPES[picture.format]);
      await this.deps.files.putBytes(thumbKey, thumb, 'image/webp');
      await repository.storeForPanel(row.id, deviceKey, {
        width: picture.width,
        height: picture.height,
        bytes: bytes.length,
        mediaType: MEDIA_TYPES[picture.format]!,
        fileKey,
        thumbKey,
        takenAt: clock.now(),
      });
      return { width: picture.width, height: picture.height, bytes: bytes.length };
    } catch (error) {
      await repository.failForPanel(row.id, deviceKey, 'refused');
      throw error;
    }
  }

  /** Fails the screenshots whose SCREENSHOT command a panel answered `failed` (the acknowledgement's code says why). */
  async acknowledged(acks: deviceTypes.CommandAck[]) {
    const failures = acks
      .filter((a) => a.result === 'failed')
      .map((a) => {
        const code = (a.detail ?? '').split(':')[0]!.trim();
        const failure =
          code === 'unsupported'
            ? 'unsupported'
            : code === 'upload'
              ? 'refused'
              : code === 'expired'
                ? 'timeout'
                : 'capture';
        return { commandId: a.id, failure };
      });
    if (failures.length) await this.deps.repository.failByCommandsForPanels(failures);
  }
}
