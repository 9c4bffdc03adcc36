import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { Router } from '../../http/router.js';
import type { CommandService } from '../commands/service.js';
import type { DownloadService } from '../downloads/service.js';
import { LabelRepository } from '../labels/repository.js';
import { materialRoutes } from '../materials/routes.js';
import { MaterialRepository } from '../materials/repository.js';
import { MaterialService } from '../materials/service.js';
import { OperationLog } from '../operation-log/repository.js';
import { screenTimeRoutes } from '../screen-time/routes.js';
import { ScreenTimeRepository } from '../screen-time/repository.js';
import { ScreenTimeService } from '../screen-time/service.js';
import { NotificationRepository } from './repository.js';
import { notificationRoutes } from './routes.js';
import { NotificationService } from './service.js';

export interface NotificationDeps {
  db: Kysely<Database>;
  clock: Clock;
  commands: CommandService;
  /** Where panels download files from; materials are kept below its root. */
  downloads: DownloadService;
}

/** Notifications to panels, their audio materials and the panels' screen time (spec 2 sections 4-9). */
export function installNotifications(router: Router, deps: NotificationDeps) {
  const log = new OperationLog(deps.db, deps.clock.now);
  const materials = new MaterialService({ repository: new MaterialRepository(deps.db), log, clock: deps.clock, folder: path.join(deps.downloads.root, 'materials') });
  const notifications = new NotificationService({ repository: new NotificationRepository(deps.db), labels: new LabelRepository(deps.db), commands: deps.commands, materials, downloads: deps.downloads, log });
  materialRoutes(router, materials);
  notificationRoutes(router, notifications);
  screenTimeRoutes(router, new ScreenTimeService(new ScreenTimeRepository(deps.db)));
  return { materials, notifications };
}
