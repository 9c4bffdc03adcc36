import { device } from '@panelfleet/contract';
import type { Clock } from '../clock.js';
import type { DeviceRepository } from '../modules/devices/repository.js';
import { stateToColumns } from '../modules/devices/state-columns.js';
import { isDatabaseUnavailable, isTransactionConflict, isWorthRetrying } from '../db/errors.js';
import { BatchWriter } from './batch-writer.js';
import { bounded } from './bounded.js';
import type { DeviceDirectory, KnownDevice } from './device-directory.js';
import { receiptsByPanel, type Stored } from './receipts.js';
import { ReportWriter } from './report-writer.js';
import type { DeviceStateStore } from './state-store.js';
import { PanelClocks } from './panel-clocks.js';
import { mergePanelStates, panelState, type PanelState, type PresenceReason } from './report-groups.js';
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
  play: device.playReport,
} as const;

/**
 * The device side of the server: presence in memory, reports validated and written (state in
 * batches), acknowledgements handed to the command service, commands published to panels, and
 * receipts for what was stored (protocol 5.9).
 */
export class DeviceGateway {
  readonly stats: GatewayStats = { received: 0, dropped: 0 };
  private online = new Map<string, number>();
  /** When each panel heard here went offline (its last-seen write is batched, so it lands later). */
  private wentOffline = new Map<string, number>();
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
  private readonly writes: ReportWriter;
  /** Each panel's boot and clock offset as this instance last wrote them (written again when they move). */
  private readonly clocks = new PanelClocks();

  constructor(
    private readonly transport: DeviceTransport,
    readonly directory: DeviceDirectory,
    private readonly devices: DeviceRepository,
    private readonly clock: Clock,
    private readonly log: GatewayLog,
    states: DeviceStateStore,
  ) {
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
    this.writes = new ReportWriter({
      devices,
      clock,
      log,
      overflowed: (count) => {
        this.stats.dropped += count;
        this.log.error(
          { count },
          'device reports: too many waiting for the database, the oldest were dropped',
        );
      },
      refused: (deviceKey, kind, reason) => this.drop(deviceKey, kind, reason),
      stored: (receipts) => this.confirmStored(receipts),
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
      presence: (key, online, reason) => this.presence(key, online, reason),
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
  /** The panels online here now. */
  onlineKeys = (): string[] => [...this.online.keys()];
  /** When this instance saw an offline panel go away (undefined: not since it started). */
  offlineSince = (deviceKey: string): number | undefined => this.wentOffline.get(deviceKey);
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
   * Tells panels what is now stored of what they sent (protocol 5.9), one receipt per panel: they
   * stop sending it again. A panel that did not subscribe to receipts gets none (the transport
   * knows); a receipt that is lost only makes the panel send the report again, which stores nothing twice.
   */
  confirmStored(stored: Stored[]) {
    for (const [deviceKey, receipts] of receiptsByPanel(stored))
      for (const receipt of receipts)
        this.transport
          .publishReceipt(deviceKey, JSON.stringify(receipt))
          .catch((err: unknown) => this.log.warn({ err, deviceKey }, 'receipt not published'));
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

  private presence(deviceKey: string, online: boolean, reason?: PresenceReason) {
    this.setOnline(deviceKey, online);
    const receivedAt = this.clock.now();
    const change = { online, reason: reason ?? (online ? 'connected' : 'disconnected') } as const;
    this.withDevice(deviceKey, (known) =>
      this.stateWriter.add(panelState(known.id, {}, { receivedAt, presence: change })),
    );
  }

  private markReady(deviceKey: string) {
    this.ready.add(deviceKey);
    this.setOnline(deviceKey, true);
    this.withDevice(deviceKey, (known) => this.sink?.deviceReady(known));
  }

  /** Presence in memory, the per-company index and the listener, told only of real changes. */
  private setOnline(deviceKey: string, online: boolean) {
    if (online) {
      this.wentOffline.delete(deviceKey);
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
    if (this.online.delete(deviceKey)) this.wentOffline.set(deviceKey, this.clock.now());
    this.ready.delete(deviceKey);
    const known = this.presenceIndex.remove(deviceKey);
    if (known) this.presenceListener?.changed(known, false);
  }

  private message(deviceKey: string, kind: device.DevicePublishKind, payload: Buffer) {
    this.stats.received++;
    // Before the device lookup, which may wait for the database: the server's time of the report.
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
          panelState(
            known.id,
            stateToColumns(report),
            this.clocks.timing(known.id, receivedAt, report.uptimeMs, report.ts),
          ),
        );
        if (carriesLocation(report)) this.locationSink?.(known);
        break;
      }
      case 'apps':
        this.writes.apps(known, data as device.AppReport);
        break;
      case 'usage':
        this.writes.usage(known, data as device.AppUsageReport);
        break;
      case 'play':
        this.writes.play(known, data as device.PlayReport);
        break;
      case 'log':
        this.writes.log(known, data as device.AbnormalLog);
        break;
      case 'ack': {
        const ack = data as device.CommandAck;
        if (ack.state) {
          this.stateWriter.add(
            panelState(
              known.id,
              stateToColumns(ack.state),
              this.clocks.timing(known.id, receivedAt, ack.uptimeMs),
            ),
          );
          if (carriesLocation(ack.state)) this.locationSink?.(known);
        }
        this.sink?.acknowledge(known, ack);
        break;
      }
      case 'settings':
        if (!this.settingsSinks.length) this.drop(known.deviceKey, kind, 'no settings store');
        for (const sink of this.settingsSinks)
          this.writes.settings(known, () => sink(known, data as device.SettingsReport));
        break;
      case 'presence':
        break;
    }
  }

  /**
   * A log a panel uploaded over HTTP (too large for one MQTT message), stored like one received
   * here: once per id. False when that id was stored before.
   */
  async storeUploadedLog(deviceKey: string, log: device.AbnormalLog): Promise<boolean> {
    const known = this.directory.cached(deviceKey) ?? (await this.directory.resolve(deviceKey));
    // The router checked the panel's credentials, so it is enrolled and enabled.
    if (!known) throw new Error(`panel ${deviceKey} passed authentication but is unknown`);
    return this.writes.insertLog(known, log);
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
      if (isDatabaseUnavailable(err)) this.writes.retry(`report of ${deviceKey}`, resolve);
      else this.log.error({ err, deviceKey }, 'device lookup failed');
    });
  }
}

/** A report that may move the panel on the map: its position or its public address. */
function carriesLocation(state: Partial<device.StateReport>) {
  return state.latitude !== undefined || state.longitude !== undefined || state.publicIp !== undefined;
}
