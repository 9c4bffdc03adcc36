import { device, screenshots } from '@panelfleet/contract';
import type { Readable } from 'node:stream';
import type { Clock } from '../../clock.js';
import type { FileStore } from '../../files/store.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { CommandService } from '../commands/service.js';
import type { DeviceRepository } from '../devices/repository.js';
import { findSendableDevice } from '../devices/target.js';
import type { ScreenshotLimits } from './rate-limits.js';
import type { ScreenshotRepository, ScreenshotRow } from './repository.js';
import type { UploadTokens } from './upload-token.js';

export interface ScreenshotDeps {
  repository: ScreenshotRepository;
  devices: DeviceRepository;
  commands: CommandService;
  tokens: UploadTokens;
  limits: ScreenshotLimits;
  /** The store's `screenshots/` area. */
  files: FileStore;
  clock: Clock;
  baseUrl: string;
  isOnline(deviceKey: string): boolean;
}

const FAILURES = new Set<string>(screenshots.SCREENSHOT_FAILURES);

/** A row as the console sees it: a pending one past its time (and a little grace) reads as timed out. */
export function toRecord(row: ScreenshotRow, now: number): screenshots.ScreenshotRecord {
  const waiting = row.status === 'pending' || row.status === 'receiving';
  const late = waiting && now > row.expires_at + 5_000;
  return {
    screenshotId: row.id,
    deviceId: row.device_id,
    status: late ? 'failed' : waiting ? 'pending' : row.status === 'stored' ? 'stored' : 'failed',
    failure: late
      ? 'timeout'
      : row.failure && FAILURES.has(row.failure)
        ? (row.failure as screenshots.ScreenshotFailure)
        : null,
    requestedAt: row.requested_at,
    takenAt: row.taken_at,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
  };
}

/** Screenshots as the console's device operators ask for and see them, all within their company. */
export class ScreenshotService {
  constructor(private readonly deps: ScreenshotDeps) {}

  async take(user: SessionUser, deviceId: number): Promise<screenshots.ScreenshotRecord> {
    const { repository, clock } = this.deps;
    const found = await findSendableDevice(this.deps.devices, user.orgId, deviceId);
    const now = clock.now();
    const limit = this.deps.limits.reserve(user.orgId, found.id, now);
    if (limit === 'panel') throw new Refusal('screenshot.panelBusy', 'tooMany');
    if (limit === 'org') throw new Refusal('screenshot.orgBusy', 'tooMany');
    const expiresAt = now + screenshots.SCREENSHOT_TTL_MS;
    const id = await repository.insertPending({
      orgId: user.orgId,
      deviceId: found.id,
      deviceKey: found.device_key,
      userId: user.id,
      now,
      expiresAt,
    });
    if (!this.deps.isOnline(found.device_key)) {
      await repository.fail(user.orgId, id, 'offline');
    } else {
      const value: device.ScreenshotValue = {
        url: `${this.deps.baseUrl}/device/screenshot?t=${this.deps.tokens.sign({
          screenshotId: id,
          deviceKey: found.device_key,
          maxBytes: device.SCREENSHOT_MAX_BYTES,
          maxWidth: screenshots.SCREENSHOT_ASK_WIDTH,
          maxHeight: screenshots.SCREENSHOT_ASK_HEIGHT,
          expiresAt,
        })}`,
        maxBytes: device.SCREENSHOT_MAX_BYTES,
        maxWidth: screenshots.SCREENSHOT_ASK_WIDTH,
        maxHeight: screenshots.SCREENSHOT_ASK_HEIGHT,
        expiresAt,
      };
      const [commandId] = await this.deps.commands.create(
        user.orgId,
        user.id,
        [{ id: found.id, deviceKey: found.device_key }],
        'SCREENSHOT',
        value,
        screenshots.SCREENSHOT_TTL_MS,
      );
      if (commandId) await repository.setCommand(user.orgId, id, commandId);
    }
    return this.status(user.orgId, id);
  }

  async status(orgId: number, screenshotId: number): Promise<screenshots.ScreenshotRecord> {
    const row = await this.deps.repository.find(orgId, screenshotId);
    if (!row) throw new Refusal('screenshot.notFound', 'notFound');
    return toRecord(row, this.deps.clock.now());
  }

  async latest(orgId: number, deviceId: number): Promise<screenshots.ScreenshotRecord | null> {
    const found = await this.deps.devices.findById(orgId, deviceId);
    if (!found) throw new Refusal('device.notFound', 'notFound');
    const row = (await this.deps.repository.latestStored(orgId, [found.id])).get(found.id);
    return row ? toRecord(row, this.deps.clock.now()) : null;
  }

  /** The stored picture (or its thumbnail) of a screenshot of the organisation. */
  async image(
    orgId: number,
    screenshotId: number,
    size: 'full' | 'thumb',
  ): Promise<{ mediaType: string; body: Readable }> {
    const row = await this.deps.repository.find(orgId, screenshotId);
    if (!row || row.status !== 'stored') throw new Refusal('screenshot.notFound', 'notFound');
    const key = size === 'thumb' ? row.thumb_key : row.file_key;
    return {
      mediaType: size === 'thumb' ? 'image/webp' : row.media_type,
      body: await this.deps.files.read(key),
    };
  }

  /** A label's wall: its panels (up to WALL_MAX_PANELS, by name), online or not, each with its newest picture. */
  async wall(orgId: number, labelId: number) {
    const { repository } = this.deps;
    const label = await repository.labelName(orgId, labelId);
    if (!label) throw new Refusal('screenshot.labelNotFound', 'notFound');
    const panels = await repository.devicesOfLabel(orgId, labelId, screenshots.WALL_MAX_PANELS);
    const latest = await repository.latestStored(
      orgId,
      panels.map((p) => p.id),
    );
    const now = this.deps.clock.now();
    const tiles: screenshots.WallTile[] = panels.map((p) => {
      const row = latest.get(p.id);
      return {
        deviceId: p.id,
        deviceName: p.name,
        deviceKey: p.device_key,
        online: this.deps.isOnline(p.device_key),
        screenshot: row ? toRecord(row, now) : null,
      };
    });
    return { labelName: label.name, tiles };
  }
}
