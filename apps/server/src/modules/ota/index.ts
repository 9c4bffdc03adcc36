import type { Foundation } from '../../foundation.js';
import type { DownloadService } from '../downloads/service.js';
import type { LabelRepository } from '../labels/repository.js';
import type { RolloutEngine, RolloutSettings } from '../rollouts/engine.js';
import type { RolloutRepository } from '../rollouts/repository.js';
import type { TipService } from '../tips/service.js';
import type { UploadService } from '../uploads/service.js';
import { OtaFileRepository } from './file-repository.js';
import { OtaFileService } from './file-service.js';
import { OtaRolloutKind } from './ota-kind.js';
import { otaRoutes } from './routes.js';
import { OtaRuleRepository } from './rule-repository.js';
import { OtaRuleService } from './rule-service.js';
import { OtaTaskService } from './task-service.js';
import { OtaVersionRepository } from './version-repository.js';
import { OtaVersionService } from './version-service.js';

export type { OtaFileService, OtaTaskService };

/** OTA: files, descriptions, policies, versions, tasks (a rollout kind), log. */
export function installOta(
  f: Foundation,
  needs: {
    rollouts: { rollouts: RolloutRepository; engine: RolloutEngine; settings: RolloutSettings };
    uploads: UploadService;
    downloads: DownloadService;
    tips: TipService;
    labels: LabelRepository;
    isOnline: (deviceKey: string) => boolean;
  },
) {
  const { kysely, clock, operations: log, signer } = f;
  const { rollouts, engine, settings } = needs.rollouts;
  const fileRecords = new OtaFileRepository(kysely);
  const ruleRecords = new OtaRuleRepository(kysely);
  engine.register(
    new OtaRolloutKind(fileRecords, ruleRecords, (orgId, machineType, version, language) =>
      needs.tips.reminderFor(orgId, machineType, version, language),
    ),
  );
  const files = new OtaFileService({
    fileRecords,
    rollouts,
    uploads: needs.uploads,
    signer,
    files: needs.downloads.files,
    log,
    clock,
  });
  const tasks = new OtaTaskService({
    rollouts,
    engine,
    files,
    fileRecords,
    labels: needs.labels,
    isOnline: needs.isOnline,
    log,
    clock,
  });
  otaRoutes(f.router, {
    files,
    rules: new OtaRuleService({ rules: ruleRecords, log, clock }),
    versions: new OtaVersionService({
      versions: new OtaVersionRepository(kysely),
      files: fileRecords,
      log,
      clock,
    }),
    tasks,
    signer,
    settings,
  });
  return { files, tasks };
}
