import type { Foundation } from '../../foundation.js';
import type { CommandService } from '../commands/service.js';
import type { DownloadService } from '../downloads/service.js';
import type { MaterialService } from '../materials/service.js';
import type { RolloutEngine } from '../rollouts/engine.js';
import type { RolloutRepository } from '../rollouts/repository.js';
import { MatchingDevices } from '../devices/matching-repository.js';
import { ProgramProgressRecorder } from './panel-progress.js';
import { ProgramRolloutKind } from './program-kind.js';
import { PublishRepository } from './publish-repository.js';
import { PublishService } from './publish-service.js';
import { ProgramRepository } from './repository.js';
import { programRoutes } from './routes.js';
import { ProgramService } from './service.js';
import { ProgramZipService } from './zip-service.js';

export type { ProgramRepository };

export const openProgramRecords = (f: Foundation) => new ProgramRepository(f.kysely);

/** Programs, their approval and publishing (a rollout kind), and the progress panels report. */
export function installPrograms(
  f: Foundation,
  needs: {
    records: ProgramRepository;
    materials: MaterialService;
    downloads: DownloadService;
    commands: CommandService;
    rollouts: { rollouts: RolloutRepository; engine: RolloutEngine };
  },
) {
  const { clock, operations: log } = f;
  const { materials, downloads } = needs;
  const { rollouts, engine } = needs.rollouts;
  const programs = new ProgramService({ repository: needs.records, materials, log, clock });
  const publishRecords = new PublishRepository(f.kysely);
  engine.register(new ProgramRolloutKind());
  const progress = new ProgramProgressRecorder({ repository: publishRecords, clock, logError: f.logError });
  needs.commands.onAck((known, ack) => progress.acknowledge(known, ack));
  programRoutes(
    f.router,
    programs,
    new PublishService({
      programs,
      repository: publishRecords,
      playable: (orgId, id) => materials.playable(orgId, id),
      register: (file) => downloads.register(file),
      rollouts: { createTask: (task, waves) => rollouts.createTask(task, waves), wake: () => engine.wake() },
      engine,
      log,
      clock,
      matching: new MatchingDevices(f.kysely, f.db.dialect),
    }),
    new ProgramZipService({ programs, materials, log, workDir: f.workDir }),
  );
  return { stop: () => progress.stop() };
}
