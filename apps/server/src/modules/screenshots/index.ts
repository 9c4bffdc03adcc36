import type { Foundation } from '../../foundation.js';
import type { CommandService } from '../commands/service.js';
import type { DeviceRepository } from '../devices/repository.js';
import { PanelScreenshots } from './panel-upload.js';
import { ScreenshotLimits } from './rate-limits.js';
import { ScreenshotRepository } from './repository.js';
import { screenshotRoutes } from './routes.js';
import { ScreenshotService } from './service.js';
import { UploadTokens } from './upload-token.js';

export type { ScreenshotRepository, ScreenshotService };

/**
 * Screenshots of panels (protocol 5.10): asked for from the console, uploaded by the panel to a
 * signed single-use URL, stored with a thumbnail in the file store's `screenshots/` area. The
 * repository's `storedInRange` is what a panel's history lists.
 */
export function installScreenshots(
  f: Foundation,
  needs: { devices: DeviceRepository; commands: CommandService; isOnline(deviceKey: string): boolean },
) {
  const repository = new ScreenshotRepository(f.kysely);
  const tokens = new UploadTokens(f.pepper);
  const files = f.fileStore.within('screenshots');
  const service = new ScreenshotService({
    repository,
    devices: needs.devices,
    commands: needs.commands,
    tokens,
    limits: new ScreenshotLimits(),
    files,
    clock: f.clock,
    baseUrl: f.config.baseUrl,
    isOnline: needs.isOnline,
  });
  const panels = new PanelScreenshots({ repository, tokens, files, clock: f.clock });
  needs.commands.addAckWriter((acks) => panels.acknowledged(acks));
  screenshotRoutes(f.router, service, panels);
  return { repository, service };
}
