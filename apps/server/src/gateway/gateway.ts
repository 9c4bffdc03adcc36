import { device } from '@panelfleet/contract';
import type { Clock } from '../clock.js';
import type { DeviceRepository } from '../modules/devices/repository.js';
import { stateToColumns } from '../modules/devices/state-columns.js';
import { isDatabaseUnavailable, isTransactionConflict, isWorthRetrying } from '../db/errors.js';
import { BatchWriter } from './batch-writer.js';
import { bounded } from './bounded.js';
import { PendingWrites } from './pending-writes.js';
import type { DeviceDirectory, KnownDevice } from './device-directory.js';
import type { DeviceStateStore } from './state-store.js';
import { mergePanelStates, panelState, reportTime, type PanelState } from './report-groups.js';
import { PresenceIndex } from './presence-index.js';
import type { DeviceTransport, GatewayLog } from './transport.js';

/** What the command service needs to hear from the gateway. */
export interface CommandSink {
  deviceReady(known: KnownDevice): void;
  acknowledge(known: KnownDevice, ack: device.CommandAck): void;
}

/** Where complete settings reports go (the device detail, settings and certificate modules each keep their part). */
export type SettingsSink = (known: KnownDevice, report: device.SettingsReport) => Promise<void>;

/** Told when a panel's presence changes (after its device is resolved), and when all presence is forgotten. */
export interface PresenceListener {
  changed(known: KnownDevice, online: boolean): void;
  /** The broker connection was lost: every panel of these companies counts as offline until seen again. */
  reset(orgIds: number[]): void;
}

/** Told when a report carried a panel's position or public IP (the locator places it on the map). */
export type LocationSink = (known: KnownDevice) => void;

/** Longest wait for one step of the gateway's shutdown. */
export const STOP_STEP_MS = 5000;

export interface GatewayStats {
  received: number;
  dropped: number;
}

const payloadSchemas = {
  state: device.stateReport,
  apps: device.appReport,
  usage: device.appUsageReport,
  ack: device.commandAck,
  log: device.abnormalLog,
  presence: device.presence,
  settings: device.settingsReport,
} as const;

/**
 * The device side of the server: presence in memory, reports validated and written (state in
 * batches), acknowledgements handed to the command service, commands published to panels.
 */
export class DeviceGateway {
  readonly stats: GatewayStats = { received: 0, dropped: 0 };
  private online = new Map<string, number>();
  private ready = new Set<string>();
  private sink: CommandSink | undefined;
  private readonly settingsSinks: SettingsSink[] = [];
  private presenceListener: PresenceListener | undefined;
  private locationSink: LocationSink | undefined;
  /** Online panels by company (dashboards). */
  readonly presenceIndex = new PresenceIndex();
  /** One waiting state per panel: a newer report merges into it, so shedding never loses a panel's newest report first. */
  private readonly stateWriter: BatchWriter<PanelState>;
  /** Reports written one by one; they wait while the database is away. */
  private readonly writes: PendingWrites;
  /** The last app-report write of each panel (by device id) still running. */
  private readonly appWrites = new Map<number, Promise<unknown>>();

  constructor(
    private readonly transport: DeviceTransport,
    readonly directory: DeviceDirectory,
    private readonly devices: DeviceRepository,
    private readonly clock: Clock,
    private readonly log: GatewayLog,
    states: DeviceStateStore,
  ) {
    const dropped = (what: string) => (count: number) => {
      this.stats.dropped += count;
      this.log.error({ count }, `${what}: too many waiting for the database, the oldest were dropped`);
    };
    this.stateWriter = new BatchWriter(
      (items) => states.apply(items),
      (err, count) =>
        isDatabaseUnavailable(err)
          ? this.log.warn({ err, count }, 'database unavailable: device state waits')
          : isTransactionConflict(err)
            ? this.log.warn({ err, count }, 'device state met a conflicting write: tried again')
            : this.log.error({ err, count }, 'device state batch failed'),
      { retryWhen: isWorthRetrying, keyOf: (state) => state.id, merge: mergePanelStates },
      (count) => {
        this.stats.dropped += count;
        this.log.error(
          { count },
          'device state: too many panels waiting for the database, the longest waiting were dropped',
        );
      },
    );
    this.writes = new PendingWrites({
      retryWhen: isDatabaseUnavailable,
      onError: (err, what) =>
        isDatabaseUnavailable(err)
          ? this.log.warn({ err, what }, 'database unavailable: device reports wait')
          : this.log.error({ err, what }, 'device report not stored'),
      onDrop: dropped('device reports'),
    });
  }

  setCommandSink(sink: CommandSink) {
    this.sink = sink;
  }

  /** Adds a receiver of complete settings reports; every receiver gets every report. */
  addSettingsSink(sink: SettingsSink) {
    this.settingsSinks.push(sink);
  }

  setPresenceListener(listener: PresenceListener) {
    this.presenceListener = listener;
  }

  setLocationSink(sink: LocationSink) {
    this.locationSink = sink;
  }

  get description() {
    return this.transport.description;
  }

  async start() {
    await this.transport.start({
      presence: (key, online) => this.presence(key, online),
      ready: (key) => this.markReady(key),
      message: (key, kind, payload) => this.message(key, kind, payload),
      presenceLost: () => this.forgetPresence(),
    });
  }

  /** Each step bounded: a broker that went away never keeps the server from stopping. */
  async stop() {
    await bounded('broker connection close', STOP_STEP_MS, this.log, () => this.transport.close());
    await bounded('state flush', STOP_STEP_MS, this.log, () => this.stateWriter.flush());
    await bounded('report writes', STOP_STEP_MS, this.log, () => this.writes.settled());
    this.writes.stop();
  }

  isOnline = (deviceKey: string) => this.online.has(deviceKey);
  /** Online and subscribed to its command topic. */
  isReady = (deviceKey: string) => this.ready.has(deviceKey);
  get onlineCount() {
    return this.online.size;
  }

  /** Publishes a command with the time it has left by the server's clock (`ttlMs`, protocol 5.6). */
  sendCommand(deviceKey: string, envelope: device.CommandEnvelope): Promise<void> {
    const ttlMs = Math.max(0, envelope.expiresAt - this.clock.now());
    return this.transport.publishCommand(deviceKey, JSON.stringify({ ...envelope, ttlMs }));
  }

  /**
   * The panel may no longer connect (disabled, deleted, re-enrolled): its cached credentials go,
   * its connection ends, and what it still sends is dropped (the directory knows only enabled panels).
   */
  revoke(deviceKey: string) {
    this.directory.forget(deviceKey);
    this.transport.disconnect(deviceKey);
  }

  /** Waits until every state report received so far has been tried (written, or waiting for the database). */
  flushState() {
    return this.stateWriter.flush();
  }

  /** Reports received but not yet in the database (waiting for it or for their turn). */
  get waitingWrites() {
    return this.stateWriter.waiting + this.writes.waiting;
  }

  /** Every panel counts as offline until it is seen again (no database write: nothing is known). */
  private forgetPresence() {
    if (this.online.size)
      this.log.warn({ panels: this.online.size }, 'broker connection lost: presence is learnt again');
    this.online.clear();
    this.ready.clear();
    const orgs = this.presenceIndex.clear();
    if (orgs.length) this.presenceListener?.reset(orgs);
  }

  private presence(deviceKey: string, online: boolean) {
    this.setOnline(deviceKey, online);
    const now = this.clock.now();
    this.withDevice(deviceKey, (known) => this.stateWriter.add(panelState(known.id, {}, now, now)));
  }

  private markReady(deviceKey: string) {
    this.ready.add(deviceKey);
    this.setOnline(deviceKey, true);
    this.withDevice(deviceKey, (known) => this.sink?.deviceReady(known));
  }

  /** Presence in memory, the per-company index and the listener, told only of real changes. */
  private setOnline(deviceKey: string, online: boolean) {
    if (online) {
      if (!this.online.has(deviceKey)) this.online.set(deviceKey, this.clock.now());
      const cached = this.directory.cached(deviceKey);
      const counted = (known: KnownDevice) => {
        // Resolved later: it may have gone offline again meanwhile.
        if (this.online.has(deviceKey) && this.presenceIndex.add(known))
          this.presenceListener?.changed(known, true);
      };
      if (cached) counted(cached);
      else this.withDevice(deviceKey, counted);
      return;
    }
    this.online.delete(deviceKey);
    this.ready.delete(deviceKey);
    const known = this.presenceIndex.remove(deviceKey);
    if (known) this.presenceListener?.changed(known, false);
  }

  private message(deviceKey: string, kind: device.DevicePublishKind, payload: Buffer) {
    this.stats.received++;
    // Before the device lookup, which may wait for the database: what orders the panel's reports.
    const receivedAt = this.clock.now();
    const limit = kind === 'log' ? device.MAX_LOG_PAYLOAD_BYTES : device.MAX_PAYLOAD_BYTES;
    if (payload.length > limit)
      return this.drop(deviceKey, kind, `payload of ${payload.length} bytes is over ${limit}`);
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return this.drop(deviceKey, kind, 'payload is not JSON');
    }
    const parsed = payloadSchemas[kind].safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.drop(
        deviceKey,
        kind,
        `payload does not fit the schema: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`,
      );
    }
    this.withDevice(deviceKey, (known) => this.handle(known, kind, parsed.data, receivedAt));
  }

  private handle(known: KnownDevice, kind: device.DevicePublishKind, data: unknown, receivedAt: number) {
    switch (kind) {
      case 'state': {
        const report = data as device.StateReport;
        this.stateWriter.add(
          panelState(known.id, stateToColumns(report), reportTime(report.ts, receivedAt), receivedAt),
        );
        if (carriesLocation(report)) this.locationSink?.(known);
        break;
      }
      case 'apps':
        this.writes.add(`app list of ${known.deviceKey}`, () =>
          this.storeAppsInOrder(known, data as device.AppReport),
        );
        break;
      case 'usage': {
        const usage = data as device.AppUsageReport;
        this.writes.add(`usage of ${known.deviceKey}`, () =>
          this.devices.insertUsageForPanel(
            {
              org_id: known.orgId,
              device_id: known.id,
              from_at: usage.from,
              to_at: usage.to,
              screen_on_ms: usage.screenOnMs,
              report_id: usage.id,
            },
            usage.records.map((r) => ({
              org_id: known.orgId,
              device_id: known.id,
              package_name: r.packageName,
              app_name: r.appName,
              started_at: r.startedAt,
              duration_ms: r.durationMs,
            })),
          ),
        );
        break;
      }
      case 'log':
        this.writes.add(`abnormal log of ${known.deviceKey}`, () =>
          this.insertLog(known, data as device.AbnormalLog),
        );
        break;
      case 'ack': {
        const ack = data as device.CommandAck;
        if (ack.state) {
          this.stateWriter.add(panelState(known.id, stateToColumns(ack.state), receivedAt, receivedAt));
          if (carriesLocation(ack.state)) this.locationSink?.(known);
        }
        this.sink?.acknowledge(known, ack);
        break;
      }
      case 'settings':
        if (!this.settingsSinks.length) this.drop(known.deviceKey, kind, 'no settings store');
        for (const sink of this.settingsSinks)
          this.writes.add(`settings of ${known.deviceKey}`, () => sink(known, data as device.SettingsReport));
        break;
      case 'presence':
        break;
    }
  }

  /**
   * App reports of one panel are written in the order they arrived (writes of different panels
   * run side by side): a part that superseded an unfinished report must not be overtaken by
   * that report's late parts.
   */
  private storeAppsInOrder(known: KnownDevice, report: device.AppReport) {
    const previous = this.appWrites.get(known.id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.storeApps(known, report));
    this.appWrites.set(known.id, next);
    void next
      .finally(() => {
        if (this.appWrites.get(known.id) === next) this.appWrites.delete(known.id);
      })
      .catch(() => undefined);
    return next;
  }

  /** A whole app list replaces the one before; a part waits for the rest of its report (protocol 5.2). */
  private async storeApps(known: KnownDevice, report: device.AppReport) {
    if (report.parts === undefined || report.parts === 1)
      return this.devices.replaceAppsForPanel(known.id, known.orgId, report.apps);
    const outcome = await this.devices.storeAppReportPartForPanel(
      known.id,
      known.orgId,
      { id: report.id!, part: report.part!, parts: report.parts, apps: report.apps },
      this.clock.now(),
      device.MAX_REPORTED_APPS,
    );
    if (outcome === 'tooMany')
      this.drop(
        known.deviceKey,
        'apps',
        `report ${report.id} holds more than ${device.MAX_REPORTED_APPS} apps`,
      );
  }

  private insertLog(known: KnownDevice, log: device.AbnormalLog): Promise<boolean> {
    return this.devices.insertAbnormalLogForPanel({
      org_id: known.orgId,
      device_id: known.id,
      device_key: known.deviceKey,
      file_name: log.fileName,
      app_name: log.appName,
      model: log.model ?? '',
      occurred_at: log.occurredAt,
      upload_date: this.clock.now(),
      text: log.text,
      text_length: codePoints(log.text),
      report_id: log.id,
    });
  }

  /**
   * A log a panel uploaded over HTTP (too large for one MQTT message), stored like one received
   * here: once per id. False when that id was stored before.
   */
  async storeUploadedLog(deviceKey: string, log: device.AbnormalLog): Promise<boolean> {
    const known = this.directory.cached(deviceKey) ?? (await this.directory.resolve(deviceKey));
    // The router checked the panel's credentials, so it is enrolled and enabled.
    if (!known) throw new Error(`panel ${deviceKey} passed authentication but is unknown`);
    return this.insertLog(known, log);
  }

  private drop(deviceKey: string, kind: string, reason: string) {
    this.stats.dropped++;
    this.log.warn({ deviceKey, kind, reason }, 'device message dropped');
  }

  private withDevice(deviceKey: string, use: (known: KnownDevice) => void) {
    const cached = this.directory.cached(deviceKey);
    if (cached) return use(cached);
    const resolve = () =>
      this.directory
        .resolve(deviceKey)
        .then((known) => (known ? use(known) : this.drop(deviceKey, 'any', 'unknown or disabled device')));
    resolve().catch((err: unknown) => {
      if (isDatabaseUnavailable(err)) this.writes.add(`report of ${deviceKey}`, resolve);
      else this.log.error({ err, deviceKey }, 'device lookup failed');
    });
  }
}

/** A report that may move the panel on the map: its position or its public address. */
function carriesLocation(state: Partial<device.StateReport>) {
  return state.latitude !== undefined || state.longitude !== undefined || state.publicIp !== undefined;
}

/** Characters as SQL's length() and substr() count them (code points, not UTF-16 units). */
function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const p = text.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) n--;
    }
  }
  return n;
}
