import type { Foundation } from '../../foundation.js';
import type { CommandService } from '../commands/service.js';
import type { DownloadService } from '../downloads/service.js';
import type { LabelRepository } from '../labels/repository.js';
import type { MaterialService } from '../materials/service.js';
import { NotificationRepository } from './repository.js';
import { notificationRoutes } from './routes.js';
import { NotificationService } from './service.js';
import { noticeEnvelopeValue } from './stored-notice.js';

/** What a NOTIFY command carries to the panel (the commands module builds envelopes with it). */
export const noticeEnvelope =
  (downloads: DownloadService) =>
  (stored: unknown, deviceKey: string): unknown =>
    noticeEnvelopeValue(downloads, stored, deviceKey);

export function installNotifications(
  f: Foundation,
  needs: {
    labels: LabelRepository;
    commands: CommandService;
    materials: MaterialService;
    downloads: DownloadService;
  },
): void {
  notificationRoutes(
    f.router,
    new NotificationService({
      repository: new NotificationRepository(f.kysely),
      ...needs,
      log: f.operations,
    }),
  );
}
