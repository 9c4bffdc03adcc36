import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { notifyThrough } from './db/notify.js';
import {
  InProcessEventBus,
  taskProgressPublisher,
  type EventBus,
  type PublishTaskProgress,
} from './events/bus.js';
import { PostgresEventBus } from './events/postgres-bus.js';
import { openFileStore } from './files/open-store.js';
import type { FileStore } from './files/store.js';
import type { Router } from './http/router.js';
import { FirmwareSigner } from './security/firmware-signing.js';
import { PasswordHasher } from './security/passwords.js';
import { loadPepper } from './security/pepper.js';
import { openJobLeases, type JobLeases } from './modules/jobs/index.js';
import { OperationLog } from './modules/operation-log/index.js';

/**
 * The shared parts every module's install function receives: the database, the configuration,
 * the clock and logger, the event bus, the periodic jobs' leases, the file store, the operation
 * log, the secrets, and the router (every call's access enforced before its handler).
 */
export interface Foundation {
  http: FastifyInstance;
  router: Router;
  db: Db;
  kysely: Db['kysely'];
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  logError: (err: unknown, message: string) => void;
  operations: OperationLog;
  operationLogIn: (trx: Db['kysely']) => OperationLog;
  pepper: string;
  hasher: PasswordHasher;
  /** Panels receive the firmware signing key's public half at enrollment (OTA manifests). */
  signer: FirmwareSigner;
  secureCookies: boolean;
  /** Uploaded and served files: DATA_DIR, or an S3-compatible bucket that every instance reads. */
  fileStore: FileStore;
  /** Local work files (received, checked, hashed before they go into the store); never kept. */
  workDir: string;
  /** Periodic jobs run on one instance at a time (a lease each in the database). */
  jobs: JobLeases;
  /** The one publish/subscribe seam (events/bus.ts): presence, command results, task progress, session ends. */
  events: EventBus;
  publishTaskProgress: PublishTaskProgress;
}

export interface FoundationInput {
  http: FastifyInstance;
  db: Db;
  config: Config;
  clock: Clock;
}

/** The shared parts but the router (which needs the sessions and the device directory). */
/** Every module's install function takes the foundation without the router only before it exists. */
export type Base = Omit<Foundation, 'router'>;

export async function openFoundation({ http, db, config, clock }: FoundationInput): Promise<Base> {
  const kysely = db.kysely;
  const log = http.log;
  const pepper = loadPepper(config.passwordPepper, config.dataDir);
  const signer = FirmwareSigner.load(config.firmwareSigningKey, config.dataDir);
  const fileStore = await openFileStore(config.files, config.dataDir);
  http.addHook('onClose', async () => fileStore.close());
  const jobs = openJobLeases(kysely, clock);
  const events = await eventBus(db, config, log);
  if (events instanceof PostgresEventBus) http.addHook('preClose', () => events.stop());
  return {
    http,
    db,
    kysely,
    config,
    clock,
    log,
    logError: (err, message) => log.error({ err }, message),
    operations: new OperationLog(kysely, clock.now),
    operationLogIn: (trx) => new OperationLog(trx, clock.now),
    pepper,
    hasher: new PasswordHasher(pepper),
    signer,
    secureCookies: config.baseUrl.startsWith('https://'),
    fileStore,
    workDir: path.join(config.dataDir, 'tmp'),
    jobs,
    events,
    publishTaskProgress: taskProgressPublisher(events, clock.now),
  };
}

/** The event bus: in process with SQLite (one instance); shared through LISTEN/NOTIFY on PostgreSQL. */
async function eventBus(db: Db, config: Config, log: FastifyBaseLogger): Promise<EventBus> {
  if (config.database.kind !== 'postgres') return new InProcessEventBus(log);
  const bus = new PostgresEventBus(config.database.url, db.schema ?? 'public', notifyThrough(db), log);
  await bus.start();
  return bus;
}

/** Runs a job every `everyMs` on the one instance holding its lease; stopped when the server closes. */
export function everyOnOneInstance(
  f: Base,
  job: string,
  everyMs: number,
  run: () => Promise<void>,
  failure: string,
): void {
  const mine = f.jobs.runsHere(job, everyMs);
  const timer = setInterval(() => {
    void mine()
      .then(async (here) => {
        if (here) await run();
      })
      .catch((err: unknown) => f.log.error({ err }, failure));
  }, everyMs);
  timer.unref();
  f.http.addHook('onClose', async () => clearInterval(timer));
}
