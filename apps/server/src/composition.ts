import type { PanelHistoryJob, PanelHistoryService } from './modules/panel-history/index.js';
import type { FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { EventBus, PublishTaskProgress } from './events/bus.js';
import type { DeviceAccessEvents, DeviceGateway } from './gateway/index.js';
import type { ApiTokenLimits } from './modules/api-tokens/index.js';
import type { ThrottleLimits } from './modules/auth/index.js';
import type { AlertSettings, AlertStack } from './modules/alerts/index.js';
import type { CommandService, CommandTimings } from './modules/commands/index.js';
import type { DashboardStack, OtaUpgradeSource } from './modules/dashboards/index.js';
import type { DeviceService } from './modules/devices/index.js';
import type { DownloadService } from './modules/downloads/index.js';
import type { JobLeases } from './modules/jobs/index.js';
import type { LiveHub, LiveHubOptions } from './modules/live/index.js';
import type { OtaFileService, OtaTaskService } from './modules/ota/index.js';
import type { RolloutEngine, RolloutSettings } from './modules/rollouts/index.js';
import type { ServerLicense } from './modules/server-license/index.js';
import type { IdpCheckSummary } from './modules/sso/index.js';
import type { TipService } from './modules/tips/index.js';
import type { UploadService } from './modules/uploads/index.js';
import type { FirmwareSigner } from './security/firmware-signing.js';

// What the composition root is given and what it hands back to app.ts (the server's parts tests reach).

export type { DashboardStack };

export interface CompositionInput {
  http: FastifyInstance;
  db: Db;
  config: Config;
  clock: Clock;
  throttle?: ThrottleLimits;
  /** Calls per window of one API token (default 600 a minute). */
  apiTokenLimits?: ApiTokenLimits;
  commandTimings?: Partial<CommandTimings>;
  rollout?: Partial<RolloutSettings>;
  live?: Partial<LiveHubOptions>;
  /** Where the dashboards count succeeded OTA installs (default: the OTA commands). */
  otaUpgrades?: OtaUpgradeSource;
  /** Alert evaluation and mail timings (tests shorten them). */
  alerts?: Partial<AlertSettings>;
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

/** Single sign-on's check of the identity providers, run now (tests; a job runs it on its own). */
export interface SsoStack {
  checkProviders(): Promise<IdpCheckSummary>;
}

export interface Composition {
  devices: DeviceStack;
  sso: SsoStack;
  /** The periodic jobs' leases (released when the instance shuts down). */
  jobs: JobLeases;
  /** Alert evaluation and mail, run now (tests and benchmarks). */
  alerts: AlertStack;
  /** The publish/subscribe seam: presence, command results, task progress, session ends. */
  events: EventBus;
  /** What a long-running task (an OTA rollout) calls to show its progress on the live console. */
  publishTaskProgress: PublishTaskProgress;
  dashboards: DashboardStack;
  live: LiveHub;
  /** Each panel's history: its reads and its roll-up and retention job. */
  panelHistory: { service: PanelHistoryService; job: PanelHistoryJob };
  /** Error tips and reminders (the OTA dispatch's reminder for a machine type, version and language). */
  tips: TipService;
  ota: OtaStack;
  serverLicense: ServerLicense;
}
