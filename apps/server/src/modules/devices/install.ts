import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { Router } from '../../http/router.js';
import { LabelService } from '../labels/service.js';
import { labelRoutes } from '../labels/routes.js';
import { DeviceEditService } from './edit-service.js';
import { DeviceListRepository } from './list-repository.js';
import { DeviceListService } from './list-service.js';
import { DeviceOrderIndex } from './order-index.js';
import type { DeviceRepository } from './repository.js';
import { deviceRoutes } from './routes.js';
import type { DeviceService } from './service.js';

export interface DeviceListDeps {
  db: Db;
  clock: Clock;
  devices: DeviceService;
  repository: DeviceRepository;
  isOnline: (deviceKey: string) => boolean;
  /** The gateway's credential cache forgets a panel whose state changed. */
  forget: (deviceKey: string) => void;
  logError: (err: unknown, message: string) => void;
}

/** The console's device calls (list, edit, online state, enrollment secret) and label calls. */
export function installDeviceList(router: Router, deps: DeviceListDeps) {
  const listRepository = new DeviceListRepository(deps.db.kysely, deps.db.dialect);
  const index = new DeviceOrderIndex(listRepository, undefined, (err) => deps.logError(err, 'device order index rebuild failed'));
  deviceRoutes(router, {
    devices: deps.devices,
    list: new DeviceListService(listRepository, deps.repository, index),
    edit: new DeviceEditService(deps.db.kysely, deps.clock, deps.forget),
    isOnline: deps.isOnline,
  });
  labelRoutes(router, { labels: new LabelService(deps.db.kysely, deps.clock), isOnline: deps.isOnline });
}
