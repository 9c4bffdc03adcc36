import { device } from '@panelfleet/contract';
import type { Updateable } from 'kysely';
import type { Clock } from '../clock.js';
import type { DevicesTable } from '../db/schema.js';
import type { DeviceRepository } from '../modules/devices/repository.js';
import { stateToColumns } from '../modules/devices/state-columns.js';
import { BatchWriter } from './batch-writer.js';
import type { DeviceDirectory, KnownDevice } from './device-directory.js';
import type { DeviceStateStore } from './state-store.js';
import type { DeviceTransport, GatewayLog } from './transport.js';

/** What the command service needs to hear from the gateway. */
export interface CommandSink {
  deviceReady(known: KnownDevice): void;
  acknowledge(known: KnownDevice, ack: device.CommandAck): void;
}

/** Where complete settings reports go (the device detail module stores them). */
export type SettingsSink = (known: KnownDevice, report: device.SettingsReport) => Promise<void>;

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
  private settingsSink: SettingsSink | undefined;
  private readonly stateWriter: BatchWriter<{ id: number; set: Updateable<DevicesTable> }>;

  constructor(
    private readonly transport: DeviceTransport,
    readonly directory: DeviceDirectory,
    private readonly devices: DeviceRepository,
    private readonly clock: Clock,
    private readonly log: GatewayLog,
    states: DeviceStateStore,
  ) {
    this.stateWriter = new BatchWriter(
      (items) => states.apply(mergeById(items)),
      (err, count) => this.log.error({ err, count }, 'device state batch failed'),
    );
  }

  setCommandSink(sink: CommandSink) {
    this.sink = sink;
  }

  setSettingsSink(sink: SettingsSink) {
    this.settingsSink = sink;
  }

  get description() {
    return this.transport.description;
  }

  async start() {
    await this.transport.start({
      presence: (key, online) => this.presence(key, online),
      ready: (key) => this.markReady(key),
      message: (key, kind, payload) => this.message(key, kind, payload),
    });
  }

  async stop() {
    await this.transport.close();
    await this.stateWriter.flush();
  }

  isOnline = (deviceKey: string) => this.online.has(deviceKey);
  /** Online and subscribed to its command topic. */
  isReady = (deviceKey: string) => this.ready.has(deviceKey);
  get onlineCount() {
    return this.online.size;
  }

  sendCommand(deviceKey: string, envelope: device.CommandEnvelope): Promise<void> {
    return this.transport.publishCommand(deviceKey, JSON.stringify(envelope));
  }

  /** Waits until every state report received so far is in the database. */
  flushState() {
    return this.stateWriter.flush();
  }

  private presence(deviceKey: string, online: boolean) {
    if (online) this.online.set(deviceKey, this.clock.now());
    else {
      this.online.delete(deviceKey);
      this.ready.delete(deviceKey);
    }
    this.withDevice(deviceKey, (known) => this.stateWriter.add({ id: known.id, set: { last_seen_at: this.clock.now() } }));
  }

  private markReady(deviceKey: string) {
    this.ready.add(deviceKey);
    if (!this.online.has(deviceKey)) this.online.set(deviceKey, this.clock.now());
    this.withDevice(deviceKey, (known) => this.sink?.deviceReady(known));
  }

  private message(deviceKey: string, kind: device.DevicePublishKind, payload: Buffer) {
    this.stats.received++;
    const limit = kind === 'log' ? device.MAX_LOG_PAYLOAD_BYTES : device.MAX_PAYLOAD_BYTES;
    if (payload.length > limit) return this.drop(deviceKey, kind, `payload of ${payload.length} bytes is over ${limit}`);
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return this.drop(deviceKey, kind, 'payload is not JSON');
    }
    const parsed = payloadSchemas[kind].safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.drop(deviceKey, kind, `payload does not fit the schema: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`);
    }
    this.withDevice(deviceKey, (known) => this.handle(known, kind, parsed.data));
  }

  private handle(known: KnownDevice, kind: device.DevicePublishKind, data: unknown) {
    const now = this.clock.now();
    const failed = (what: string) => (err: unknown) => this.log.error({ err, deviceKey: known.deviceKey }, `${what} not stored`);
    switch (kind) {
      case 'state':
        this.stateWriter.add({ id: known.id, set: { ...stateToColumns(data as device.StateReport), last_seen_at: now } });
        break;
      case 'apps':
        this.devices.replaceApps(known.id, known.orgId, (data as device.AppReport).apps).catch(failed('app list'));
        break;
      case 'usage': {
        const usage = data as device.AppUsageReport;
        this.devices
          .insertUsage(
            { org_id: known.orgId, device_id: known.id, from_at: usage.from, to_at: usage.to, screen_on_ms: usage.screenOnMs },
            usage.records.map((r) => ({ org_id: known.orgId, device_id: known.id, package_name: r.packageName, app_name: r.appName, started_at: r.startedAt, duration_ms: r.durationMs })),
          )
          .catch(failed('app usage'));
        break;
      }
      case 'log': {
        const log = data as device.AbnormalLog;
        this.devices
          .insertAbnormalLog({
            org_id: known.orgId, device_id: known.id, device_key: known.deviceKey, file_name: log.fileName, app_name: log.appName,
            model: log.model ?? '', occurred_at: log.occurredAt, upload_date: now, text: log.text,
          })
          .catch(failed('abnormal log'));
        break;
      }
      case 'ack': {
        const ack = data as device.CommandAck;
        if (ack.state) this.stateWriter.add({ id: known.id, set: { ...stateToColumns(ack.state), last_seen_at: now } });
        this.sink?.acknowledge(known, ack);
        break;
      }
      case 'settings':
        if (this.settingsSink) this.settingsSink(known, data as device.SettingsReport).catch(failed('settings'));
        else this.drop(known.deviceKey, kind, 'no settings store');
        break;
      case 'presence':
        break;
    }
  }

  private drop(deviceKey: string, kind: string, reason: string) {
    this.stats.dropped++;
    this.log.warn({ deviceKey, kind, reason }, 'device message dropped');
  }

  private withDevice(deviceKey: string, use: (known: KnownDevice) => void) {
    const cached = this.directory.cached(deviceKey);
    if (cached) return use(cached);
    this.directory.resolve(deviceKey).then(
      (known) => (known ? use(known) : this.drop(deviceKey, 'any', 'unknown device')),
      (err: unknown) => this.log.error({ err, deviceKey }, 'device lookup failed'),
    );
  }
}

/** Several reports of one panel within a batch become one UPDATE. */
function mergeById(items: Array<{ id: number; set: Updateable<DevicesTable> }>) {
  const merged = new Map<number, Updateable<DevicesTable>>();
  for (const item of items) merged.set(item.id, { ...merged.get(item.id), ...item.set });
  return [...merged].map(([id, set]) => ({ id, set }));
}
