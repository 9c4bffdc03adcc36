import { materials as materialsContract } from '@panelfleet/contract';
import {
  InProcessEventBus,
  taskProgressPublisher,
  type EventBus,
  type PublishTaskProgress,
} from './events/bus.js';
import { PostgresEventBus } from './events/postgres-bus.js';
import { FleetHistory, type OtaUpgradeSource } from './modules/dashboards/history.js';
import { HostStats } from './modules/dashboards/host-stats.js';
import { IpLocator } from './modules/dashboards/ip-location.js';
import { Locator } from './modules/dashboards/panel-locator.js';
import { MapRegions } from './modules/dashboards/regions.js';
import { DashboardRepository } from './modules/dashboards/repository.js';
import { dashboardRoutes } from './modules/dashboards/routes.js';
import { DashboardService } from './modules/dashboards/service.js';
import { FleetScopeRepository } from './modules/fleet-scope/repository.js';
import { FleetScopes } from './modules/fleet-scope/service.js';
import { DEFAULT_HUB_OPTIONS, LiveHub, type LiveHubOptions } from './modules/live/hub.js';
import { liveRoutes } from './modules/live/routes.js';
import { LogRepository } from './modules/logs/repository.js';
import { logRoutes } from './modules/logs/routes.js';
import { LogService } from './modules/logs/service.js';
import { ReportRepository } from './modules/reports/repository.js';
import { reportRoutes } from './modules/reports/routes.js';
import { ReportService } from './modules/reports/service.js';
import { ReminderRepository, TipRepository } from './modules/tips/repository.js';
import { tipRoutes } from './modules/tips/routes.js';
import { TipService } from './modules/tips/service.js';
import { OtaFileRepository } from './modules/ota/file-repository.js';
import { ApkRolloutKind } from './modules/apk/apk-kind.js';
import { ApkInstallService } from './modules/apk/install-service.js';
import { ApkRepository } from './modules/apk/repository.js';
import { apkRoutes } from './modules/apk/routes.js';
import { ApkService } from './modules/apk/service.js';
import { OtaFileService } from './modules/ota/file-service.js';
import { OtaRolloutKind } from './modules/ota/ota-kind.js';
import { OtaRuleRepository } from './modules/ota/rule-repository.js';
import { OtaRuleService } from './modules/ota/rule-service.js';
import { otaRoutes } from './modules/ota/routes.js';
import { OtaTaskService } from './modules/ota/task-service.js';
import { OtaVersionRepository } from './modules/ota/version-repository.js';
import { OtaVersionService } from './modules/ota/version-service.js';
import { DEFAULT_ROLLOUT_SETTINGS, RolloutEngine, type RolloutSettings } from './modules/rollouts/engine.js';
import { RolloutRepository } from './modules/rollouts/repository.js';
import { UploadClaims, UploadRepository } from './modules/uploads/repository.js';
import { uploadRoutes } from './modules/uploads/routes.js';
import { UploadService } from './modules/uploads/service.js';
import { FirmwareSigner } from './security/firmware-signing.js';
import { CertificateReports } from './modules/certificate/panel-reports.js';
import { CertificateRepository } from './modules/certificate/repository.js';
import { certificateRoutes } from './modules/certificate/routes.js';
import { CertificateService } from './modules/certificate/service.js';
import { PictureReports } from './modules/settings/panel-reports.js';
import { SettingsRepository } from './modules/settings/repository.js';
import { settingsRoutes } from './modules/settings/routes.js';
import { SettingsService } from './modules/settings/service.js';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { notifyThrough } from './db/notify.js';
import { JobLeases } from './modules/jobs/leases.js';
import { JobLeaseRepository } from './modules/jobs/repository.js';
import { transactor } from './db/unit-of-work.js';
import {
  deviceAccessEvents,
  KEEPALIVE_SECONDS,
  openBroker,
  type DeviceAccessEvents,
} from './gateway/broker.js';
import { bounded } from './gateway/bounded.js';
import { DeviceDirectory } from './gateway/device-directory.js';
import { DeviceGateway, STOP_STEP_MS } from './gateway/gateway.js';
import { DeviceStateStore } from './gateway/state-store.js';
import { createRouter } from './http/router.js';
import { AccountTokenRepository } from './modules/account-tokens/repository.js';
import { AccountTokens } from './modules/account-tokens/service.js';
import { authRoutes } from './modules/auth/routes.js';
import { AuthService } from './modules/auth/service.js';
import { ThrottleRepository } from './modules/auth/throttle-repository.js';
import { LoginThrottle, type ThrottleLimits } from './modules/auth/throttle.js';
import { avatarRoutes } from './modules/avatar/routes.js';
import { AvatarService } from './modules/avatar/service.js';
import { openFileStore } from './files/open-store.js';
import { CaptchaRepository } from './modules/captcha/repository.js';
import { captchaRoutes } from './modules/captcha/routes.js';
import { CaptchaService } from './modules/captcha/service.js';
import { OperatorCommandService } from './modules/commands/operator-service.js';
import { CommandRepository } from './modules/commands/repository.js';
import { CommandRequestRepository, REQUEST_KEY_TTL_MS } from './modules/commands/request-repository.js';
import { commandRoutes } from './modules/commands/routes.js';
import { CommandService, DEFAULT_TIMINGS, type CommandTimings } from './modules/commands/service.js';
import { ConsoleUserRepository } from './modules/console-users/repository.js';
import { consoleUserRoutes } from './modules/console-users/routes.js';
import { ConsoleUserService } from './modules/console-users/service.js';
import { CustomerRepository } from './modules/customers/repository.js';
import { customerRoutes } from './modules/customers/routes.js';
import { CustomerService } from './modules/customers/service.js';
import { DeviceAppsRepository } from './modules/device-apps/repository.js';
import { deviceAppsRoutes } from './modules/device-apps/routes.js';
import { DeviceAppsService } from './modules/device-apps/service.js';
import { DeviceSettingsRepository } from './modules/device-detail/repository.js';
import { deviceDetailRoutes } from './modules/device-detail/routes.js';
import { DeviceDetailService } from './modules/device-detail/service.js';
import { DeviceEditService } from './modules/devices/edit-service.js';
import { EnrollmentRepository } from './modules/devices/enrollment-repository.js';
import { EnrollmentService } from './modules/devices/enrollment-service.js';
import { DeviceListRepository } from './modules/devices/list-repository.js';
import { DeviceListService } from './modules/devices/list-service.js';
import { DeviceOrderIndex } from './modules/devices/order-index.js';
import { DeviceRepository } from './modules/devices/repository.js';
import { deviceRoutes } from './modules/devices/routes.js';
import { DeviceService } from './modules/devices/service.js';
import { otaEnvelopeValue } from './modules/downloads/ota.js';
import { apkEnvelopeValue } from './modules/downloads/apk.js';
import { downloadRoutes } from './modules/downloads/routes.js';
import { DownloadService } from './modules/downloads/service.js';
import { UrlSigner } from './modules/downloads/signing.js';
import { LabelRepository } from './modules/labels/repository.js';
import { labelRoutes } from './modules/labels/routes.js';
import { LabelService } from './modules/labels/service.js';
import { LicenseRepository } from './modules/licenses/repository.js';
import { licenseRoutes } from './modules/licenses/routes.js';
import { LicenseService } from './modules/licenses/service.js';
import { MachineTypeRepository } from './modules/machine-types/repository.js';
import { machineTypeRoutes } from './modules/machine-types/routes.js';
import { MachineTypeService } from './modules/machine-types/service.js';
import { outboxMailer, smtpMailer } from './modules/mail/mailer.js';
import { MaterialRepository } from './modules/materials/repository.js';
import { materialRoutes } from './modules/materials/routes.js';
import { MaterialService } from './modules/materials/service.js';
import { ProgramRepository } from './modules/programs/repository.js';
import { programRoutes } from './modules/programs/routes.js';
import { ProgramProgressRecorder } from './modules/programs/panel-progress.js';
import { ProgramRolloutKind } from './modules/programs/program-kind.js';
import { PublishRepository } from './modules/programs/publish-repository.js';
import { PublishService } from './modules/programs/publish-service.js';
import { ProgramZipService } from './modules/programs/zip-service.js';
import { programEnvelopeValue } from './modules/downloads/program.js';
import { ProgramService } from './modules/programs/service.js';
import { NotificationRepository } from './modules/notifications/repository.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { NotificationService } from './modules/notifications/service.js';
import { noticeEnvelopeValue } from './modules/notifications/stored-notice.js';
import { OperationLog } from './modules/operation-log/repository.js';
import { OrganisationRepository } from './modules/organisations/repository.js';
import { passwordRoutes } from './modules/password/routes.js';
import { PasswordService } from './modules/password/service.js';
import { personalRoutes } from './modules/personal/routes.js';
import { PersonalService } from './modules/personal/service.js';
import { RegistrationRepository } from './modules/registration/repository.js';
import { registrationRoutes } from './modules/registration/routes.js';
import { RegistrationService } from './modules/registration/service.js';
import { runtimeConfigRoutes } from './modules/runtime-config/routes.js';
import { SalespersonRepository } from './modules/salespeople/repository.js';
import { salespersonRoutes } from './modules/salespeople/routes.js';
import { SalespersonService } from './modules/salespeople/service.js';
import { ScreenTimeRepository } from './modules/screen-time/repository.js';
import { screenTimeRoutes } from './modules/screen-time/routes.js';
import { ScreenTimeService } from './modules/screen-time/service.js';
import { ServerIdentityRepository } from './modules/server-license/repository.js';
import { serverLicenseRoutes } from './modules/server-license/routes.js';
import { ServerLicense } from './modules/server-license/service.js';
import { ServerRepository } from './modules/servers/repository.js';
import { serverRegistryRoutes } from './modules/servers/routes.js';
import { ServerRegistry } from './modules/servers/service.js';
import { SessionRepository } from './modules/session/repository.js';
import { SessionService } from './modules/session/service.js';
import { SourceRepository } from './modules/sources/repository.js';
import { sourceRoutes } from './modules/sources/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { HealthRepository } from './modules/health/repository.js';
import { HealthService } from './modules/health/service.js';
import { SourceService } from './modules/sources/service.js';
import { ensurePlatformAdmin } from './modules/users/bootstrap.js';
import { UserRepository } from './modules/users/repository.js';
import { PasswordHasher } from './security/passwords.js';
import { loadPepper } from './security/pepper.js';
import { withStartUpLock } from './db/start-up-lock.js';
import { DeploymentSecretRepository } from './modules/deployment/repository.js';
import { pepperFingerprint, verifyDeploymentSecrets } from './modules/deployment/secrets.js';

/** Expired sessions and sign-in throttles are deleted this often. */
const PURGE_EVERY_MS = 10 * 60_000;
/** Label-command idempotency keys past their time are deleted this often. */
const KEY_PURGE_EVERY_MS = 60 * 60_000;

export interface CompositionInput {
  http: FastifyInstance;
  db: Db;
  config: Config;
  clock: Clock;
  throttle?: ThrottleLimits;
  commandTimings?: Partial<CommandTimings>;
  rollout?: Partial<RolloutSettings>;
  live?: Partial<LiveHubOptions>;
  /** Where the dashboards count succeeded OTA installs (default: the OTA commands). */
  otaUpgrades?: OtaUpgradeSource;
}

export interface DashboardStack {
  history: FleetHistory;
  locator: Locator;
}

export interface DeviceStack {
  gateway: DeviceGateway;
  commands: CommandService;
  /** Files panels download (OTA, APK, materials) from the file store's files area, as signed device-bound URLs. */
  downloads: DownloadService;
  /** The company enrollment secrets (the demo reads one through it). */
  enrollmentSecrets: DeviceService;
  /** The embedded broker's TCP port (after start), undefined with an external broker. */
  mqttPort: number | undefined;
  /** Checks a panel's own credentials (HTTP calls declared for panels). */
  verifyPanel(deviceKey: string, password: string): Promise<boolean>;
  /** What the device modules tell the gateway when a panel's right to connect changes. */
  access: DeviceAccessEvents;
  stop(): Promise<void>;
}

export interface OtaStack {
  uploads: UploadService;
  engine: RolloutEngine;
  files: OtaFileService;
  tasks: OtaTaskService;
  signer: FirmwareSigner;
  stop(): Promise<void>;
}

export interface Composition {
  devices: DeviceStack;
  /** The publish/subscribe seam: presence, command results, task progress, session ends. */
  events: EventBus;
  /** What a long-running task (an OTA rollout) calls to show its progress on the live console. */
  publishTaskProgress: PublishTaskProgress;
  dashboards: DashboardStack;
  live: LiveHub;
  /** Error tips and reminders (the OTA dispatch's reminder for a machine type, version and language). */
  tips: TipService;
  ota: OtaStack;
  serverLicense: ServerLicense;
}

/**
 * The composition root: the one place where repositories and services are built, handed to each
 * other and their routes registered, one block per area. Modules never construct each other;
 * what one needs of another arrives here as an object or a function. The HTTP plumbing (plugins,
 * error handling, guards) is registered before this runs (app.ts).
 */
export async function compose({
  http,
  db,
  config,
  clock,
  ...options
}: CompositionInput): Promise<Composition> {
  const kysely = db.kysely;
  const log = http.log;
  const operations = new OperationLog(kysely, clock.now);
  const operationLogIn = (trx: typeof kysely) => new OperationLog(trx, clock.now);
  const pepper = loadPepper(config.passwordPepper, config.dataDir);
  // Panels receive the firmware signing key's public half at enrollment (OTA manifests).
  const signer = FirmwareSigner.load(config.firmwareSigningKey, config.dataDir);
  const secureCookies = config.baseUrl.startsWith('https://');
  // Uploaded and served files: DATA_DIR, or an S3-compatible bucket that every instance reads.
  const fileStore = await openFileStore(config.files, config.dataDir);
  http.addHook('onClose', async () => fileStore.close());
  // Local work files (received, checked, hashed before they go into the store); never kept.
  const workDir = path.join(config.dataDir, 'tmp');

  // ---- users, organisations, sessions ----
  const hasher = new PasswordHasher(pepper);
  const users = new UserRepository(kysely);
  const organisations = new OrganisationRepository(kysely);
  // The one publish/subscribe seam (events/bus.ts): presence, command results, task progress, session ends.
  // Periodic jobs run on one instance at a time (a lease each in the database).
  const jobs = new JobLeases(new JobLeaseRepository(kysely), clock);
  // Several instances on one PostgreSQL database share it through LISTEN/NOTIFY.
  const events = await eventBus(db, config, log);
  if (events instanceof PostgresEventBus) http.addHook('preClose', () => events.stop());
  const publishTaskProgress = taskProgressPublisher(events, clock.now);
  const sessions = new SessionService(new SessionRepository(kysely), clock, secureCookies, (end) =>
    events.publish({ kind: 'sessionEnded', ...end }),
  );
  // First start, once for all instances: the shared secrets' checks, then the platform admin.
  await withStartUpLock(db, async () => {
    await verifyDeploymentSecrets(
      new DeploymentSecretRepository(kysely),
      { pepper: pepperFingerprint(pepper), firmwareSigningKey: signer.publicKeyBase64 },
      clock.now(),
    );
    await ensurePlatformAdmin({
      organisations,
      users,
      hasher,
      clock,
      log,
      adminPassword: config.adminPassword,
    });
  });

  // ---- device directory (panel credentials, needed by the router) ----
  const devices = new DeviceRepository(kysely);
  const directory = new DeviceDirectory(devices);

  // ---- router: every call's access enforced before its handler ----
  const router = createRouter(http, {
    authenticate: sessions.authenticate,
    verifyPanel: (key, password) => directory.verify(key, password),
    special: config.roleFlag === 1,
  });

  // ---- private deployment (server license) ----
  const serverLicense = new ServerLicense({
    identity: new ServerIdentityRepository(kysely),
    clock,
    log,
    platformUrl: config.platformUrl,
    reportIntervalMs: config.serverReportIntervalMs,
  });
  serverLicenseRoutes(router, serverLicense);
  serverLicense.startReporting();
  http.addHook('onClose', async () => serverLicense.stop());

  // ---- captcha, sign-in ----
  const captcha = new CaptchaService(new CaptchaRepository(kysely), clock, secureCookies);
  const throttle = new LoginThrottle(new ThrottleRepository(kysely), clock, options.throttle);
  const auth = new AuthService({
    users,
    hasher,
    captcha,
    throttle,
    sessions,
    clock,
    policy: {
      captcha: config.captcha,
      specialDeployment: config.roleFlag === 1,
      requireActiveDeployment: () => serverLicense.requireActive(),
    },
  });
  if (!config.captcha)
    log.warn('CAPTCHA=off: sign-in does not check a captcha; use this only for automated clients');
  captchaRoutes(router, captcha);
  authRoutes(router, { auth, sessions, users });
  const purgesHere = jobs.runsHere('session-purge', PURGE_EVERY_MS);
  const purge = setInterval(() => {
    void purgesHere()
      .then(async (mine) => {
        if (!mine) return;
        await sessions.purgeExpired().catch((err: unknown) => log.error({ err }, 'session purge failed'));
        await throttle
          .purgeExpired()
          .catch((err: unknown) => log.error({ err }, 'sign-in throttle purge failed'));
      })
      .catch((err: unknown) => log.error({ err }, 'session purge lease not taken'));
  }, PURGE_EVERY_MS);
  purge.unref();
  http.addHook('onClose', async () => clearInterval(purge));

  // ---- accounts: registration, activation, passwords, personal info, avatar ----
  const mailer = config.smtpUrl
    ? smtpMailer(config.smtpUrl)
    : outboxMailer(path.join(config.dataDir, 'outbox'), log);
  const tokens = new AccountTokens(new AccountTokenRepository(kysely), clock);
  const passwords = new PasswordService({
    users,
    tokens,
    hasher,
    mailer,
    sessions,
    log: operations,
    baseUrl: config.baseUrl,
  });
  const registration = new RegistrationService({
    repository: new RegistrationRepository(kysely),
    organisations,
    users,
    tokens,
    hasher,
    mailer,
    log: operations,
    clock,
    baseUrl: config.baseUrl,
  });
  registrationRoutes(router, registration);
  passwordRoutes(router, passwords);
  personalRoutes(router, new PersonalService({ users, log: operations }));
  avatarRoutes(router, new AvatarService({ users, log: operations, files: fileStore.within('avatars') }));

  // ---- customers and console users ----
  const customers = new CustomerService({
    repository: new CustomerRepository(kysely),
    sessions,
    passwords,
    log: operations,
    clock,
  });
  const consoleUsers = new ConsoleUserService({
    repository: new ConsoleUserRepository(kysely, db.dialect),
    users,
    hasher,
    sessions,
    passwords,
    log: operations,
    clock,
  });
  consoleUserRoutes(router, consoleUsers, customers);
  customerRoutes(router, customers);

  // ---- salespeople, licenses, private servers (platform) ----
  const licenses = new LicenseRepository(kysely);
  salespersonRoutes(
    router,
    new SalespersonService({ salespeople: new SalespersonRepository(kysely), log: operations, clock }),
  );
  licenseRoutes(router, new LicenseService({ licenses, log: operations, clock }));
  serverRegistryRoutes(
    router,
    new ServerRegistry({
      servers: new ServerRepository(kysely),
      licenses,
      organisations,
      clock,
      log: operations,
      reportIntervalMs: config.serverReportIntervalMs,
    }),
  );

  // ---- runtime config ----
  runtimeConfigRoutes(router, {
    serverLevel: config.serverLevel,
    roleFlag: config.roleFlag,
    title: config.title,
    netSpeedUrl: config.netSpeedUrl,
  });

  // ---- hardware catalog: signal sources and machine types ----
  const sources = new SourceRepository(kysely);
  const machineTypes = new MachineTypeRepository(kysely);
  const sourceService = new SourceService({
    repository: sources,
    organisations,
    log: operations,
    clock,
  });
  sourceRoutes(router, sourceService);
  machineTypeRoutes(
    router,
    new MachineTypeService({
      repository: machineTypes,
      sources,
      ownSources: sourceService,
      log: operations,
      clock,
    }),
  );

  // ---- device gateway: broker, presence, reports ----
  const broker = openBroker(config, http, directory);
  const gateway = new DeviceGateway(
    broker.transport,
    directory,
    devices,
    clock,
    log,
    new DeviceStateStore(kysely, db.dialect),
  );
  const access = deviceAccessEvents(
    gateway,
    broker.external,
    async (key) => {
      const found = await devices.credentialsForPanel(key);
      return found && found.state === 1;
    },
    log,
  );

  // ---- downloads (files panels fetch over signed URLs) ----
  const downloads = new DownloadService(
    fileStore.within('files'),
    UrlSigner.fromPepper(pepper),
    config.baseUrl,
    clock,
  );
  downloadRoutes(router, downloads);

  // ---- error tips and reminders (the feedback log's tips, the OTA order's reminder) ----
  const tips = new TipService({
    tips: new TipRepository(kysely),
    reminders: new ReminderRepository(kysely),
    log: operations,
    clock,
  });
  tipRoutes(router, tips);

  // ---- commands: delivery to panels ----
  const commandRecords = new CommandRepository(kysely, db.dialect);
  const commands = new CommandService(
    commandRecords,
    devices,
    gateway,
    clock,
    log,
    { ...DEFAULT_TIMINGS, ...options.commandTimings },
    {
      OTA: (stored, deviceKey) => otaEnvelopeValue(downloads, stored, deviceKey),
      NOTIFY: (stored, deviceKey) => noticeEnvelopeValue(downloads, stored, deviceKey),
      APK: (stored, deviceKey) => apkEnvelopeValue(downloads, stored, deviceKey),
      PROGRAM: (stored, deviceKey) => programEnvelopeValue(downloads, stored, deviceKey),
    },
  );
  gateway.setCommandSink(commands);

  // ---- devices: enrollment, list, edit ----
  const labels = new LabelRepository(kysely);
  const enrollmentSecrets = new EnrollmentRepository(kysely);
  const deviceService = new DeviceService(devices, enrollmentSecrets, clock);
  const listRepository = new DeviceListRepository(kysely, db.dialect);
  const orderIndex = new DeviceOrderIndex(listRepository, undefined, (err) =>
    log.error({ err }, 'device order index rebuild failed'),
  );
  deviceRoutes(router, {
    enrollment: new EnrollmentService(
      devices,
      enrollmentSecrets,
      clock,
      { mqttUrls: broker.mqttUrls, keepaliveSeconds: KEEPALIVE_SECONDS, firmwareKey: signer.publicKeyBase64 },
      access.credentialsChanged,
    ),
    devices: deviceService,
    list: new DeviceListService(listRepository, devices, orderIndex),
    edit: new DeviceEditService({
      clock,
      transact: transactor(kysely, (trx) => ({
        devices: new DeviceRepository(trx),
        labels: new LabelRepository(trx),
        log: operationLogIn(trx),
      })),
      onStateChanged: access.stateChanged,
    }),
    isOnline: gateway.isOnline,
  });

  // ---- resumable uploads (tus) and the rollout engine (OTA now; APK and programs reuse it) ----
  const logError = (err: unknown, message: string) => log.error({ err }, message);
  const uploads = new UploadService({
    dataDir: config.dataDir,
    limits: {
      firmware: config.uploadMaxFirmwareBytes,
      apk: config.uploadMaxApkBytes,
      video: materialsContract.VIDEO_MAX_BYTES,
    },
    repository: new UploadRepository(kysely),
    claims: new UploadClaims(kysely),
    clock,
    logError,
  });
  uploadRoutes(http, router, uploads);
  const rollouts = new RolloutRepository(kysely, db.dialect);
  const rolloutSettings = { ...DEFAULT_ROLLOUT_SETTINGS, ...config.rollout, ...options.rollout };
  const engine = new RolloutEngine({
    repository: rollouts,
    clock,
    settings: rolloutSettings,
    logError,
    // Task progress reaches open consoles through the live events.
    onProgress: (task, counts, finished) =>
      publishTaskProgress(task.org_id, {
        kind: task.kind,
        taskId: String(task.id),
        done: counts.succeeded + counts.skipped + counts.cancelled,
        failed: counts.failed,
        total: counts.total,
        finished,
      }),
    commands: {
      prepare: (orgId, userId, targets, order, value, ttlMs) =>
        commands.prepare(orgId, userId, targets, order, value, ttlMs),
      release: (rows, targets) => commands.release(rows, targets),
      insert: (rows, trx) => commandRecords.insertMany(rows, trx),
      cancel: (ids) => commandRecords.setStatusForPanels(ids, 'failed', 'cancelled', clock.now()),
      create: (orgId, userId, targets, order, value, ttlMs) =>
        commands.create(orgId, userId, targets, order, value, ttlMs),
      isReady: (key) => gateway.isReady(key),
    },
  });
  engine.setDeviceKeys((_orgId, ids) => devices.keysByIdsForPanels(ids));
  commands.onAck((_known, ack) => engine.acknowledge(ack));
  commands.onReady((known) => engine.deviceReady(known));

  // ---- OTA: files, descriptions, policies, versions, tasks, log ----
  const otaFileRecords = new OtaFileRepository(kysely);
  const otaRuleRecords = new OtaRuleRepository(kysely);
  engine.register(
    new OtaRolloutKind(otaFileRecords, otaRuleRecords, (machineType, version, language) =>
      tips.reminderFor(machineType, version, language),
    ),
  );
  const otaFiles = new OtaFileService({
    fileRecords: otaFileRecords,
    rollouts,
    uploads,
    signer,
    files: downloads.files,
    log: operations,
    clock,
  });
  const otaTasks = new OtaTaskService({
    rollouts,
    engine,
    files: otaFiles,
    fileRecords: otaFileRecords,
    labels,
    isOnline: gateway.isOnline,
    log: operations,
    clock,
  });
  otaRoutes(router, {
    files: otaFiles,
    rules: new OtaRuleService({ rules: otaRuleRecords, log: operations, clock }),
    versions: new OtaVersionService({
      versions: new OtaVersionRepository(kysely),
      files: otaFileRecords,
      log: operations,
      clock,
    }),
    tasks: otaTasks,
    signer,
    settings: rolloutSettings,
  });

  // ---- APK repository: cards, versions, auxiliary apps (files read and checked on upload), installs ----
  const apkRecords = new ApkRepository(kysely, db.dialect);
  engine.register(new ApkRolloutKind(apkRecords));
  const apkInstalls = new ApkInstallService({
    apks: apkRecords,
    rollouts,
    transact: transactor(kysely, (trx) => ({
      apks: new ApkRepository(trx, db.dialect),
      rollouts: new RolloutRepository(trx, db.dialect),
    })),
    engine,
    labelsOwned: (orgId, ids) => labels.ownedCount(orgId, ids),
    isOnline: gateway.isOnline,
    log: operations,
    clock,
  });
  apkRoutes(
    router,
    new ApkService({ apks: apkRecords, uploads, files: downloads.files, log: operations, clock }),
    apkInstalls,
  );
  uploads.startSweeping();
  engine.start();

  // ---- labels ----
  labelRoutes(router, {
    labels: new LabelService({
      labels,
      devices,
      clock,
      // The force-upgrade dialog lists only the panels an OTA file fits.
      deviceFit: (caller, filter) => otaFiles.deviceFit(caller, filter),
      transact: transactor(kysely, (trx) => ({
        labels: new LabelRepository(trx),
        devices: new DeviceRepository(trx),
        log: operationLogIn(trx),
      })),
    }),
    isOnline: gateway.isOnline,
  });

  // ---- device detail: detail, settings, apps ----
  const detail = new DeviceDetailService({
    devices,
    settings: new DeviceSettingsRepository(kysely),
    commands,
    log: operations,
    clock,
    isOnline: gateway.isOnline,
    machineTypeIdOf: async (name) => (await machineTypes.idsByNames([name])).get(name) ?? null,
  });
  gateway.addSettingsSink((known, report) => detail.recordReport(known.orgId, known.id, report));
  deviceDetailRoutes(router, detail);
  const apps = new DeviceAppsService({
    devices,
    apps: new DeviceAppsRepository(kysely),
    commands,
    commandRecords,
    log: operations,
    clock,
    isOnline: gateway.isOnline,
    upgrades: {
      newest: (orgId, names) => apkRecords.newestVersions(orgId, names),
      installing: (orgId, deviceId) => apkRecords.installingPackages(orgId, deviceId),
      install: async (caller, ip, deviceId, versionIds) =>
        (
          await apkInstalls.createTasks(
            caller,
            ip,
            versionIds.map((versionId) => ({
              versionId,
              deviceIds: [deviceId],
              labelIds: [],
              allowDowngrade: false,
            })),
          )
        ).map((t) => t.taskId),
    },
  });
  deviceAppsRoutes(router, apps);

  // ---- operator commands: to a device, to labels, power-on, feedback log ----
  commandRoutes(
    router,
    new OperatorCommandService({
      clock,
      commands,
      records: commandRecords,
      devices,
      labels,
      log: operations,
      transact: transactor(kysely, (trx) => ({
        requests: new CommandRequestRepository(trx),
        commands: new CommandRepository(trx, db.dialect),
        log: operationLogIn(trx),
      })),
      // The generic command call applies the rules of the dedicated UNINSTALL and SETTINGS calls.
      uninstall: apps,
      settings: detail,
    }),
    // Failed commands show the tip of the panel's error code in the operator's language.
    { describe: (codes, language) => tips.tipsFor(codes, language) },
  );

  // ---- reports, operation and abnormal logs ----
  reportRoutes(
    router,
    new ReportService(new ReportRepository(kysely, db.dialect, db.longReads), clock),
    clock,
  );
  logRoutes(
    router,
    new LogService({ repository: new LogRepository(kysely), clock, log: operations }),
    (deviceKey, report) => gateway.storeUploadedLog(deviceKey, report),
  );

  const deletesKeysHere = jobs.runsHere('idempotency-key-purge', KEY_PURGE_EVERY_MS);
  const expiredKeys = setInterval(() => {
    void deletesKeysHere()
      .then(async (mine) => {
        if (mine)
          await new CommandRequestRepository(kysely).deleteOlderThan(clock.now() - REQUEST_KEY_TTL_MS);
      })
      .catch((err: unknown) => log.error({ err }, 'expired idempotency keys not deleted'));
  }, KEY_PURGE_EVERY_MS);
  expiredKeys.unref();
  http.addHook('onClose', async () => clearInterval(expiredKeys));

  // ---- dashboards and the live console ----
  const scopes = new FleetScopes(new FleetScopeRepository(kysely));
  const presence = gateway.presenceIndex;
  gateway.setPresenceListener({
    changed: (known, online) =>
      events.publish({
        kind: 'live',
        orgId: known.orgId,
        event: { type: 'presence', deviceId: known.id, deviceKey: known.deviceKey, online, at: clock.now() },
        local: true,
      }),
    reset: (orgIds) => {
      for (const orgId of orgIds)
        events.publish({
          kind: 'live',
          orgId,
          event: { type: 'presenceReset', at: clock.now() },
          local: true,
        });
    },
  });
  commands.onSettled((settled) => {
    for (const c of settled)
      events.publish({
        kind: 'live',
        orgId: c.org_id,
        event: {
          type: 'command',
          commandId: c.id,
          deviceId: c.device_id,
          order: c.order_code,
          status: c.status,
          detail: c.detail,
          at: clock.now(),
        },
      });
  });
  const dashboardRecords = new DashboardRepository(kysely);
  const upgrades: OtaUpgradeSource = options.otaUpgrades ?? {
    succeededPerCompany: (from, to) => dashboardRecords.otaCommandsSucceededAllCompanies(from, to),
  };
  const history = new FleetHistory(
    dashboardRecords,
    (orgId) => presence.onlineIn(orgId),
    upgrades,
    clock,
    config.history,
    log,
    jobs.runsHere('dashboard-history', config.history.sampleMs),
  );
  const locator = new Locator(
    dashboardRecords,
    MapRegions.load(),
    new IpLocator(config.ipLocationDb, log),
    () => gateway.flushState(),
    log,
  );
  dashboardRoutes(
    router,
    new DashboardService(
      dashboardRecords,
      scopes,
      history,
      (orgId) => presence.onlineIn(orgId),
      gateway.isOnline,
      new HostStats(config.dataDir),
      clock,
    ),
  );
  gateway.setLocationSink((known) => locator.touched(known.id));
  history.start();
  const live = new LiveHub(events, sessions, clock, log, { ...DEFAULT_HUB_OPTIONS, ...options.live });
  liveRoutes(router, { hub: live, scopes, sessions });
  // Open event streams would keep the server from closing.
  http.addHook('preClose', async () => live.stop());
  http.addHook('onClose', async () => {
    locator.stop();
    await history.stop();
  });
  // ---- end of dashboards and the live console ----

  // ---- settings: saved templates and source settings pushed to panels as SETTINGS commands ----
  const settingsRepository = new SettingsRepository(kysely, db.dialect, clock.now);
  const savedSettings = new SettingsService({ repository: settingsRepository, devices, commands, clock });
  const pictureReports = new PictureReports({ repository: settingsRepository, clock });
  gateway.addSettingsSink((known, report) => pictureReports.record(known.orgId, known.id, report));
  settingsRoutes(router, savedSettings);

  // ---- certificate: the one a distributor's customers' panels trust, sent as CERTIFICATE commands ----
  const certificates = new CertificateRepository(kysely, clock.now);
  const certificate = new CertificateService({
    repository: certificates,
    commands,
    clock,
    isReady: gateway.isReady,
  });
  const certificateReports = new CertificateReports({ repository: certificates, commands, clock });
  gateway.addSettingsSink((known, report) => certificateReports.record(known, report));
  certificateRoutes(router, certificate);

  // ---- notifications, materials (audio, images, videos), programs and their approval, screen time ----
  const programRecords = new ProgramRepository(kysely);
  const materials = new MaterialService({
    repository: new MaterialRepository(kysely),
    log: operations,
    clock,
    files: downloads.files,
    workDir: path.join(workDir, 'materials'),
    inUse: (orgId, materialId) => programRecords.materialInUse(orgId, materialId),
    poster: { ffmpegPath: config.ffmpegPath, timeoutMs: 15_000 },
    logWarn: (message) => log.warn(message),
  });
  materialRoutes(router, materials, uploads);
  const programService = new ProgramService({
    repository: programRecords,
    materials,
    log: operations,
    clock,
  });
  const publishRecords = new PublishRepository(kysely);
  engine.register(new ProgramRolloutKind());
  const programProgress = new ProgramProgressRecorder({ repository: publishRecords, clock, logError });
  commands.onAck((known, ack) => programProgress.acknowledge(known, ack));
  programRoutes(
    router,
    programService,
    new PublishService({
      programs: programService,
      repository: publishRecords,
      playable: (orgId, id) => materials.playable(orgId, id),
      register: (file) => downloads.register(file),
      rollouts: { createTask: (task, waves) => rollouts.createTask(task, waves), wake: () => engine.wake() },
      engine,
      log: operations,
      clock,
    }),
    new ProgramZipService({ programs: programService, materials, log: operations, workDir }),
  );
  notificationRoutes(
    router,
    new NotificationService({
      repository: new NotificationRepository(kysely),
      labels,
      commands,
      materials,
      downloads,
      log: operations,
    }),
  );
  screenTimeRoutes(router, new ScreenTimeService(new ScreenTimeRepository(kysely)));
  healthRoutes(router, new HealthService(new HealthRepository(kysely), () => broker.transport.healthy()));

  // ---- start the device side ----
  await gateway.start();
  commands.start();
  log.info({ transport: gateway.description, mqttPort: broker.embedded?.port }, 'device gateway started');

  return {
    serverLicense,
    tips,
    events,
    publishTaskProgress,
    dashboards: { history, locator },
    live,
    ota: {
      uploads,
      engine,
      files: otaFiles,
      tasks: otaTasks,
      signer,
      async stop() {
        uploads.stop();
        await engine.stop();
        await programProgress.stop();
      },
    },
    devices: {
      gateway,
      commands,
      downloads,
      enrollmentSecrets: deviceService,
      mqttPort: broker.embedded?.port,
      verifyPanel: (key, password) => directory.verify(key, password),
      access,
      async stop() {
        // Bounded: publishes waiting on a broker that is gone must not keep the server from stopping.
        await bounded('command service stop', STOP_STEP_MS, log, () => commands.stop());
        await gateway.stop();
      },
    },
  };
}

/** The event bus: in process with SQLite (one instance); shared through LISTEN/NOTIFY on PostgreSQL. */
async function eventBus(db: Db, config: Config, log: FastifyBaseLogger): Promise<EventBus> {
  if (config.database.kind !== 'postgres') return new InProcessEventBus(log);
  const bus = new PostgresEventBus(config.database.url, db.schema ?? 'public', notifyThrough(db), log);
  await bus.start();
  return bus;
}
