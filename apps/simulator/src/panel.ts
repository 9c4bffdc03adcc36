import crypto, { randomUUID } from 'node:crypto';
import { compareVersions, device } from '@panelfleet/contract';
import { certificateFingerprint } from './certificate.js';
import mqtt, { type MqttClient } from 'mqtt';
import { initialApps } from './apps.js';
import { historyReports } from './history.js';
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
  /** How far the panel's own wall clock is off (a panel running 20 minutes fast: 1_200_000). */
  clockOffsetMs?: number;
  /** Share of OTA installs that fail after verifying (0..1): `--ota-fail-rate`. */
  otaFailRate?: number;
  /** Share of OTA downloads that arrive corrupted (a flipped byte; fails its SHA-256): `--ota-corrupt-rate`. */
  otaCorruptRate?: number;
  /** How long an OTA install keeps the panel offline before it is back with the new version. */
  installMs?: number;
  /**
   * How long one second of a program's play time lasts on this panel (default 1000): tests shorten
   * it so that a program's `finished` comes without waiting its whole play time.
   */
  playSecondMs?: number;
  /** Minutes east of UTC the panel reports (policies' time-zone windows). */
  utcOffset?: number;
  /** Where the panel is: a position it reports, or only a public address (no position reported). */
  place?: PanelPlace;
  sendMagicPacket(packet: Buffer): Promise<void>;
  log(message: string): void;
}

type Power = 'on' | 'off' | 'rebooting';

export type PanelPlace = { latitude: number; longitude: number } | { publicIp: string };

/**
 * One virtual panel that speaks docs/device-protocol.md: it enrolls once, keeps its own
 * credentials, obeys commands exactly once per id, reports its state, apps and screen time.
 */
export class SimulatedPanel {
  readonly serial: string;
  readonly mac: string;
  power: Power = 'off';
  /** What the panel reports; a panel without a position module has no latitude and longitude. */
  state: Omit<device.DeviceStateFields, 'latitude' | 'longitude'> &
    Partial<Pick<device.DeviceStateFields, 'latitude' | 'longitude'>>;
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
  private credentials: device.EnrollmentReply | undefined;
  /** OTA, APK and program downloads in progress by command id (OTA_CANCEL, APK_CANCEL and PROGRAM_STOP stop them). */
  private readonly downloads = new Map<string, AbortController>();
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
  /** The program this panel plays (protocol 6.5), with the files it fetched and verified. */
  playing:
    | { commandId: string; programId: number; revision: number; name: string; items: number; since: number }
    | undefined;
  /** Every program this panel could not play, with the reason it acknowledged. */
  readonly programFailures: Array<{ id: string; detail: string }> = [];
  /** PROGRAM command ids whose play time ran out (acknowledged `finished`), in order. */
  readonly finishedPrograms: string[] = [];
  /** PROGRAM command ids a PROGRAM_STOP ended while ready or playing. */
  readonly stoppedPrograms: string[] = [];
  /** When the program on screen ends (its play time). */
  private playTimer: NodeJS.Timeout | undefined;
  private client: MqttClient | undefined;
  private telemetry: NodeJS.Timeout | undefined;
  private usageSince: number;
  private stopped = false;
  /** The panel's own clock: auto power-on/off and energy saving run even while it is off. */
  private scheduler: NodeJS.Timeout | undefined;
  private scheduleFired: string | undefined;
  private lastActivityAt: number;

  constructor(private readonly options: PanelOptions) {
    this.usageSince = this.now();
    this.lastActivityAt = this.now();
    const i = options.index;
    this.serial = options.serial;
    this.mac = `02:50:46:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`;
    this.apps = initialApps(i);
    this.state = {
      publicIp: '203.0.113.10',
      localIp: `10.20.${(i >> 8) & 255}.${i & 255 || 1}`,
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
      utcOffset: options.utcOffset ?? 480,
    };
    const place = options.place;
    if (place && 'publicIp' in place) {
      // A panel without a position module: the server can only place it by its address.
      delete this.state.latitude;
      delete this.state.longitude;
      this.state.publicIp = place.publicIp;
    } else if (place) {
      this.state.latitude = place.latitude;
      this.state.longitude = place.longitude;
    }
    this.settings = factorySettings(this.state.machineType as device.Series);
  }

  /** The panel's own wall clock, which may be wrong (clockOffsetMs). */
  now() {
    return Date.now() + (this.options.clockOffsetMs ?? 0);
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
      body: JSON.stringify({
        v: device.PROTOCOL_VERSION,
        serial: this.serial,
        enrollmentSecret: this.options.enrollmentSecret,
        model: this.state.model,
        machineType: this.state.machineType,
      }),
    });
    const body = (await response.json()) as { hhtStatus?: string; hhtMsg?: string };
    if (body.hhtStatus !== 'success')
      throw new Error(`enrollment of ${this.serial} refused: ${body.hhtMsg ?? response.status}`);
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
      will: {
        topic: this.topic('presence'),
        payload: Buffer.from(JSON.stringify({ v: 1, online: false })),
        qos: 1,
        retain: true,
      },
    });
    this.client = client;
    client.on('message', (_topic, payload) => this.onCommand(payload));
    // After a broker restart mqtt.js reconnects with a clean session: subscribe and announce again.
    client.on(
      'connect',
      () =>
        void this.announce(client).catch((err: unknown) =>
          this.options.log(`${this.serial}: ${String(err)}`),
        ),
    );
    await this.announce(client);
    this.telemetry = setInterval(() => this.tick(), this.options.telemetryMs);
    this.telemetry.unref();
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
      void this.publish('state', { v: 1, power: 'standby' }).catch(failed);
    }
  }

  private async announce(client: MqttClient) {
    await client.subscribeAsync(device.commandTopic(this.serial), { qos: 1 });
    await client.publishAsync(this.topic('presence'), JSON.stringify({ v: 1, online: true }), {
      qos: 1,
      retain: true,
    });
    await this.publish('state', { v: 1, ...this.state, ts: this.now() });
    await this.publishApps();
    await this.publish('settings', this.settings);
  }

  /** Powers off (order 02 or shutdown): presence offline, connection closed, Wake-on-LAN armed. */
  async powerOff(next: Power = 'off') {
    this.power = next;
    if (this.telemetry) clearInterval(this.telemetry);
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
    this.stopped = true;
    if (this.scheduler) clearInterval(this.scheduler);
    if (this.playTimer) clearTimeout(this.playTimer);
    await this.powerOff();
  }

  private async publish(kind: device.DevicePublishKind, payload: object) {
    if (this.client?.connected)
      await this.client.publishAsync(this.topic(kind), JSON.stringify(payload), {
        qos: device.PUBLISH_QOS[kind],
      });
  }

  /** The app list, in numbered parts when it passes the message limit (protocol 5.2). */
  async publishApps() {
    for (const message of device.appReportMessages(this.apps, randomUUID()))
      await this.publish('apps', message);
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
    // The time left counts from receipt (protocol 5.6): the panel's own wall clock may be wrong.
    const expired = cmd.ttlMs !== undefined ? cmd.ttlMs === 0 : cmd.expiresAt < this.now();
    if (expired) {
      void this.ack({ v: 1, id: cmd.id, result: 'failed', detail: 'expired' });
      return;
    }
    this.executed.push(cmd);
    if (['00', '01', '04', '07', '08', 'POWERUP'].includes(cmd.order)) this.lastActivityAt = this.now();
    void this.execute(cmd).catch((err: unknown) =>
      this.options.log(`${this.serial}: ${cmd.order} failed: ${String(err)}`),
    );
  }

  private async execute(cmd: device.CommandEnvelope) {
    const done = (detail?: string) =>
      this.ack({
        v: 1,
        id: cmd.id,
        result: 'succeeded',
        ...(detail ? { detail } : {}),
        state: this.changedState(),
      });
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
        setTimeout(
          () =>
            void this.powerOn().catch((err: unknown) =>
              this.options.log(`${this.serial}: restart failed: ${String(err)}`),
            ),
          this.options.restartDelayMs,
        ).unref();
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
        await this.publishApps();
        break;
      }
      case 'REPORT_APPS':
        await this.publishApps();
        break;
      case 'OTA':
        return this.installOta(cmd.id, cmd.value as device.OtaValue);
      case 'APK':
        return this.installApk(cmd.id, cmd.value as device.ApkInstallValue);
      case 'PROGRAM':
        return this.playProgram(cmd.id, cmd.value as device.ProgramValue);
      case 'CERTIFICATE': {
        const value = cmd.value as device.CertificateValue;
        const sha256 = certificateFingerprint(value.pem);
        if (sha256 === undefined)
          return this.ack({ v: 1, id: cmd.id, result: 'failed', detail: 'unsupported' });
        if (sha256 !== value.sha256)
          return this.ack({ v: 1, id: cmd.id, result: 'failed', detail: 'checksum' });
        this.certificate = value;
        this.settings = { ...this.settings, certificateSha256: sha256 };
        await this.publish('settings', this.settings);
        break;
      }
      case 'PROGRAM_STOP': {
        const target = (cmd.value as { id: string }).id;
        const running = this.downloads.get(target);
        if (running) running.abort();
        else if (this.playing?.commandId === target) {
          this.stopPlaying();
          this.stoppedPrograms.push(target);
        } else return this.ack({ v: 1, id: cmd.id, result: 'failed', detail: 'notRunning' });
        break;
      }
      case 'OTA_CANCEL':
      case 'APK_CANCEL': {
        const running = this.downloads.get((cmd.value as { id: string }).id);
        if (!running) return this.ack({ v: 1, id: cmd.id, result: 'failed', detail: 'notRunning' });
        running.abort();
        break;
      }
    }
    return done();
  }

  /** What a command may have changed, carried by its acknowledgement. */
  private changedState(): NonNullable<device.CommandAck['state']> {
    return {
      brightness: this.state.brightness,
      volume: this.state.volume,
      mute: this.state.mute,
      source: this.state.source,
      power: this.state.power,
    };
  }

  /**
   * A notification: shown at once, or, with a custom audio, after the audio is fetched (signed URL
   * with this panel's credentials, only from its own server) and verified; the acknowledgement
   * says what the screen did, with the SHA-256 of the audio it played.
   */
  private async showNotification(id: string, notice: device.OrderValue<'NOTIFY'>) {
    if (notice.audioUrl === undefined) {
      this.lastNotification = notice;
      return this.ack({
        v: 1,
        id,
        result: 'succeeded',
        detail: notice.level === 0 ? `shown, alarm ${notice.audio ?? 1}` : 'shown',
      });
    }
    await this.ack({ v: 1, id, result: 'received' });
    if (
      new URL(notice.audioUrl).origin !== new URL(this.options.serverUrl).origin ||
      !notice.audioSha256 ||
      !notice.audioSize
    ) {
      return this.ack({ v: 1, id, result: 'failed', detail: 'download' });
    }
    const creds = this.credentials!;
    const result = await downloadVerified({
      url: notice.audioUrl,
      size: notice.audioSize,
      sha256: notice.audioSha256,
      username: creds.username,
      password: creds.password,
      progress: () => undefined,
    });
    if (!result.ok) {
      this.options.log(`${this.serial}: notification audio failed: ${result.reason}`);
      return this.ack({ v: 1, id, result: 'failed', detail: result.detail });
    }
    this.lastNotification = notice;
    return this.ack({ v: 1, id, result: 'succeeded', detail: `shown, played audio ${notice.audioSha256}` });
  }

  /**
   * Checks an OTA order as docs/device-protocol.md section 6.1 says, before downloading: the
   * manifest verifies with the key from enrollment, it names this image (size, SHA-256, version),
   * fits this machine type and current version, and is newer unless the task allows a downgrade.
   * The reason of the first failed check, or undefined.
   */
  checkOta(ota: device.OtaValue): string | undefined {
    const key = this.credentials?.firmwareKey?.publicKey;
    if (!key) return 'signature';
    const raw = Buffer.from(key, 'base64');
    let verified = false;
    try {
      const publicKey = crypto.createPublicKey({
        key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]),
        format: 'der',
        type: 'spki',
      });
      verified = crypto.verify(
        null,
        Buffer.from(ota.manifest, 'utf8'),
        publicKey,
        Buffer.from(ota.signature, 'base64'),
      );
    } catch {
      verified = false;
    }
    if (!verified) return 'signature';
    const parsed = device.firmwareManifest.safeParse(JSON.parse(ota.manifest));
    if (!parsed.success) return 'signature';
    const m = parsed.data;
    if (m.sha256 !== ota.sha256 || m.size !== ota.size || m.version !== ota.version) return 'signature';
    if (!m.machineTypes.includes(this.state.machineType)) return 'model';
    if (m.fromVersions.length && !m.fromVersions.includes(this.state.otaVersion)) return 'fromVersion';
    if (!ota.allowDowngrade && compareVersions(m.version, this.state.otaVersion) <= 0) return 'downgrade';
    return undefined;
  }

  /**
   * OTA (protocol section 6): check the signed manifest, download with progress and resume,
   * verify the SHA-256, install (offline for a while), come back with the new version.
   */
  private async installOta(id: string, ota: device.OtaValue) {
    const fail = async (detail: string) => {
      this.otaFailures.push({ id, detail });
      await this.ack({ v: 1, id, result: 'failed', detail });
    };
    const refused = this.checkOta(ota);
    if (refused) return fail(refused);
    // The reminder is shown before anything is installed; a virtual operator confirms it at once.
    if (ota.reminder) this.shownReminders.push({ version: ota.version, reminder: ota.reminder });
    await this.ack({
      v: 1,
      id,
      result: 'received',
      phase: 'downloading',
      ...(ota.reminder ? { detail: 'reminder shown' } : {}),
    });
    const creds = this.credentials!;
    let reportedAt = 0;
    this.state.otaCurrent = 0;
    this.state.otaTotal = ota.size;
    await this.publish('state', { v: 1, otaCurrent: 0, otaTotal: ota.size });
    const abort = new AbortController();
    this.downloads.set(id, abort);
    const corrupt = this.corruptNextOta || Math.random() < (this.options.otaCorruptRate ?? 0);
    this.corruptNextOta = false;
    const result = await downloadVerified({
      url: ota.url,
      size: ota.size,
      sha256: ota.sha256,
      username: creds.username,
      password: creds.password,
      signal: abort.signal,
      corrupt,
      ...(corrupt ? { maxAttempts: 1 } : {}),
      progress: (received, total) => {
        this.state.otaCurrent = received;
        if (this.now() - reportedAt < (this.options.progressMs ?? 5000) || received === total) return;
        reportedAt = this.now();
        void this.publish('state', { v: 1, otaCurrent: received, otaTotal: total }).catch((err: unknown) =>
          this.options.log(`${this.serial}: progress: ${String(err)}`),
        );
      },
    }).finally(() => this.downloads.delete(id));
    if (!result.ok) {
      this.options.log(`${this.serial}: OTA ${ota.version} failed: ${result.reason}`);
      await this.publish('state', { v: 1, otaCurrent: this.state.otaCurrent, otaTotal: ota.size });
      return fail(result.detail);
    }
    await this.ack({ v: 1, id, result: 'received', phase: 'verifying' });
    this.state.otaCurrent = ota.size;
    await this.publish('state', { v: 1, otaCurrent: ota.size, otaTotal: ota.size });
    if (Math.random() < (this.options.otaFailRate ?? 0)) return fail('install');
    await this.ack({ v: 1, id, result: 'received', phase: 'installing' });
    const installMs = this.options.installMs ?? 0;
    if (installMs > 0) {
      // Installing reboots the panel: offline for a while, back with the new version.
      await this.powerOff('rebooting');
      await new Promise((resolve) => setTimeout(resolve, installMs));
      this.state.otaVersion = ota.version;
      this.otaInstalls++;
      await this.powerOn();
    } else {
      this.state.otaVersion = ota.version;
      this.otaInstalls++;
      await this.publish('state', {
        v: 1,
        otaVersion: ota.version,
        otaCurrent: ota.size,
        otaTotal: ota.size,
      });
    }
    return this.ack({
      v: 1,
      id,
      result: 'succeeded',
      ...(result.resumed ? { detail: `resumed ${result.resumed}x` } : {}),
    });
  }

  /**
   * A published program (protocol section 6.5): fetch every media file with resume, verify each
   * SHA-256, report the share fetched, then play: `installing` (ready) and `succeeded` (playing).
   * PROGRAM_STOP stops the download (`failed` with `cancelled`) or the playing; when the play time
   * is over the panel acknowledges the command again with `finished`.
   */
  private async playProgram(id: string, program: device.ProgramValue) {
    const fail = async (detail: string) => {
      this.programFailures.push({ id, detail });
      await this.ack({ v: 1, id, result: 'failed', detail });
    };
    const media = program.items.flatMap((item) => (item.type === 'web' ? [] : [item]));
    const total = media.reduce((sum, item) => sum + item.size, 0);
    await this.ack({ v: 1, id, result: 'received', phase: 'downloading', progress: 0 });
    const creds = this.credentials!;
    const abort = new AbortController();
    this.downloads.set(id, abort);
    try {
      let done = 0;
      let reportedAt = this.now();
      for (const item of media) {
        const result = await downloadVerified({
          url: item.url,
          size: item.size,
          sha256: item.sha256,
          username: creds.username,
          password: creds.password,
          signal: abort.signal,
          progress: (received) => {
            if (this.now() - reportedAt < (this.options.progressMs ?? 5000)) return;
            reportedAt = this.now();
            const progress = Math.floor(((done + received) * 100) / Math.max(total, 1));
            void this.ack({ v: 1, id, result: 'received', phase: 'downloading', progress }).catch(
              (err: unknown) => this.options.log(`${this.serial}: progress: ${String(err)}`),
            );
          },
        });
        if (!result.ok) {
          this.options.log(`${this.serial}: program ${program.name} failed: ${result.reason}`);
          return await fail(result.detail);
        }
        done += item.size;
        await this.ack({
          v: 1,
          id,
          result: 'received',
          phase: 'downloading',
          progress: Math.floor((done * 100) / Math.max(total, 1)),
        });
      }
      if (abort.signal.aborted) return await fail('cancelled');
      await this.ack({ v: 1, id, result: 'received', phase: 'verifying' });
      await this.ack({ v: 1, id, result: 'received', phase: 'installing' });
      if (abort.signal.aborted) return await fail('cancelled');
    } finally {
      this.downloads.delete(id);
    }
    // Another program on screen ends here: its run is over.
    const before = this.playing;
    this.stopPlaying();
    if (before) {
      this.finishedPrograms.push(before.commandId);
      await this.ack({ v: 1, id: before.commandId, result: 'succeeded', detail: 'finished' });
    }
    this.playing = {
      commandId: id,
      programId: program.programId,
      revision: program.revision,
      name: program.name,
      items: program.items.length,
      since: this.now(),
    };
    this.playTimer = setTimeout(
      () => {
        if (this.playing?.commandId !== id) return;
        this.stopPlaying();
        this.finishedPrograms.push(id);
        void this.ack({ v: 1, id, result: 'succeeded', detail: 'finished' }).catch((err: unknown) =>
          this.options.log(`${this.serial}: finished: ${String(err)}`),
        );
      },
      program.playTime * (this.options.playSecondMs ?? 1000),
    );
    this.playTimer.unref();
    return this.ack({ v: 1, id, result: 'succeeded', detail: 'playing' });
  }

  /** Back to what the panel showed before the program. */
  private stopPlaying() {
    if (this.playTimer) clearTimeout(this.playTimer);
    this.playTimer = undefined;
    this.playing = undefined;
  }

  /**
   * APK install or update (protocol section 6.4): refuse another signer or an older versionCode
   * than the installed one (as Android's package manager does), download with progress
   * (apkCurrent/apkTotal) and resume, verify the SHA-256, install, report the new app list.
   */
  private async installApk(id: string, app: device.ApkInstallValue) {
    const fail = async (detail: string) => {
      this.apkFailures.push({ id, detail });
      await this.ack({ v: 1, id, result: 'failed', detail });
    };
    // Android keeps each installed package's versionCode and signer; the app list reports both.
    const installed = this.apps.find((a) => a.packageName === app.packageName);
    if (installed?.signerSha256 && installed.signerSha256 !== app.signerSha256) return fail('signature');
    if (
      installed?.versionCode !== undefined &&
      installed.versionCode > app.versionCode &&
      !app.allowDowngrade
    )
      return fail('downgrade');
    await this.ack({ v: 1, id, result: 'received', phase: 'downloading' });
    const creds = this.credentials!;
    let reportedAt = 0;
    this.state.apkCurrent = 0;
    this.state.apkTotal = app.size;
    await this.publish('state', { v: 1, apkCurrent: 0, apkTotal: app.size });
    const abort = new AbortController();
    this.downloads.set(id, abort);
    const result = await downloadVerified({
      url: app.url,
      size: app.size,
      sha256: app.sha256,
      username: creds.username,
      password: creds.password,
      signal: abort.signal,
      progress: (received, total) => {
        this.state.apkCurrent = received;
        if (this.now() - reportedAt < (this.options.progressMs ?? 5000) || received === total) return;
        reportedAt = this.now();
        void this.publish('state', { v: 1, apkCurrent: received, apkTotal: total }).catch((err: unknown) =>
          this.options.log(`${this.serial}: progress: ${String(err)}`),
        );
      },
    }).finally(() => this.downloads.delete(id));
    if (!result.ok) {
      this.options.log(`${this.serial}: APK ${app.packageName} failed: ${result.reason}`);
      await this.publish('state', { v: 1, apkCurrent: this.state.apkCurrent, apkTotal: app.size });
      return fail(result.detail);
    }
    await this.ack({ v: 1, id, result: 'received', phase: 'verifying' });
    this.state.apkCurrent = app.size;
    await this.publish('state', { v: 1, apkCurrent: app.size, apkTotal: app.size });
    await this.ack({ v: 1, id, result: 'received', phase: 'installing' });
    const told = this.failNextApk;
    this.failNextApk = undefined;
    if (told) return fail(told);
    const entry: device.InstalledApp = {
      appName: app.label || app.packageName,
      packageName: app.packageName,
      versionName: app.versionName,
      appSize: app.size,
      appLevel: 0,
      versionCode: app.versionCode,
      signerSha256: app.signerSha256,
    };
    const at = this.apps.findIndex((a) => a.packageName === app.packageName);
    this.apps = at < 0 ? [...this.apps, entry] : this.apps.map((a, i) => (i === at ? entry : a));
    await this.publishApps();
    return this.ack({ v: 1, id, result: 'succeeded' });
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

  /**
   * An abnormal log (protocol 5.4) with a new id: over MQTT while its payload fits 256 KiB,
   * otherwise uploaded whole over HTTP with the panel's credentials. Answers the id.
   */
  async reportLog(log: {
    fileName: string;
    appName: string;
    occurredAt: number;
    text: string;
  }): Promise<string> {
    const payload = { v: 1 as const, id: randomUUID(), model: this.state.model, ...log };
    const json = JSON.stringify(payload);
    if (Buffer.byteLength(json) <= device.MAX_LOG_PAYLOAD_BYTES) {
      await this.publish('log', payload);
      return payload.id;
    }
    const creds = this.credentials!;
    const response = await fetch(`${this.options.serverUrl}/device/abnormalLog`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
      },
      body: json,
    });
    if (!response.ok) throw new Error(`log upload refused: ${response.status} ${await response.text()}`);
    return payload.id;
  }

  /** Sends the usage and abnormal logs of the last `days` days (idempotent ids: sent again, stored once). */
  async sendHistory(days: number) {
    const { usage, logs } = historyReports(this.serial, this.state.model, this.apps, days, this.now());
    for (const report of usage) await this.publish('usage', report);
    for (const log of logs) await this.publish('log', log);
  }

  /** Reminders shown before OTA installs (protocol 6: the OTA order's `reminder`), newest last. */
  readonly shownReminders: Array<{ version: string; reminder: string }> = [];

  /** Periodic telemetry, screen time, and now and then an abnormal log. */
  private tick() {
    this.state.cpuTemperature = Math.round((42 + Math.random() * 12) * 10) / 10;
    this.state.ramUsed = Math.round(this.state.ramTotal * (0.3 + Math.random() * 0.3));
    void this.publish('state', {
      v: 1,
      cpuTemperature: this.state.cpuTemperature,
      ramUsed: this.state.ramUsed,
      ts: this.now(),
    });
    const now = this.now();
    const span = Math.min(now - this.usageSince, 86_400_000);
    const userApps = this.apps.filter((a) => a.appLevel === 0);
    const app = userApps[Math.floor(Math.random() * userApps.length)];
    void this.publish('usage', {
      v: 1,
      id: randomUUID(),
      from: this.usageSince,
      to: now,
      screenOnMs: span,
      records: app
        ? [
            {
              packageName: app.packageName,
              appName: app.appName,
              startedAt: this.usageSince,
              durationMs: Math.floor(span * 0.8),
            },
          ]
        : [],
    });
    this.usageSince = now;
    if (app && Math.random() < this.options.abnormalLogChance) {
      void this.reportLog({
        fileName: `anr-${now}.txt`,
        appName: app.appName,
        occurredAt: now,
        text: `ANR in ${app.packageName}\nReason: Input dispatching timed out`,
      }).catch((err: unknown) => this.options.log(`${this.serial}: abnormal log not sent: ${String(err)}`));
    }
  }
}
