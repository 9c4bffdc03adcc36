import { transactor } from '../../db/unit-of-work.js';
import type { Foundation } from '../../foundation.js';
import type { DownloadService } from '../downloads/service.js';
import type { LabelRepository } from '../labels/repository.js';
import type { RolloutEngine } from '../rollouts/engine.js';
import type { RolloutRepository } from '../rollouts/repository.js';
import type { UploadService } from '../uploads/service.js';
import { MatchingDevices } from '../devices/matching-repository.js';
import { ApkRolloutKind } from './apk-kind.js';
import { ApkInstallService } from './install-service.js';
import { ApkRepository } from './repository.js';
import { apkRoutes } from './routes.js';
import { ApkService } from './service.js';

/** APK repository: cards, versions, auxiliary apps (files read and checked on upload), installs. */
export function installApk(
  f: Foundation,
  needs: {
    rollouts: {
      rollouts: RolloutRepository;
      rolloutsIn: (trx: Foundation['kysely']) => RolloutRepository;
      engine: RolloutEngine;
    };
    uploads: UploadService;
    downloads: DownloadService;
    labels: LabelRepository;
    isOnline: (deviceKey: string) => boolean;
  },
) {
  const { kysely, db, clock, operations: log } = f;
  const { rollouts, rolloutsIn, engine } = needs.rollouts;
  const { labels } = needs;
  const records = new ApkRepository(kysely, db.dialect);
  engine.register(new ApkRolloutKind(records));
  const installs = new ApkInstallService({
    apks: records,
    rollouts,
    transact: transactor(kysely, (trx) => ({
      apks: new ApkRepository(trx, db.dialect),
      rollouts: rolloutsIn(trx),
    })),
    engine,
    labelsOwned: (orgId, ids) => labels.ownedCount(orgId, ids),
    matching: new MatchingDevices(kysely, db.dialect),
    labelNames: async (orgId, ids) =>
      (await labels.list(orgId)).filter((l) => ids.includes(l.id)).map((l) => l.name),
    isOnline: needs.isOnline,
    log,
    clock,
  });
  apkRoutes(
    f.router,
    new ApkService({ apks: records, uploads: needs.uploads, files: needs.downloads.files, log, clock }),
    installs,
  );
  return { records, installs };
}
