import { device } from '@panelfleet/contract';
import mqtt, { type MqttClient } from 'mqtt';
import { initialApps } from './apps.js';
import { downloadVerified } from './download.js';
import { applySettings, factorySettings, minuteOf, scheduledAction } from './settings.js';
import { magicPacket } from './wake-on-lan.js';

export interface PanelOptions {
  serverUrl: string;
  mqttUrl: string;
  enrollmentSecret: string;
  serial: string;
  index: number;
  telemetryMs: number;
  restartDelayMs: number;
  /** Chance per telemetry tick of an abnormal log (0..1). */
  abnormalLogChance: number;
  /** Least time between two OTA progress reports (protocol: at most every 5 s). */
  progressMs?: number;
  sendMagicPacket(packet: Buffer): Promise<void>;
  log(message: string): void;
}

type Power = 'on' | 'off' | 'rebooting';

/**
 * One virtual panel that speaks docs/device-protocol.md: it enrolls once, keeps its own
 * credentials, obeys commands exactly once per id, reports its state, apps and screen time.
 */
export class SimulatedPanel {
  readonly serial: string;
  readonly mac: string;
  power: Power = 'off';
  state: device.DeviceStateFields;
  apps: device.InstalledApp[];
  /** Command ids already handled, with their result: a repeated delivery is acknowledged, not run again. */
  readonly handled = new Map<string, device.CommandAck>();
  /** Every command actually executed, in order. */
  readonly executed: device.CommandEnvelope[] = [];
  duplicates = 0;
  lastNotification: unknown;
  /** The panel's settings (spec 2 jsonData), reported on its settings topic. */
  settings: device.SettingsReport;
  private credentials: device.EnrollmentReply | undefined;
  private client: MqttClient | undefined;
  private telemetry: NodeJS.Timeout | undefined;
  private usageSince = Date.now();
  private stopped = false;
  /** The panel's own clock: auto power-on/off and energy saving run even while it is off. */
  private scheduler: NodeJS.Timeout | undefined;
  private scheduleFired: string | undefined;
  private lastActivityAt = Date.now();

  constructor(private readonly options: PanelOptions) {
    const i = options.index;
    this.serial = options.serial;
    this.mac = `02:50:46:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`;
    this.apps = initialApps(i);
    this.state = {
      publicIp: '203.0.113.10',
      localIp: `10.20.${(i >> 8) & 255}.${(i & 255) || 1}`,
      netmask: '255.255.0.0',
      mac: this.mac,
      model: i % 3 === 0 ? 'PF-75' : 'PF-86',
      machineType: ['x9_vn', 'oem', 'rs'][i % 3]!,
      otaVersion: '1.4.2',
      latitude: 31.2 + (i % 50) / 100,
      longitude: 121.4 + (i % 70) / 100,
      ramTotal: 4_294_967_296,
      ramUsed: 1_500_000_000 + (i % 10) * 50_000_000,
      apkCurrent: 0,
      apkTotal: 0,
      otaCurrent: 0,
      otaTotal: 0,
      netWorkIntensity: i % 4 === 0 ? 72 : 100,
      netWorkState: i % 4 === 0 ? 'wifi' : 'ethernet',
      cpuTemperature: 45,
      brightness: 80,
      volume: 60,
      mute: false,
      source: 'home',
      power: 'on',
    };
    this.settings = factorySettings(this.state.machineType as device.Series);
  }

  get connected() {
    return this.client?.connected === true;
  }

  private topic(kind: device.DevicePublishKind) {
    return device.deviceTopic(this.serial, kind);
  }

  async enroll() {
    const response = await fetch(`${this.options.serverUrl}/device/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ v: device.PROTOCOL_VERSION, serial: this.serial, enrollmentSecret: this.options.enrollmentSecret, model: this.state.model, machineType: this.state.machineType }),
    });
    const body = (await response.json()) as { hhtStatus?: string; hhtMsg?: string };
    if (body.hhtStatus !== 'success') throw new Error(`enrollment of ${this.serial} refused: ${body.hhtMsg ?? response.status}`);
    this.credentials = device.enroll.reply.parse(body).dataObject;
  }

  /** Powers on: connect, subscribe to commands, announce presence, report everything. */
  async powerOn() {
    if (this.stopped) return;
    if (!this.credentials) await this.enroll();
    const creds = this.credentials!;
    this.power = 'on';
    const client = await mqtt.connectAsync(this.options.mqttUrl, {
      clientId: creds.clientId,
      username: creds.username,
      password: creds.password,
      keepalive: creds.keepaliveSeconds,
      clean: true,
      reconnectPeriod: 2000,
      will: { topic: this.topic('presence'), payload: Buffer.from(JSON.stringify({ v: 1, online: false })), qos: 1, retain: true },
    });
    this.client = client;
    client.on('message', (_topic, payload) => this.onCommand(payload));
    // After a broker restart mqtt.js reconnects with a clean session: subscribe and announce again.
    client.on('connect', () => void this.announce(client).catch((err: unknown) => this.options.log(`${this.serial}: ${String(err)}`)));
    await this.announce(client);
    this.telemetry = setInterval(() => this.tick(), this.options.telemetryMs);
    this.telemetry.unref();
    this.scheduler ??= setInterval(() => this.followSchedule(new Date()), 10_000);
    this.scheduler.unref();
  }

  /** Acts on the power schedule and energy saving of the settings (called every few seconds). */
  followSchedule(at: Date) {
    const action = scheduledAction(
      this.settings.platformMsg.powerOnOffSetting,
      { running: this.power === 'on', screenOn: this.state.power === 'on', lastActivityAt: this.lastActivityAt },
      at,
      this.scheduleFired,
    );
    if (!action) return;
    if (action !== 'standby') this.scheduleFired = minuteOf(at);
    const failed = (err: unknown) => this.options.log(`${this.serial}: scheduled ${action} failed: ${String(err)}`);
    if (action === 'powerOff') void this.powerOff().catch(failed);
    else if (action === 'powerOn') void this.powerOn().catch(failed);
    else {
      this.state.power = 'standby';
      void this.publish('state', { v: 1, power: 'standby' }).catch(failed);
    }
  }

  private async announce(client: MqttClient) {
    await client.subscribeAsync(device.commandTopic(this.serial), { qos: 1 });
    await client.publishAsync(this.topic('presence'), JSON.stringify({ v: 1, online: true }), { qos: 1, retain: true });
    await this.publish('state', { v: 1, ...this.state, ts: Date.now() });
    await this.publish('apps', { v: 1, apps: this.apps });
    await this.publish('settings', this.settings);
  }

  /** Powers off (order 02 or shutdown): presence offline, connection closed, Wake-on-LAN armed. */
  async powerOff(next: Power = 'off') {
    this.power = next;
    if (this.telemetry) clearInterval(this.telemetry);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    if (client.connected) await client.publishAsync(this.topic('presence'), JSON.stringify({ v: 1, online: false }), { qos: 1, retain: true });
    await client.endAsync();
  }

  async stop() {
    this.stopped = true;
    if (this.scheduler) clearInterval(this.scheduler);
    await this.powerOff();
  }

  private async publish(kind: device.DevicePublishKind, payload: object) {
    if (this.client?.connected) await this.client.publishAsync(this.topic(kind), JSON.stringify(payload), { qos: device.PUBLISH_QOS[kind] });
  }

  private ack(ack: device.CommandAck) {
    this.handled.set(ack.id, ack);
    return this.publish('ack', ack);
  }

  private onCommand(payload: Buffer) {
    let cmd: device.CommandEnvelope;
    try {
      cmd = device.commandEnvelope.parse(JSON.parse(payload.toString('utf8')));
    } catch (err) {
      this.options.log(`${this.serial}: command dropped: ${String(err)}`);
      return;
    }
    const previous = this.handled.get(cmd.id);
    if (previous) {
      this.duplicates++;
      void this.publish('ack', previous);
      return;
    }
    if (cmd.expiresAt < Date.now()) {
      void this.ack({ v: 1, id: cmd.id, result: 'failed', detail: 'expired' });
      return;
    }
    this.executed.push(cmd);
    if (['00', '01', '04', '07', '08', 'POWERUP'].includes(cmd.order)) this.lastActivityAt = Date.now();
    void this.execute(cmd).catch((err: unknown) => this.options.log(`${this.serial}: ${cmd.order} failed: ${String(err)}`));
  }

  private async execute(cmd: device.CommandEnvelope) {
    const done = (detail?: string) => this.ack({ v: 1, id: cmd.id, result: 'succeeded', ...(detail ? { detail } : {}), state: this.changedState() });
    switch (cmd.order) {
      case '00':
        this.state.brightness = cmd.value as number;
        break;
      case '01':
        this.state.volume = cmd.value as number;
        break;
      case '04':
        this.state.source = cmd.value as string;
        break;
      case '07':
        this.state.mute = cmd.value as boolean;
        break;
      case '08':
        return this.virtualKey(cmd, cmd.value as device.VirtualKey);
      case '02':
        await done();
        return this.powerOff();
      case '03':
        await done();
        await this.powerOff('rebooting');
        setTimeout(() => void this.powerOn().catch((err: unknown) => this.options.log(`${this.serial}: restart failed: ${String(err)}`)), this.options.restartDelayMs).unref();
        return;
      case 'POWERUP':
        this.state.power = 'on';
        break;
      case 'WAKE': {
        const wake = cmd.value as { mac: string };
        await this.options.sendMagicPacket(magicPacket(wake.mac));
        break;
      }
      case 'NOTIFY':
        return this.showNotification(cmd.id, cmd.value as device.OrderValue<'NOTIFY'>);
      case 'SETTINGS': {
        const next = applySettings(this.settings, cmd.value as device.SettingsChange);
        if (!next) return this.ack({ v: 1, id: cmd.id, result: 'failed', detail: 'unsupported' });
        this.settings = next;
        await this.publish('settings', this.settings);
        break;
      }
      case 'UNINSTALL': {
        const names = (cmd.value as { packageNames: string[] }).packageNames;
        if (this.apps.some((a) => names.includes(a.packageName) && a.appLevel === 1)) {
          return this.ack({ v: 1, id: cmd.id, result: 'failed', detail: 'systemApp' });
        }
        this.apps = this.apps.filter((a) => !names.includes(a.packageName));
        await this.publish('apps', { v: 1, apps: this.apps });
        break;
      }
      case 'REPORT_APPS':
        await this.publish('apps', { v: 1, apps: this.apps });
        break;
      case 'OTA':
        return this.installOta(cmd.id, cmd.value as device.OtaValue);
    }
    return done();
  }

  /** What a command may have changed, carried by its acknowledgement. */
  private changedState(): NonNullable<device.CommandAck['state']> {
    return { brightness: this.state.brightness, volume: this.state.volume, mute: this.state.mute, source: this.state.source, power: this.state.power };
  }

  /**
   * A notification: shown at once, or, with a custom audio, after the audio is fetched (signed URL
   * with this panel's credentials, only from its own server) and verified; the acknowledgement
   * says what the screen did, with the SHA-256 of the audio it played.
   */
  private async showNotification(id: string, notice: device.OrderValue<'NOTIFY'>) {
    if (notice.audioUrl === undefined) {
      this.lastNotification = notice;
      return this.ack({ v: 1, id, result: 'succeeded', detail: notice.level === 0 ? `shown, alarm ${notice.audio ?? 1}` : 'shown' });
    }
    await this.ack({ v: 1, id, result: 'received' });
    if (new URL(notice.audioUrl).origin !== new URL(this.options.serverUrl).origin || !notice.audioSha256 || !notice.audioSize) {
      return this.ack({ v: 1, id, result: 'failed', detail: 'download' });
    }
    const creds = this.credentials!;
    const result = await downloadVerified({
      url: notice.audioUrl, size: notice.audioSize, sha256: notice.audioSha256, username: creds.username, password: creds.password, progress: () => undefined,
    });
    if (!result.ok) {
      this.options.log(`${this.serial}: notification audio failed: ${result.reason}`);
      return this.ack({ v: 1, id, result: 'failed', detail: result.detail });
    }
    this.lastNotification = notice;
    return this.ack({ v: 1, id, result: 'succeeded', detail: `shown, played audio ${notice.audioSha256}` });
  }

  /** OTA (protocol section 6): received, download with progress and resume, SHA-256, install, new version. */
  private async installOta(id: string, ota: device.OtaValue) {
    await this.ack({ v: 1, id, result: 'received' });
    const creds = this.credentials!;
    let reportedAt = 0;
    this.state.otaCurrent = 0;
    this.state.otaTotal = ota.size;
    await this.publish('state', { v: 1, otaCurrent: 0, otaTotal: ota.size });
    const result = await downloadVerified({
      url: ota.url, size: ota.size, sha256: ota.sha256, username: creds.username, password: creds.password,
      progress: (received, total) => {
        this.state.otaCurrent = received;
        if (Date.now() - reportedAt < (this.options.progressMs ?? 5000) || received === total) return;
        reportedAt = Date.now();
        void this.publish('state', { v: 1, otaCurrent: received, otaTotal: total }).catch((err: unknown) => this.options.log(`${this.serial}: progress: ${String(err)}`));
      },
    });
    if (!result.ok) {
      this.options.log(`${this.serial}: OTA ${ota.version} failed: ${result.reason}`);
      await this.publish('state', { v: 1, otaCurrent: this.state.otaCurrent, otaTotal: ota.size });
      return this.ack({ v: 1, id, result: 'failed', detail: result.detail });
    }
    this.state.otaVersion = ota.version;
    this.state.otaCurrent = ota.size;
    await this.publish('state', { v: 1, otaVersion: ota.version, otaCurrent: ota.size, otaTotal: ota.size });
    return this.ack({ v: 1, id, result: 'succeeded', ...(result.resumed ? { detail: `resumed ${result.resumed}x` } : {}) });
  }

  private async virtualKey(cmd: device.CommandEnvelope, key: device.VirtualKey) {
    // In energy-saving standby any key wakes the screen, the power key included.
    const waking = this.state.power === 'standby';
    if (waking) this.state.power = 'on';
    if (key === 'power' && !waking) {
      await this.ack({ v: 1, id: cmd.id, result: 'succeeded' });
      return this.powerOff();
    }
    if (key === 'volumeUp') this.state.volume = Math.min(100, this.state.volume + 5);
    if (key === 'volumeDown') this.state.volume = Math.max(0, this.state.volume - 5);
    if (key === 'mute') this.state.mute = !this.state.mute;
    if (key === 'home') this.state.source = 'home';
    await this.ack({ v: 1, id: cmd.id, result: 'succeeded', state: this.changedState() });
  }

  /** Periodic telemetry, screen time, and now and then an abnormal log. */
  private tick() {
    this.state.cpuTemperature = Math.round((42 + Math.random() * 12) * 10) / 10;
    this.state.ramUsed = Math.round(this.state.ramTotal * (0.3 + Math.random() * 0.3));
    void this.publish('state', { v: 1, cpuTemperature: this.state.cpuTemperature, ramUsed: this.state.ramUsed, ts: Date.now() });
    const now = Date.now();
    const span = Math.min(now - this.usageSince, 86_400_000);
    const userApps = this.apps.filter((a) => a.appLevel === 0);
    const app = userApps[Math.floor(Math.random() * userApps.length)];
    void this.publish('usage', {
      v: 1, from: this.usageSince, to: now, screenOnMs: span,
      records: app ? [{ packageName: app.packageName, appName: app.appName, startedAt: this.usageSince, durationMs: Math.floor(span * 0.8) }] : [],
    });
    this.usageSince = now;
    if (app && Math.random() < this.options.abnormalLogChance) {
      void this.publish('log', { v: 1, fileName: `anr-${now}.txt`, appName: app.appName, model: this.state.model, occurredAt: now, text: `ANR in ${app.packageName}\nReason: Input dispatching timed out` });
    }
  }
}
