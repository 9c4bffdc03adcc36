import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { systemClock, type Clock } from './clock.js';
import type { Composition } from './composition.js';
import { compose } from './composition-root.js';
import type { Config } from './config.js';
import { openDatabase, type Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { withStartUpLock } from './db/start-up-lock.js';
import { waitForDatabase } from './db/wait-for-database.js';
import { bounded, STOP_STEP_MS, withinClose } from './gateway/index.js';
import { installConsoleFiles } from './http/console-files.js';
import { installErrorHandling } from './http/errors.js';
import { installIntake } from './http/intake.js';
import { installApiReference } from './http/api-reference.js';
import { installOpenApi } from './http/openapi.js';
import { installRequestLog, loggerOptions } from './http/logging.js';
import { installOriginGuard } from './http/origin-guard.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { installTextGuard } from './http/text-guard.js';
import { MULTIPART_FILE_LIMIT } from './http/router.js';
import type { ThrottleLimits } from './modules/auth/index.js';
import type { CommandTimings } from './modules/commands/index.js';
import type { RolloutSettings } from './modules/rollouts/index.js';
import type { OtaUpgradeSource } from './modules/dashboards/index.js';
import type { LiveHubOptions } from './modules/live/index.js';
import type { AlertSettings } from './modules/alerts/index.js';
import type { ApiTokenLimits } from './modules/api-tokens/index.js';

/** How long a shutdown lets the requests in flight finish (main.ts bounds the whole shutdown). */
const DRAIN_MS = 3000;

export interface AppOptions {
  clock?: Clock;
  throttle?: ThrottleLimits;
  /** Calls per window of one API token (tests lower it). */
  apiTokenLimits?: ApiTokenLimits;
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
  /** Alert evaluation and mail timings (tests shorten them). */
  alerts?: Partial<AlertSettings>;
}

/** The built server: its HTTP plumbing and database, and every composed module (see Composition). */
export interface PanelFleetApp extends Composition {
  http: FastifyInstance;
  db: Db;
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
  // First of the hooks: a shutdown stops taking requests before any other hook runs.
  const intake = installIntake(http);
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
  await http.register(multipart, { limits: { files: 1, fields: 10, fileSize: MULTIPART_FILE_LIMIT } });
  installErrorHandling(http);
  installRequestLog(http);
  installOriginGuard(http, config.baseUrl);
  installTextGuard(http);
  installOpenApi(http);
  installApiReference(http);

  const composed = await compose({
    http,
    db,
    config,
    clock,
    throttle: options.throttle,
    apiTokenLimits: options.apiTokenLimits,
    commandTimings: options.commandTimings,
    rollout: options.rollout,
    live: options.live,
    otaUpgrades: options.otaUpgrades,
    alerts: options.alerts,
  });

  await installConsoleFiles(http, config.webDist);

  const { devices, ota, jobs, live } = composed;
  return {
    http,
    db,
    ...composed,
    close: async () => {
      // Stop taking work, everywhere at once: no new request, command claim, job or rollout lease.
      intake.stop();
      devices.commands.stopTakingWork();
      jobs.stop();
      const rolloutsStopped = ota.stop();
      // Event streams never end by themselves: the consoles reconnect to another instance.
      live.stop();
      // Requests in flight answer; commands they record are handed to the other instances.
      await intake.drained(withinClose(DRAIN_MS));
      await bounded('rollout engine stop', STOP_STEP_MS, http.log, () => rolloutsStopped);
      // Hand over what this instance holds: unpublished commands, job leases (the engine released its tasks).
      await devices.stop();
      await bounded('job leases release', STOP_STEP_MS, http.log, () => jobs.release());
      await http.close();
    },
  };
}
