import { transactor } from '../../db/unit-of-work.js';
import type { Base, Foundation } from '../../foundation.js';
import type { Db } from '../../db/database.js';
import { DeviceEditService, type DeviceEditDeps, type DeviceLabelWriter } from './edit-service.js';
import { deviceExportRoutes } from './export-routes.js';
import { DeviceExportService } from './export-service.js';
import { EnrollmentRepository } from './enrollment-repository.js';
import { EnrollmentService } from './enrollment-service.js';
import { DeviceImportRepository } from './import-repository.js';
import { deviceImportRoutes } from './import-routes.js';
import { DeviceImportService } from './import-service.js';
import { DeviceListRepository } from './list-repository.js';
import { DeviceListService } from './list-service.js';
import { MatchingDevices } from './matching-repository.js';
import { deviceMatchingRoutes } from './matching-routes.js';
import { DeviceOrderIndex } from './order-index.js';
import { DeviceRepository } from './repository.js';
import { deviceRoutes } from './routes.js';
import { DeviceService } from './service.js';

export type { DeviceRepository, DeviceService };

/** The device records: panel credentials (the router, the gateway) and everything about a panel. */
export const openDeviceRecords = (f: Base) => new DeviceRepository(f.kysely);

type EnrollmentSettings = ConstructorParameters<typeof EnrollmentService>[2];

/** Enrollment, the device list and editing. */
export function installDevices(
  f: Foundation,
  needs: {
    devices: DeviceRepository;
    /** What a panel is told at enrollment besides its credentials. */
    enrollment: EnrollmentSettings;
    /** The gateway's access events (gateway/broker.ts). */
    access: {
      credentialsChanged: ConstructorParameters<typeof EnrollmentService>[3];
      stateChanged: DeviceEditDeps['onStateChanged'];
      removed: DeviceEditDeps['onRemoved'];
    };
    isOnline: (deviceKey: string) => boolean;
    /** The label records within an edit's transaction (labels/index.ts; labels depend on devices). */
    labelsIn: (trx: Db['kysely']) => DeviceLabelWriter;
  },
): DeviceService {
  const { kysely, clock } = f;
  const enrollmentSecrets = new EnrollmentRepository(kysely);
  const imports = new DeviceImportService({
    clock,
    imports: new DeviceImportRepository(kysely),
    transact: transactor(kysely, (trx) => ({
      imports: new DeviceImportRepository(trx),
      log: f.operationLogIn(trx),
    })),
  });
  const deviceService = new DeviceService(needs.devices, enrollmentSecrets, clock);
  const listRepository = new DeviceListRepository(kysely, f.db.dialect);
  const orderIndex = new DeviceOrderIndex(listRepository, undefined, (err) =>
    f.log.error({ err }, 'device order index rebuild failed'),
  );
  deviceRoutes(f.router, {
    enrollment: new EnrollmentService(
      enrollmentSecrets,
      clock,
      needs.enrollment,
      needs.access.credentialsChanged,
      (panel) => imports.enrolled(panel.orgId, panel.id, panel.deviceKey),
    ),
    devices: deviceService,
    list: new DeviceListService(listRepository, needs.devices, orderIndex),
    edit: new DeviceEditService({
      clock,
      transact: transactor(kysely, (trx) => ({
        devices: new DeviceRepository(trx),
        labels: needs.labelsIn(trx),
        log: f.operationLogIn(trx),
      })),
      onStateChanged: needs.access.stateChanged,
      onRemoved: needs.access.removed,
    }),
    isOnline: needs.isOnline,
  });
  deviceExportRoutes(f.router, {
    export: new DeviceExportService(listRepository, needs.devices),
    isOnline: needs.isOnline,
    clock,
  });
  deviceImportRoutes(f.router, { imports });
  deviceMatchingRoutes(f.router, new MatchingDevices(kysely, f.db.dialect));
  return deviceService;
}
