import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { systemClock, type Clock } from './clock.js';
import { compose, type DashboardStack, type DeviceStack, type OtaStack } from './composition-root.js';
import type { Config } from './config.js';
import { openDatabase, type Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { withStartUpLock } from './db/start-up-lock.js';
import { waitForDatabase } from './db/wait-for-database.js';
import { installConsoleFiles } from './http/console-files.js';
import { installErrorHandling } from './http/errors.js';
import { installOpenApi } from './http/openapi.js';
import { installRequestLog, loggerOptions } from './http/logging.js';
import { installOriginGuard } from './http/origin-guard.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { installTextGuard } from './http/text-guard.js';
import type { ThrottleLimits } from './modules/auth/throttle.js';
import type { CommandTimings } from './modules/commands/service.js';
import type { RolloutSettings } from './modules/rollouts/engine.js';
import type { ServerLicense } from './modules/server-license/service.js';
import type { TipService } from './modules/tips/service.js';
import type { EventBus, PublishTaskProgress } from './events/bus.js';
import type { OtaUpgradeSource } from './modules/dashboards/history.js';
import type { LiveHub, LiveHubOptions } from './modules/live/hub.js';

export interface AppOptions {
  clock?: Clock;
  throttle?: ThrottleLimits;
  /** PostgreSQL schema (tests give each server its own). */
  databaseSchema?: string;
  logger?: boolean;
  /** Command expiry and retry timings (tests shorten them). */
  commandTimings?: Partial<CommandTimings>;
  /** Rollout engine timings (tests shorten them). */
  rollout?: Partial<RolloutSettings>;
  /** Live console timings (tests shorten them). */
  live?: Partial<LiveHubOptions>;
  /** Where the dashboards count succeeded OTA installs (default: the OTA commands). */
  otaUpgrades?: OtaUpgradeSource;
}

export interface PanelFleetApp {
  http: FastifyInstance;
  db: Db;
  devices: DeviceStack;
  ota: OtaStack;
  serverLicense: ServerLicense;
  /** Error tips and reminders (the OTA dispatch's reminder for a machine type, version and language). */
  tips: TipService;
  /** The publish/subscribe seam: presence, command results, task progress, session ends. */
  events: EventBus;
  /** What a long-running task (an OTA rollout) calls to show its progress on the live console. */
  publishTaskProgress: PublishTaskProgress;
  dashboards: DashboardStack;
  live: LiveHub;
  close(): Promise<void>;
}

/**
 * Builds the whole server: database (migrated), the HTTP plumbing, every module (wired in
 * composition-root.ts), the console files. Does not listen.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<PanelFleetApp> {
  const clock = options.clock ?? systemClock;
  const http = Fastify({
    ...(options.logger === false ? { logger: false } : loggerOptions(config.logLevel)),
    // Forwarded headers are believed only from the configured proxies; by default the peer is the client.
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
    bodyLimit: 1024 * 1024,
  });
  const db = openDatabase(config.database, {
    schema: options.databaseSchema,
    onConnectionError: (err) => http.log.warn({ err }, 'database connection lost; the pool reconnects'),
  });
  http.addHook('onClose', () => db.close());

  await waitForDatabase(db, http.log);
  const applied = await withStartUpLock(db, () => migrateToLatest(db), {
    onWait: () => http.log.info('another instance is migrating the database; waiting for it'),
  });
  if (applied.length) http.log.info({ applied }, 'database migrated');

  await installSecurityHeaders(http, { baseUrl: config.baseUrl, netSpeedUrl: config.netSpeedUrl });
  await http.register(cookie);
  await http.register(formbody);
  await http.register(multipart, { limits: { files: 1, fields: 10, fileSize: 20 * 1024 * 1024 } });
  installErrorHandling(http);
  installRequestLog(http);
  installOriginGuard(http, config.baseUrl);
  installTextGuard(http);
  installOpenApi(http);

  const { devices, ota, serverLicense, tips, events, publishTaskProgress, dashboards, live } = await compose({
    http,
    db,
    config,
    clock,
    throttle: options.throttle,
    commandTimings: options.commandTimings,
    rollout: options.rollout,
    live: options.live,
    otaUpgrades: options.otaUpgrades,
  });

  await installConsoleFiles(http, config.webDist);

  return {
    http,
    db,
    devices,
    ota,
    serverLicense,
    tips,
    events,
    publishTaskProgress,
    dashboards,
    live,
    close: async () => {
      await ota.stop();
      await devices.stop();
      await http.close();
    },
  };
}
