import { everyOnOneInstance, type Foundation } from '../../foundation.js';
import { transactor } from '../../db/unit-of-work.js';
import type { DeviceGateway } from '../../gateway/gateway.js';
import type { DeviceRepository } from '../devices/repository.js';
import { apkEnvelopeValue } from '../downloads/apk.js';
import { otaEnvelopeValue } from '../downloads/ota.js';
import { programEnvelopeValue } from '../downloads/program.js';
import type { DownloadService } from '../downloads/service.js';
import type { LabelRepository } from '../labels/repository.js';
import { MatchingDevices } from '../devices/matching-repository.js';
import { MatchingCommandRepository } from './matching-repository.js';
import { MatchingCommandService } from './matching-service.js';
import { OperatorCommandService } from './operator-service.js';
import { CommandRepository } from './repository.js';
import { CommandRequestRepository, REQUEST_KEY_TTL_MS } from './request-repository.js';
import { commandRoutes } from './routes.js';
import { CommandService, DEFAULT_TIMINGS, type CommandTimings, type EnvelopeValue } from './service.js';

export type { CommandRepository, CommandService, CommandTimings };

/** Label-command idempotency keys past their time are deleted this often. */
const KEY_PURGE_EVERY_MS = 60 * 60_000;

/** Command delivery to panels: the gateway hands it what panels answer. */
export function installCommands(
  f: Foundation,
  needs: {
    devices: DeviceRepository;
    gateway: DeviceGateway;
    downloads: DownloadService;
    /** The stored notice's envelope value (notifications/index.ts). */
    notice: EnvelopeValue;
    timings?: Partial<CommandTimings>;
  },
) {
  const { downloads } = needs;
  const records = new CommandRepository(f.kysely, f.db.dialect);
  const commands = new CommandService(
    records,
    needs.devices,
    needs.gateway,
    f.clock,
    f.log,
    { ...DEFAULT_TIMINGS, ...needs.timings },
    {
      OTA: (stored, deviceKey) => otaEnvelopeValue(downloads, stored, deviceKey),
      NOTIFY: needs.notice,
      APK: (stored, deviceKey) => apkEnvelopeValue(downloads, stored, deviceKey),
      PROGRAM: (stored, deviceKey) => programEnvelopeValue(downloads, stored, deviceKey),
    },
  );
  needs.gateway.setCommandSink(commands);
  return { commands, records };
}

/** Operator commands: to a device, to labels, power-on, the feedback log. */
export function installOperatorCommands(
  f: Foundation,
  needs: {
    commands: CommandService;
    records: CommandRepository;
    devices: DeviceRepository;
    labels: LabelRepository;
    uninstall: ConstructorParameters<typeof OperatorCommandService>[0]['uninstall'];
    settings: ConstructorParameters<typeof OperatorCommandService>[0]['settings'];
    describe: Parameters<typeof commandRoutes>[2]['describe'];
  },
): void {
  const { kysely, db } = f;
  commandRoutes(
    f.router,
    new OperatorCommandService({
      clock: f.clock,
      commands: needs.commands,
      records: needs.records,
      devices: needs.devices,
      labels: needs.labels,
      log: f.operations,
      transact: transactor(kysely, (trx) => ({
        requests: new CommandRequestRepository(trx),
        commands: new CommandRepository(trx, db.dialect),
        log: f.operationLogIn(trx),
      })),
      // The generic command call applies the rules of the dedicated UNINSTALL and SETTINGS calls.
      uninstall: needs.uninstall,
      settings: needs.settings,
    }),
    // Failed commands show the tip of the panel's error code in the operator's language.
    { describe: needs.describe },
    new MatchingCommandService({
      clock: f.clock,
      ttlMs: DEFAULT_TIMINGS.ttlMs,
      matching: new MatchingDevices(kysely, db.dialect),
      commands: needs.commands,
      transact: transactor(kysely, (trx) => ({
        requests: new CommandRequestRepository(trx),
        rows: new MatchingCommandRepository(trx, db.dialect),
        log: f.operationLogIn(trx),
      })),
    }),
  );
  everyOnOneInstance(
    f,
    'idempotency-key-purge',
    KEY_PURGE_EVERY_MS,
    () => new CommandRequestRepository(kysely).deleteOlderThan(f.clock.now() - REQUEST_KEY_TTL_MS),
    'expired idempotency keys not deleted',
  );
}
