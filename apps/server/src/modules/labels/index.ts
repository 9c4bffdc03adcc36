import { transactor } from '../../db/unit-of-work.js';
import type { Foundation } from '../../foundation.js';
import { DeviceRepository } from '../devices/repository.js';
import { LabelRepository } from './repository.js';
import { labelRoutes } from './routes.js';
import { LabelService, type LabelServiceDeps } from './service.js';

export type { LabelRepository };

import type { Db } from '../../db/database.js';

/** The label records on the database or within a transaction. */
export const labelRecords = (kysely: Db['kysely']) => new LabelRepository(kysely);

export function installLabels(
  f: Foundation,
  needs: {
    labels: LabelRepository;
    devices: DeviceRepository;
    /** The force-upgrade dialog lists only the panels an OTA file fits. */
    deviceFit: LabelServiceDeps['deviceFit'];
    isOnline: (deviceKey: string) => boolean;
  },
): void {
  labelRoutes(f.router, {
    labels: new LabelService({
      labels: needs.labels,
      devices: needs.devices,
      clock: f.clock,
      deviceFit: needs.deviceFit,
      transact: transactor(f.kysely, (trx) => ({
        labels: new LabelRepository(trx),
        devices: new DeviceRepository(trx),
        log: f.operationLogIn(trx),
      })),
    }),
    isOnline: needs.isOnline,
  });
}
