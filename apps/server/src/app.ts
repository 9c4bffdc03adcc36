import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { openDatabase, type Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { installDeviceGateway, type DeviceStack } from './gateway/install.js';
import type { CommandTimings } from './modules/commands/service.js';
import { installConsoleFiles } from './http/console-files.js';
import { installErrorHandling } from './http/errors.js';
import { installOpenApi } from './http/openapi.js';
import { installOriginGuard } from './http/origin-guard.js';
import { createRouter } from './http/router.js';
import { authRoutes } from './modules/auth/routes.js';
import { installAccounts } from './modules/install-accounts.js';
import { installNotifications } from './modules/notifications/install.js';
import { installCatalogs } from './modules/machine-types/install.js';
import { serverLicenseRoutes } from './modules/server-license/routes.js';
import { ServerLicense } from './modules/server-license/service.js';
import { serverRegistryRoutes } from './modules/servers/routes.js';
import { ServerRegistry } from './modules/servers/service.js';
import { OperationLog } from './modules/operation-log/repository.js';
import { AuthService } from './modules/auth/service.js';
import { LoginThrottle, type ThrottleLimits } from './modules/auth/throttle.js';
import { CaptchaRepository } from './modules/captcha/repository.js';
import { captchaRoutes } from './modules/captcha/routes.js';
import { CaptchaService } from './modules/captcha/service.js';
import { OrganisationRepository } from './modules/organisations/repository.js';
import { runtimeConfigRoutes } from './modules/runtime-config/routes.js';
import { SessionRepository } from './modules/session/repository.js';
import { SessionService } from './modules/session/service.js';
import { ensurePlatformAdmin } from './modules/users/bootstrap.js';
import { UserRepository } from './modules/users/repository.js';
import { loadPepper } from './security/pepper.js';
import { PasswordHasher } from './security/passwords.js';

export interface AppOptions {
  clock?: Clock;
  throttle?: ThrottleLimits;
  /** PostgreSQL schema (tests give each server its own). */
  databaseSchema?: string;
  logger?: boolean;
  /** Command expiry and retry timings (tests shorten them). */
  commandTimings?: Partial<CommandTimings>;
}

export interface PanelFleetApp {
  http: FastifyInstance;
  db: Db;
  devices: DeviceStack;
  serverLicense: ServerLicense;
  close(): Promise<void>;
}

/** Builds the whole server: database (migrated), HTTP API, console files. Does not listen. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<PanelFleetApp> {
  const clock = options.clock ?? systemClock;
  const http = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    trustProxy: true,
    bodyLimit: 1024 * 1024,
  });
  const db = openDatabase(config.database, { schema: options.databaseSchema });
  http.addHook('onClose', () => db.close());

  const applied = await migrateToLatest(db);
  if (applied.length) http.log.info({ applied }, 'database migrated');

  const secureCookies = config.baseUrl.startsWith('https://');
  const hasher = new PasswordHasher(loadPepper(config.passwordPepper, config.dataDir));
  const users = new UserRepository(db.kysely);
  const organisations = new OrganisationRepository(db.kysely);
  const sessions = new SessionService(new SessionRepository(db.kysely), clock, secureCookies);
  const captcha = new CaptchaService(new CaptchaRepository(db.kysely), clock, secureCookies);
  const throttle = new LoginThrottle(db.kysely, clock, options.throttle);
  const serverLicense = new ServerLicense({
    db: db.kysely, clock, log: http.log, platformUrl: config.platformUrl, reportIntervalMs: config.serverReportIntervalMs,
  });
  const auth = new AuthService({
    users, hasher, captcha, throttle, sessions, clock,
    policy: {
      captcha: config.captcha,
      specialDeployment: config.roleFlag === 1,
      requireActiveDeployment: () => serverLicense.requireActive(),
    },
  });

  await ensurePlatformAdmin({ organisations, users, hasher, clock, log: http.log, adminPassword: config.adminPassword });
  if (!config.captcha) http.log.warn('CAPTCHA=off: sign-in does not check a captcha; use this only for automated clients');

  await http.register(cookie);
  await http.register(formbody);
  await http.register(multipart, { limits: { files: 1, fields: 10, fileSize: 20 * 1024 * 1024 } });
  installErrorHandling(http);
  installOriginGuard(http, config.baseUrl);
  installOpenApi(http);

  const router = createRouter(http, sessions.authenticate);
  captchaRoutes(router, captcha);
  authRoutes(router, { auth, sessions, users });
  installAccounts(router, { config, db, clock, log: http.log, hasher, users, organisations, sessions });
  serverLicenseRoutes(router, serverLicense);
  serverRegistryRoutes(router, new ServerRegistry({
    db: db.kysely, clock, log: new OperationLog(db.kysely, clock.now), reportIntervalMs: config.serverReportIntervalMs,
  }));
  serverLicense.startReporting();
  http.addHook('onClose', async () => serverLicense.stop());
  runtimeConfigRoutes(router, {
    serverLevel: config.serverLevel,
    roleFlag: config.roleFlag,
    title: config.title,
    netSpeedUrl: config.netSpeedUrl,
  });
  installCatalogs(router, { db: db.kysely, clock, deployment: { special: config.roleFlag === 1 } });
  // Device side: MQTT broker (or external broker client), gateway, commands, their HTTP calls.
  const devices = await installDeviceGateway(http, router, db, clock, config, options.commandTimings);
  installNotifications(router, { db: db.kysely, clock, commands: devices.commands, downloads: devices.downloads });

  await installConsoleFiles(http, config.webDist);

  const purge = setInterval(() => {
    sessions.purgeExpired().catch((err: unknown) => http.log.error({ err }, 'session purge failed'));
  }, 10 * 60_000);
  purge.unref();
  http.addHook('onClose', async () => clearInterval(purge));

  return {
    http,
    db,
    devices,
    serverLicense,
    close: async () => {
      await devices.stop();
      await http.close();
    },
  };
}
