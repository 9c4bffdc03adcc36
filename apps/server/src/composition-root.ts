import type { Composition, CompositionInput } from './composition.js';
import { openFoundation, type Foundation } from './foundation.js';
import { installGateway, openDeviceDirectory, stopDeviceSide, KEEPALIVE_SECONDS } from './gateway/index.js';
import { createRouter } from './http/router.js';
import { openAccountTokens } from './modules/account-tokens/index.js';
import { installAlerts } from './modules/alerts/index.js';
import { installApiTokens } from './modules/api-tokens/index.js';
import { installApk } from './modules/apk/index.js';
import { installAuth } from './modules/auth/index.js';
import { installAvatar } from './modules/avatar/index.js';
import { installCaptcha } from './modules/captcha/index.js';
import { installCertificate } from './modules/certificate/index.js';
import { installCommands, installOperatorCommands } from './modules/commands/index.js';
import { installConsoleUsers } from './modules/console-users/index.js';
import { installCustomers } from './modules/customers/index.js';
import { installDashboards } from './modules/dashboards/index.js';
import { installDeployment } from './modules/deployment/index.js';
import { installDeviceApps } from './modules/device-apps/index.js';
import { installDeviceDetail } from './modules/device-detail/index.js';
import { installDevices, openDeviceRecords } from './modules/devices/index.js';
import { installDownloads } from './modules/downloads/index.js';
import { openFleetScopes } from './modules/fleet-scope/index.js';
import { installHealth } from './modules/health/index.js';
import { installIdentity } from './modules/identity/index.js';
import { installLabels, labelRecords } from './modules/labels/index.js';
import { installLicenses } from './modules/licenses/index.js';
import { installLive } from './modules/live/index.js';
import { installLogs } from './modules/logs/index.js';
import { installMachineTypes } from './modules/machine-types/index.js';
import { openMailer } from './modules/mail/index.js';
import { installMaterials } from './modules/materials/index.js';
import { installNotifications, noticeEnvelope } from './modules/notifications/index.js';
import { openOrganisations } from './modules/organisations/index.js';
import { installOta } from './modules/ota/index.js';
import { installPanelHistory } from './modules/panel-history/index.js';
import { installPasswords } from './modules/password/index.js';
import { installPersonal } from './modules/personal/index.js';
import { installPrograms, openProgramRecords } from './modules/programs/index.js';
import { installRegistration } from './modules/registration/index.js';
import { installReports } from './modules/reports/index.js';
import { installRollouts } from './modules/rollouts/index.js';
import { installRuntimeConfig } from './modules/runtime-config/index.js';
import { installSalespeople } from './modules/salespeople/index.js';
import { installScreenTime } from './modules/screen-time/index.js';
import { installScreenshots } from './modules/screenshots/index.js';
import { installServerLicense } from './modules/server-license/index.js';
import { installServers } from './modules/servers/index.js';
import { installSessions } from './modules/session/index.js';
import { installSettings } from './modules/settings/index.js';
import { installSources } from './modules/sources/index.js';
import { installSso } from './modules/sso/index.js';
import { installTips } from './modules/tips/index.js';
import { installUploads } from './modules/uploads/index.js';
import { installUsers } from './modules/users/index.js';
import { installWebhooks } from './modules/webhooks/index.js';

/**
 * The composition root: the modules in the order they are installed and what each needs of the
 * others. Each module wires itself (modules/<name>/index.ts: its repositories, services, routes,
 * jobs and listeners) and returns what the others may use; the shared parts are the foundation
 * (foundation.ts). The HTTP plumbing (plugins, error handling, guards) is registered before this
 * runs (app.ts).
 */
export async function compose({
  http,
  db,
  config,
  clock,
  ...options
}: CompositionInput): Promise<Composition> {
  const base = await openFoundation({ http, db, config, clock });
  const { log } = base;

  // ---- users, organisations, sessions; the first start's checks ----
  const organisations = openOrganisations(base);
  const { users, ensurePlatformAdmin } = installUsers(base, { organisations });
  const sessions = installSessions(base);
  await installDeployment(base, { firstStart: ensurePlatformAdmin });

  // ---- the router: every call's access enforced before its handler (panels by the directory) ----
  const devices = openDeviceRecords(base);
  const directory = openDeviceDirectory(devices);
  const apiTokens = installApiTokens(base, { sessions, limits: options.apiTokenLimits });
  const router = createRouter(http, {
    authenticate: apiTokens.authenticate,
    tokenReach: apiTokens.tokenReach,
    verifyPanel: (key, password) => directory.verify(key, password),
    special: config.roleFlag === 1,
  });
  const f: Foundation = { ...base, router };
  apiTokens.routes(router);

  // ---- accounts and the platform ----
  const serverLicense = installServerLicense(f);
  const captcha = installCaptcha(f);
  const secondFactor = installIdentity(f, { sessions });
  const sso = installSso(f, { sessions, revokeApiTokens: apiTokens.revokeAllForUser });
  installAuth(f, {
    captcha,
    sessions,
    users,
    serverLicense,
    organisations,
    secondFactor,
    limits: options.throttle,
    passwordAllowed: sso.passwordAllowed,
  });
  const mailer = openMailer(f);
  const tokens = openAccountTokens(f);
  installRegistration(f, { organisations, users, tokens, mailer });
  const passwords = installPasswords(f, { users, tokens, mailer, sessions });
  installPersonal(f, { users });
  installAvatar(f, { users });
  const customers = installCustomers(f, { sessions, passwords });
  installConsoleUsers(f, { users, sessions, passwords, customers });
  installSalespeople(f);
  const licenses = installLicenses(f);
  installServers(f, { licenses, organisations });
  installRuntimeConfig(f);
  const sources = installSources(f, { organisations });
  const machineTypes = installMachineTypes(f, { sources });

  // ---- the device side: gateway, downloads, tips, command delivery, devices ----
  const { broker, gateway, access, presence } = installGateway(f, { devices, directory });
  const { isOnline } = gateway;
  const downloads = installDownloads(f);
  const tips = installTips(f);
  const { commands, records: commandRecords } = installCommands(f, {
    devices,
    gateway,
    downloads,
    notice: noticeEnvelope(downloads),
    timings: options.commandTimings,
  });
  const labels = labelRecords(f.kysely);
  const deviceService = installDevices(f, {
    devices,
    enrollment: {
      mqttUrls: broker.mqttUrls,
      keepaliveSeconds: KEEPALIVE_SECONDS,
      firmwareKey: f.signer.publicKeyBase64,
    },
    access,
    isOnline,
    labelsIn: labelRecords,
  });

  // ---- uploads, the rollout engine and its kinds (OTA, APK; programs below) ----
  const uploads = installUploads(f);
  const rollouts = installRollouts(f, {
    commands,
    commandRecords,
    devices,
    gateway,
    settings: options.rollout,
  });
  const { engine } = rollouts;
  const ota = installOta(f, { rollouts, uploads, downloads, tips, labels, isOnline });
  const apk = installApk(f, { rollouts, uploads, downloads, labels, isOnline });
  uploads.startSweeping();
  engine.start();

  // ---- labels, device detail and apps, operator commands, reports and logs ----
  installLabels(f, {
    labels,
    devices,
    deviceFit: (caller, filter) => ota.files.deviceFit(caller, filter),
    isOnline,
  });
  const detail = installDeviceDetail(f, { devices, commands, gateway, machineTypes });
  const apps = installDeviceApps(f, { devices, commands, commandRecords, isOnline, apk });
  installOperatorCommands(f, {
    commands,
    records: commandRecords,
    devices,
    labels,
    uninstall: apps,
    settings: detail,
    describe: (codes, language) => tips.tipsFor(codes, language),
  });
  installReports(f);
  const panelHistory = installPanelHistory(f, { devices });
  installLogs(f, { upload: (deviceKey, report) => gateway.storeUploadedLog(deviceKey, report) });

  // ---- the live console and the dashboards ----
  const scopes = openFleetScopes(f);
  const live = installLive(f, { gateway, commands, sessions, scopes, options: options.live });
  const dashboards = installDashboards(f, { gateway, scopes, otaUpgrades: options.otaUpgrades });

  // ---- settings, certificate, materials, programs, notifications, screen time, health ----
  installSettings(f, { devices, commands, gateway });
  installCertificate(f, { commands, gateway });
  const programRecords = openProgramRecords(f);
  const materials = installMaterials(f, {
    downloads,
    uploads,
    inUse: (orgId, materialId) => programRecords.materialInUse(orgId, materialId),
  });
  const programs = installPrograms(f, { records: programRecords, materials, downloads, commands, rollouts });
  installNotifications(f, { labels, commands, materials, downloads });
  installScreenTime(f);
  installScreenshots(f, { devices, commands, isOnline });
  installHealth(f, { transportHealthy: () => broker.transport.healthy() });
  const webhooks = installWebhooks(f, { mailer });
  const alerts = installAlerts(f, { scopes, presence: gateway, mailer, webhooks, settings: options.alerts });

  // ---- start the device side ----
  await presence.start();
  await gateway.start();
  commands.start();
  log.info({ transport: gateway.description, mqttPort: broker.embedded?.port }, 'device gateway started');

  return {
    jobs: f.jobs,
    sso,
    alerts,
    serverLicense,
    tips,
    events: f.events,
    publishTaskProgress: f.publishTaskProgress,
    dashboards,
    live,
    panelHistory,
    ota: {
      uploads,
      engine,
      files: ota.files,
      tasks: ota.tasks,
      signer: f.signer,
      async stop() {
        uploads.stop();
        await engine.stop();
        await programs.stop();
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
      stop: () => stopDeviceSide(log, commands, gateway, presence),
    },
  };
}
