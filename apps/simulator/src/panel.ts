import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { device } from '@panelfleet/contract';
import mqtt, { ErrorWithSubackPacket, type MqttClient } from 'mqtt';
import { initialApps } from './apps.js';
import { execute } from './commands.js';
import { enroll } from './enrollment.js';
import { checkOta } from './ota.js';
import { Outbox } from './outbox.js';
import type { PanelOptions } from './options.js';
import type { PanelHost } from './panel-host.js';
import { initialState, macOf, type PanelFields } from './panel-state.js';
import { reportLog, sendHistory, telemetryTick, usageSince, type AbnormalLogFields } from './reports.js';
import { factorySettings, minuteOf, scheduledAction } from './settings.js';

export type { PanelPlace } from './panel-state.js';
export type { PanelOptions } from './options.js';

type Power = 'on' | 'off' | 'rebooting';

/**
 * One virtual panel that speaks docs/device-protocol.md: it enrolls once (retrying a busy server),
 * keeps its own credentials, obeys commands exactly once per id, reports its state, apps and
 * screen time, and sends final results, usage and logs again until the server confirms them.
 * What it does for each command is in commands.ts, ota.ts, apk-install.ts and program.ts; its
 * periodic reports in reports.ts; what it keeps for receipts in outbox.ts.
 */
export class SimulatedPanel implements PanelHost {
  readonly serial: string;
  readonly mac: string;
  power: Power = 'off';
  state: PanelFields;
  apps: device.InstalledApp[];
  /** Command ids already handled, with their result: a repeated delivery is acknowledged, not run again. */
  readonly handled = new Map<string, device.CommandAck>();
  /** Every command actually executed, in order. */
  readonly executed: device.CommandEnvelope[] = [];
  duplicates = 0;
  lastNotification: unknown;
  /** The panel's settings (spec 2 jsonData), reported on its settings topic. */
  settings: device.SettingsReport;
  /** The platform certificate it trusts (protocol 5.8), kept across reboots; its fingerprint is reported. */
  certificate: device.CertificateValue | undefined;
  /** OTA, APK and program downloads in progress by command id (OTA_CANCEL, APK_CANCEL and PROGRAM_STOP stop them). */
  readonly downloads = new Map<string, AbortController>();
  /** Test hook: the next OTA download arrives corrupted. */
  corruptNextOta = false;
  /** Test hook: the next APK install fails at installing with this reason (the installer's error). */
  failNextApk: string | undefined;
  /** Every APK install this panel refused or failed, with the reason it acknowledged. */
  readonly apkFailures: Array<{ id: string; detail: string }> = [];
  /** Every OTA this panel refused or failed, with the reason it acknowledged. */
  readonly otaFailures: Array<{ id: string; detail: string }> = [];
  /** Installs completed. */
  otaInstalls = 0;
  /** Reminders shown before OTA installs (protocol 6: the OTA order's `reminder`), newest last. */
  readonly shownReminders: Array<{ version: string; reminder: string }> = [];
  /** The program this panel plays (protocol 6.5), with the files it fetched and verified. */
  playing: PanelHost['playing'];
  /** When the program on screen ends (its play time). */
  playTimer: NodeJS.Timeout | undefined;
  /** Every program this panel could not play, with the reason it acknowledged. */
  readonly programFailures: Array<{ id: string; detail: string }> = [];
  /** PROGRAM command ids whose play time ran out (acknowledged `finished`), in order. */
  readonly finishedPrograms: string[] = [];
  /** PROGRAM command ids a PROGRAM_STOP ended while ready or playing. */
  readonly stoppedPrograms: string[] = [];
  /** Proof of play: every play report it made (protocol 5.11), in order. */
  readonly plays: device.PlayReport[] = [];
  /** What it sent and the server has not confirmed yet (protocol 5.9), kept across reboots. */
  readonly outbox: Outbox;
  private credentialsHeld: device.EnrollmentReply | undefined;
  private client: MqttClient | undefined;
  private telemetry: NodeJS.Timeout | undefined;
  private resender: NodeJS.Timeout | undefined;
  private usageSince: number;
  private stopped = new AbortController();
  /** The panel's own clock: auto power-on/off and energy saving run even while it is off. */
  private scheduler: NodeJS.Timeout | undefined;
  private scheduleFired: string | undefined;
  lastActivityAt: number;
  private clockOffsetMs: number;
  /** When the panel last booted, by the host's monotonic clock: its uptime counts from here. */
  private bootedAt = performance.now();
  private lastUptimeMs = -1;

  constructor(readonly options: PanelOptions) {
    this.clockOffsetMs = options.clockOffsetMs ?? 0;
    this.usageSince = this.now();
    this.lastActivityAt = this.now();
    this.serial = options.serial;
    this.mac = macOf(options.index);
    this.apps = initialApps(options.index);
    this.state = initialState(options.index, options.utcOffset, options.place);
    this.settings = factorySettings(this.state.machineType as device.Series);
    this.outbox = new Outbox({
      send: (kind, payload) => this.publish(kind, payload),
      now: () => performance.now(),
      log: (message) => options.log(`${this.serial}: ${message}`),
      ...(options.resendFirstMs !== undefined ? { resendFirstMs: options.resendFirstMs } : {}),
    });
  }

  /** The panel's own wall clock, which may be wrong (clockOffsetMs). */
  now() {
    return Date.now() + this.clockOffsetMs;
  }

  /** Test hook: the panel's wall clock is set (an NTP correction, a reset clock); its uptime runs on. */
  setClockOffset(offsetMs: number) {
    this.clockOffsetMs = offsetMs;
  }

  /** Milliseconds since the panel booted (protocol 5.1 `uptimeMs`), rising from report to report. */
  uptimeMs() {
    this.lastUptimeMs = Math.max(Math.floor(performance.now() - this.bootedAt), this.lastUptimeMs + 1);
    return this.lastUptimeMs;
  }

  get connected() {
    return this.client?.connected === true;
  }

  /** The credentials from enrollment; the panel's own modules use them for downloads. */
  credentials(): device.EnrollmentReply {
    if (!this.credentialsHeld) throw new Error(`${this.serial} is not enrolled`);
    return this.credentialsHeld;
  }

  private topic(kind: device.DevicePublishKind) {
    return device.deviceTopic(this.serial, kind);
  }

  async enroll() {
    this.credentialsHeld = await enroll({
      serverUrl: this.options.serverUrl,
      serial: this.serial,
      enrollmentSecret: this.options.enrollmentSecret,
      model: this.state.model,
      machineType: this.state.machineType,
      signal: this.stopped.signal,
      log: this.options.log,
      ...(this.options.enrollRetryFirstMs !== undefined
        ? { retryFirstMs: this.options.enrollRetryFirstMs }
        : {}),
    });
  }

  /** Powers on (a boot: its uptime starts again): connect, subscribe, announce presence, report everything. */
  async powerOn() {
    if (this.stopped.signal.aborted) return;
    if (!this.credentialsHeld) await this.enroll();
    const creds = this.credentials();
    if (this.power !== 'on') {
      this.bootedAt = performance.now();
      this.lastUptimeMs = -1;
    }
    this.power = 'on';
    const client = await mqtt.connectAsync(this.options.mqttUrl, {
      clientId: creds.clientId,
      username: creds.username,
      password: creds.password,
      keepalive: creds.keepaliveSeconds,
      clean: true,
      reconnectPeriod: 2000,
      // announce() subscribes after every connect and reads the SUBACK (are receipts granted?);
      // mqtt.js's own resubscription would answer that second SUBSCRIBE with nothing.
      resubscribe: false,
      will: {
        topic: this.topic('presence'),
        payload: Buffer.from(JSON.stringify({ v: 1, online: false })),
        qos: 1,
        retain: true,
      },
    });
    this.client = client;
    client.on('message', (topic, payload) => this.onMessage(topic, payload));
    // After a broker (or server) restart mqtt.js reconnects with a clean session: subscribe and announce again.
    client.on(
      'connect',
      () =>
        void this.announce(client).catch((err: unknown) =>
          this.options.log(`${this.serial}: ${String(err)}`),
        ),
    );
    await this.announce(client);
    this.telemetry = setInterval(() => telemetryTick(this), this.options.telemetryMs);
    this.telemetry.unref();
    this.resender = setInterval(
      () =>
        void this.outbox
          .resendDue()
          .catch((err: unknown) => this.options.log(`${this.serial}: resend: ${String(err)}`)),
      Math.min(1000, this.options.resendFirstMs ?? 1000),
    );
    this.resender.unref();
    this.scheduler ??= setInterval(() => this.followSchedule(new Date(this.now())), 10_000);
    this.scheduler.unref();
  }

  /** Acts on the power schedule and energy saving of the settings (called every few seconds). */
  followSchedule(at: Date) {
    const action = scheduledAction(
      this.settings.platformMsg.powerOnOffSetting,
      {
        running: this.power === 'on',
        screenOn: this.state.power === 'on',
        lastActivityAt: this.lastActivityAt,
      },
      at,
      this.scheduleFired,
    );
    if (!action) return;
    if (action !== 'standby') this.scheduleFired = minuteOf(at);
    const failed = (err: unknown) =>
      this.options.log(`${this.serial}: scheduled ${action} failed: ${String(err)}`);
    if (action === 'powerOff') void this.powerOff().catch(failed);
    else if (action === 'powerOn') void this.powerOn().catch(failed);
    else {
      this.state.power = 'standby';
      void this.reportState({ power: 'standby' }).catch(failed);
    }
  }

  /** Protocol 3: commands and receipts, presence, the full reports; then what waits for a receipt. */
  private async announce(client: MqttClient) {
    await client.subscribeAsync(device.commandTopic(this.serial), { qos: 1 });
    this.outbox.setConfirming(await this.subscribeToReceipts(client));
    await client.publishAsync(this.topic('presence'), JSON.stringify({ v: 1, online: true }), {
      qos: 1,
      retain: true,
    });
    await this.reportState(this.state);
    await this.publishApps();
    await this.publish('settings', this.settings);
    await this.outbox.resendAll();
  }

  /**
   * Whether the server confirms what it stores (protocol 5.9): the broker grants the receipt
   * subscription. A refusal (SUBACK 0x80) means a server or broker ACL from before receipts.
   */
  private async subscribeToReceipts(client: MqttClient): Promise<boolean> {
    try {
      const [granted] = await client.subscribeAsync(device.receiptTopic(this.serial), { qos: 0 });
      if (!granted) throw new Error('no answer to the receipt subscription');
      return granted.qos !== 128;
    } catch (err) {
      if (err instanceof ErrorWithSubackPacket) return false;
      throw err;
    }
  }

  /** Powers off (order 02 or shutdown): presence offline, connection closed, Wake-on-LAN armed. */
  async powerOff(next: Power = 'off') {
    this.power = next;
    if (this.telemetry) clearInterval(this.telemetry);
    if (this.resender) clearInterval(this.resender);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    if (client.connected)
      await client.publishAsync(this.topic('presence'), JSON.stringify({ v: 1, online: false }), {
        qos: 1,
        retain: true,
      });
    await client.endAsync();
  }

  async stop() {
    this.stopped.abort();
    if (this.scheduler) clearInterval(this.scheduler);
    if (this.playTimer) clearTimeout(this.playTimer);
    await this.powerOff();
  }

  /** Publishes on one of the panel's topics when connected (what must arrive is kept by the outbox). */
  async publish(kind: device.DevicePublishKind, payload: object) {
    if (this.client?.connected)
      await this.client.publishAsync(this.topic(kind), JSON.stringify(payload), {
        qos: device.PUBLISH_QOS[kind],
      });
  }

  /** A state report with the panel's wall clock (`ts`) and its uptime, which orders it (protocol 5.1). */
  reportState(fields: Partial<device.DeviceStateFields>) {
    return this.publish('state', { v: 1, ...fields, ts: this.now(), uptimeMs: this.uptimeMs() });
  }

  /** The app list, in numbered parts when it passes the message limit (protocol 5.2). */
  async publishApps() {
    for (const message of device.appReportMessages(this.apps, randomUUID()))
      await this.publish('apps', message);
  }

  /** Acknowledges a command; a final result is kept until a receipt names it (protocol 5.9). */
  ack(ack: device.CommandAck) {
    const sent = ack.state && ack.uptimeMs === undefined ? { ...ack, uptimeMs: this.uptimeMs() } : ack;
    this.handled.set(ack.id, sent);
    return this.sendAck(sent);
  }

  private sendAck(ack: device.CommandAck) {
    return device.isFinalAck(ack) ? this.outbox.send('ack', ack) : this.publish('ack', ack);
  }

  checkOta(ota: device.OtaValue): string | undefined {
    return checkOta(this.credentialsHeld?.firmwareKey?.publicKey, this.state, ota);
  }

  /**
   * The screen time since the last usage report, as a report with a new id (protocol 5.3), kept
   * until a receipt names it; answers the report and the promise of its first sending.
   */
  reportUsage(): { report: device.AppUsageReport; sent: Promise<void> } {
    const now = this.now();
    const report = usageSince(this, this.usageSince, now);
    this.usageSince = now;
    return { report, sent: this.outbox.send('usage', report) };
  }

  /** An abnormal log with a new id (protocol 5.4); answers the id. */
  reportLog(log: AbnormalLogFields): Promise<string> {
    return reportLog(this, log);
  }

  /** Sends the usage and abnormal logs of the last `days` days (idempotent ids: sent again, stored once). */
  sendHistory(days: number) {
    return sendHistory(this, days);
  }

  private onMessage(topic: string, payload: Buffer) {
    if (topic === device.receiptTopic(this.serial)) {
      const receipt = device.receipt.safeParse(safeJson(payload));
      if (receipt.success) this.outbox.confirm(receipt.data);
      else this.options.log(`${this.serial}: receipt dropped: ${receipt.error.message}`);
      return;
    }
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
      void this.sendAck(previous).catch((err: unknown) => this.options.log(`${this.serial}: ${String(err)}`));
      return;
    }
    // The time left counts from receipt (protocol 5.6): the panel's own wall clock may be wrong.
    const expired = cmd.ttlMs !== undefined ? cmd.ttlMs === 0 : cmd.expiresAt < this.now();
    if (expired) {
      void this.ack({ v: 1, id: cmd.id, result: 'failed', detail: 'expired' }).catch((err: unknown) =>
        this.options.log(`${this.serial}: ${String(err)}`),
      );
      return;
    }
    this.executed.push(cmd);
    if (['00', '01', '04', '07', '08', 'POWERUP'].includes(cmd.order)) this.lastActivityAt = this.now();
    void execute(this, cmd).catch((err: unknown) =>
      this.options.log(`${this.serial}: ${cmd.order} failed: ${String(err)}`),
    );
  }
}

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}
