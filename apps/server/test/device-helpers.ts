import { device } from '@panelfleet/contract';
import mqtt, { type MqttClient } from 'mqtt';
import { md5Hex } from '../src/security/passwords.js';
import { TestClient, type TestServer } from './harness.js';

/** Waits until `check` returns a value other than undefined/false; fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A signed-in customer administrator (type 4) of the seeded customer. */
export async function operatorClient(server: TestServer, userName = 'operator1', password = 'operator123') {
  const client = new TestClient(server.url);
  await client.get('/kaptcha/defaultKaptcha?date=1');
  const login = await client.post('/platform/login', {
    username: userName,
    password: md5Hex(password),
    tryCode: await server.captchaAnswer(client),
  });
  if (login.body.hhtStatus !== 'success') throw new Error(`sign-in failed: ${login.text}`);
  return client;
}

export async function enrollmentSecretOf(operator: TestClient) {
  const reply = device.getEnrollmentSecret.reply.parse(
    (await operator.get('/platform/device/enrollmentSecret')).body,
  );
  return reply.dataObject.enrollmentSecret;
}

/** Enrollment exactly as docs/device-protocol.md describes it: one JSON POST. */
export async function enroll(
  baseUrl: string,
  serial: string,
  enrollmentSecret: string,
): Promise<device.EnrollmentReply> {
  const response = await fetch(`${baseUrl}/device/enroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ v: 1, serial, enrollmentSecret, model: 'PF-86', machineType: 'x9_vn' }),
  });
  const body = (await response.json()) as unknown;
  return device.enroll.reply.parse(body).dataObject;
}

export interface BareDevice {
  client: MqttClient;
  commands: device.CommandEnvelope[];
  key: string;
  close(): Promise<void>;
}

/** A panel written from the protocol document only: will, subscribe, then presence. */
export async function connectBare(
  mqttUrl: string,
  creds: { deviceKey: string; password: string },
  options: { autoAck?: boolean } = {},
): Promise<BareDevice> {
  const key = creds.deviceKey;
  const client = await mqtt.connectAsync(mqttUrl, {
    clientId: key,
    username: key,
    password: creds.password,
    keepalive: 30,
    clean: true,
    reconnectPeriod: 0,
    will: {
      topic: `pf/v1/d/${key}/presence`,
      payload: Buffer.from(JSON.stringify({ v: 1, online: false })),
      qos: 1,
      retain: true,
    },
  });
  const commands: device.CommandEnvelope[] = [];
  client.on('message', (topic, payload) => {
    // Commands only: a test may subscribe the panel to its receipts too.
    if (topic !== device.commandTopic(key)) return;
    const cmd = device.commandEnvelope.parse(JSON.parse(payload.toString()));
    commands.push(cmd);
    // A panel that is closing acknowledges nothing (publishing then would reject).
    if (options.autoAck !== false && !client.disconnecting)
      void client.publishAsync(
        `pf/v1/d/${key}/ack`,
        JSON.stringify({ v: 1, id: cmd.id, result: 'succeeded' }),
        { qos: 1 },
      );
  });
  await client.subscribeAsync(`pf/v1/d/${key}/cmd`, { qos: 1 });
  await client.publishAsync(`pf/v1/d/${key}/presence`, JSON.stringify({ v: 1, online: true }), {
    qos: 1,
    retain: true,
  });
  return { client, commands, key, close: () => client.endAsync() };
}

export const fullState = (overrides: Partial<device.DeviceStateFields> = {}): device.StateReport => ({
  v: 1,
  publicIp: '203.0.113.7',
  localIp: '192.168.10.21',
  netmask: '255.255.255.0',
  mac: '02:00:00:aa:bb:01',
  model: 'PF-86',
  machineType: 'x9_vn',
  otaVersion: '1.4.2',
  latitude: 31.23,
  longitude: 121.47,
  ramTotal: 4_294_967_296,
  ramUsed: 1_073_741_824,
  apkCurrent: 0,
  apkTotal: 0,
  otaCurrent: 0,
  otaTotal: 0,
  netWorkIntensity: 100,
  netWorkState: 'ethernet',
  cpuTemperature: 48.5,
  brightness: 80,
  volume: 60,
  mute: false,
  source: 'home',
  power: 'on',
  ...overrides,
});

/** A complete settings report of an x9_vn panel. */
export const x9Settings = {
  v: 1,
  platform: 'x9_vn',
  platformMsg: {
    language: 'en_us',
    powerOnOffSetting: {
      autoPowerOn: false,
      powerOnTime: '00:00',
      powerOnWeek: '',
      autoPowerOff: false,
      powerOffTime: '00:00',
      powerOffWeek: '',
      energySaving: 30,
    },
    inputOutputSetting: {
      hdmiOutputResolution: '1920*1080',
      startingSource: 'homeScreen',
      newInputSource: true,
      cecAutoPowerOn: true,
      cecAutoPowerOff: false,
    },
    toolBar: { left: true, right: true, customizedIcon: 'windows', favoriteConnection: 'hdmi1' },
    cameraSetting: { defaultCamera: 'top', antiFlickering: 'auto' },
    bluelightFilter: { bluelightFilter: false, filterLevel: 12 },
    newlineExtension: {
      trucast: true,
      trucastSource: 'front',
      x10d: false,
      x10dSource: 'hdmi1',
      trucam: false,
      trucamSource: 'hdmi2',
      montage: false,
    },
  },
} satisfies device.SettingsReport;
