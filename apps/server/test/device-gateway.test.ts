import { device } from '@panelfleet/contract';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  fullState,
  operatorClient,
  waitFor,
} from './device-helpers.js';

describe.each(backends)('device gateway on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let secret: string;
  let mqttUrl: string;

  const deviceRow = async (key: string) => {
    const list = device.listDevices.reply.parse(
      (await operator.get(`/platform/device/list?start=1&size=100&deviceName=${key}`)).body,
    );
    return list.listObject.find((d) => d.deviceKey === key);
  };
  const commandStatus = async (id: string) =>
    (
      await server.app.db.kysely
        .selectFrom('commands')
        .select(['status', 'detail'])
        .where('id', '=', id)
        .executeTakeFirst()
    )?.status;
  const sendCommand = async (deviceId: number, order: string, value?: string) => {
    const reply = await operator.post('/sendData/sendCommandByDeviceId', {
      deviceId: String(deviceId),
      order,
      ...(value !== undefined ? { value } : {}),
    });
    return reply;
  };

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await operatorClient(server);
    secret = await enrollmentSecretOf(operator);
    mqttUrl = `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
  });
  afterAll(() => server.stop());

  it('lets a bare mqtt.js panel enroll, report every field, obey a command and acknowledge it', async () => {
    const creds = await enroll(server.url, 'CONF-0001', secret);
    expect(creds.clientId).toBe('CONF-0001');
    const panel = await connectBare(mqttUrl, creds);
    await panel.client.publishAsync('pf/v1/d/CONF-0001/state', JSON.stringify(fullState()), { qos: 1 });

    const row = await waitFor('the state report in the device list', async () => {
      const r = await deviceRow('CONF-0001');
      return r?.cpuTemperature === 48.5 ? r : undefined;
    });
    expect(row).toMatchObject({
      isOnline: '1',
      publicIp: '203.0.113.7',
      localIp: '192.168.10.21',
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
      brightness: 80,
      volume: 60,
      mute: false,
      source: 'home',
      power: 'on',
    });

    const sent = device.sendCommandByDeviceId.reply.parse((await sendCommand(row.deviceId, '00', '30')).body);
    const command = await waitFor('the command at the panel', () =>
      panel.commands.find((c) => c.id === sent.dataObject.commandId),
    );
    expect(command).toMatchObject({ v: 1, order: '00', value: 30 });
    await waitFor('the command to succeed', async () => (await commandStatus(command.id)) === 'succeeded');
    const feedback = device.listFeedback.reply.parse(
      (await operator.get('/platform/feedback/listFeedbackInfo?start=1&size=10&deviceName=CONF-0001')).body,
    );
    expect(feedback.listObject[0]).toMatchObject({
      uuid: command.id,
      status: 'success',
      type: '00',
      userName: 'operator1',
    });

    // The protocol's QoS 0 acknowledgement may carry what the command changed: stored as state.
    panel.client.removeAllListeners('message');
    panel.client.on('message', (_topic, payload) => {
      const cmd = device.commandEnvelope.parse(JSON.parse(payload.toString()));
      const ack: device.CommandAck = {
        v: 1,
        id: cmd.id,
        result: 'succeeded',
        state: { volume: Number(cmd.value) },
      };
      void panel.client.publishAsync('pf/v1/d/CONF-0001/ack', JSON.stringify(ack), {
        qos: device.PUBLISH_QOS.ack,
      });
    });
    const volume = device.sendCommandByDeviceId.reply.parse(
      (await sendCommand(row.deviceId, '01', '17')).body,
    );
    await waitFor(
      'the volume command to succeed',
      async () => (await commandStatus(volume.dataObject.commandId)) === 'succeeded',
    );
    await waitFor(
      'the volume the acknowledgement carried',
      async () => (await deviceRow('CONF-0001'))?.volume === 17,
    );

    await panel.client.publishAsync(
      'pf/v1/d/CONF-0001/apps',
      JSON.stringify({
        v: 1,
        apps: [
          {
            appName: 'Settings',
            packageName: 'com.android.settings',
            versionName: '12',
            appSize: 1000,
            appLevel: 1,
          },
          {
            appName: 'Whiteboard',
            packageName: 'com.panel.board',
            versionName: '2.1.0',
            appSize: 52_000_000,
            appLevel: 0,
          },
        ],
      }),
      { qos: 1 },
    );
    await panel.client.publishAsync(
      'pf/v1/d/CONF-0001/usage',
      JSON.stringify({
        v: 1,
        id: 'usage-report-0001',
        from: 1000,
        to: 61_000,
        screenOnMs: 60_000,
        records: [
          { packageName: 'com.panel.board', appName: 'Whiteboard', startedAt: 1000, durationMs: 45_000 },
        ],
      }),
      { qos: 1 },
    );
    await panel.client.publishAsync(
      'pf/v1/d/CONF-0001/log',
      JSON.stringify({
        v: 1,
        id: 'crash-report-0001',
        fileName: 'crash-1.txt',
        appName: 'Whiteboard',
        occurredAt: 5000,
        text: 'FATAL EXCEPTION: main',
      }),
      { qos: 1 },
    );
    const db = server.app.db.kysely;
    await waitFor('apps, usage and log rows', async () => {
      const apps = await db
        .selectFrom('device_apps')
        .select('package_name')
        .where('org_id', '=', server.accounts.customerId)
        .execute();
      const usage = await db.selectFrom('app_usage').select('duration_ms').execute();
      const logs = await db.selectFrom('abnormal_logs').select('text').execute();
      return (
        apps.length === 2 && usage[0]?.duration_ms === 45_000 && logs[0]?.text === 'FATAL EXCEPTION: main'
      );
    });

    await panel.close();
    await waitFor('the panel to be offline', async () => (await deviceRow('CONF-0001'))?.isOnline === '0');
  });

  it('also works over the WebSocket endpoint /mqtt', async () => {
    const creds = await enroll(server.url, 'CONF-WS01', secret);
    const panel = await connectBare(`${server.url.replace('http', 'ws')}/mqtt`, creds);
    await waitFor('online over WebSocket', async () => (await deviceRow('CONF-WS01'))?.isOnline === '1');
    await panel.close();
  });

  it('refuses foreign topics, # and stolen client ids, and the victim stays connected', async () => {
    const victimCreds = await enroll(server.url, 'VICTIM-01', secret);
    const thiefCreds = await enroll(server.url, 'THIEF-01', secret);
    const victim = await connectBare(mqttUrl, victimCreds);
    let victimClosed = false;
    victim.client.on('close', () => (victimClosed = true));

    const wrongSecret = mqtt.connectAsync(mqttUrl, {
      clientId: 'VICTIM-01',
      username: 'VICTIM-01',
      password: 'not-the-secret',
      reconnectPeriod: 0,
    });
    await expect(wrongSecret).rejects.toThrow(/Bad username or password|Not authorized|5|4/i);
    const stolenId = mqtt.connectAsync(mqttUrl, {
      clientId: 'VICTIM-01',
      username: 'THIEF-01',
      password: thiefCreds.password,
      reconnectPeriod: 0,
    });
    await expect(stolenId).rejects.toThrow(/Identifier rejected|2/i);

    const thief = await connectBare(mqttUrl, thiefCreds);
    const refused = await thief.client
      .subscribeAsync(['#', 'pf/v1/d/VICTIM-01/cmd', 'pf/v1/d/+/cmd'], { qos: 1 })
      .then(
        () => undefined,
        (err: { packet?: { granted?: number[] } }) => err.packet?.granted,
      );
    expect(refused).toEqual([128, 128, 128]);
    expect(thief.client.connected).toBe(true);
    const thiefClosed = new Promise<void>((resolve) => thief.client.once('close', () => resolve()));
    thief.client.publish('pf/v1/d/VICTIM-01/state', JSON.stringify({ v: 1, brightness: 1 }), { qos: 0 });
    await thiefClosed;

    expect(victimClosed).toBe(false);
    expect(victim.client.connected).toBe(true);
    expect(server.app.devices.gateway.isOnline('VICTIM-01')).toBe(true);
    await server.app.devices.gateway.flushState();
    expect((await deviceRow('VICTIM-01'))?.brightness).toBeNull();
    const row = (await deviceRow('VICTIM-01'))!;
    const sent = device.sendCommandByDeviceId.reply.parse((await sendCommand(row.deviceId, '01', '25')).body);
    await waitFor('the victim still gets its commands', () =>
      victim.commands.some((c) => c.id === sent.dataObject.commandId),
    );
    await victim.close();
  });

  it('drops malformed, oversized and wrong-schema payloads, logs them and keeps going', async () => {
    const creds = await enroll(server.url, 'BADPAY-01', secret);
    const panel = await connectBare(mqttUrl, creds);
    const stats = server.app.devices.gateway.stats;
    const droppedBefore = stats.dropped;
    const topic = 'pf/v1/d/BADPAY-01/state';
    await panel.client.publishAsync(topic, '{not json', { qos: 1 });
    await panel.client.publishAsync(topic, JSON.stringify({ v: 1, brightness: 'x'.repeat(70_000) }), {
      qos: 1,
    });
    await panel.client.publishAsync(topic, JSON.stringify({ v: 1, brightness: 150 }), { qos: 1 });
    await panel.client.publishAsync(topic, JSON.stringify({ v: 2, brightness: 10 }), { qos: 1 });
    await panel.client.publishAsync(
      'pf/v1/d/BADPAY-01/ack',
      JSON.stringify({ v: 1, id: 'not-a-uuid', result: 'succeeded' }),
      { qos: 1 },
    );
    await waitFor('five drops', () => stats.dropped - droppedBefore === 5);
    await panel.client.publishAsync(topic, JSON.stringify({ v: 1, brightness: 42 }), { qos: 1 });
    await waitFor(
      'a good report after bad ones',
      async () => (await deviceRow('BADPAY-01'))?.brightness === 42,
    );
    expect(panel.client.connected).toBe(true);
    await panel.close();
  });

  it('refuses bad HTTP input with a fail envelope', async () => {
    const badSecret = await fetch(`${server.url}/device/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ v: 1, serial: 'X-0001', enrollmentSecret: 'w'.repeat(32) }),
    });
    expect(await badSecret.json()).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Enrollment refused: the enrollment secret is not valid',
    });
    const creds = await enroll(server.url, 'BADHTTP-01', secret);
    expect(creds.password.length).toBeGreaterThan(30);
    const row = await waitFor('the row', () => deviceRow('BADHTTP-01'));
    expect((await sendCommand(row.deviceId, '00', '101')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The value does not fit this order',
    });
    expect((await sendCommand(row.deviceId, '99', '1')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Unknown order',
    });
    expect((await sendCommand(row.deviceId, '08', 'launch')).body).toMatchObject({ hhtStatus: 'fail' });
    expect((await sendCommand(999_999, '03')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'No such device',
    });
  });

  it('delivers a command queued while the panel was offline when it reconnects', async () => {
    const creds = await enroll(server.url, 'OFFLINE-01', secret);
    const row = await waitFor('the row', () => deviceRow('OFFLINE-01'));
    const sent = device.sendCommandByDeviceId.reply.parse((await sendCommand(row.deviceId, '07', '1')).body);
    await server.app.devices.commands.settle();
    expect(await commandStatus(sent.dataObject.commandId)).toBe('queued');
    const panel = await connectBare(mqttUrl, creds);
    const command = await waitFor('the queued command', () =>
      panel.commands.find((c) => c.id === sent.dataObject.commandId),
    );
    expect(command.value).toBe(true);
    await waitFor('success', async () => (await commandStatus(command.id)) === 'succeeded');
    await panel.close();
  });

  it('records a command to a listening panel as sent at once and publishes it again until acknowledged', async () => {
    const creds = await enroll(server.url, 'RETRY-01', secret);
    const panel = await connectBare(mqttUrl, creds, { autoAck: false });
    const row = await waitFor('the row', () => deviceRow('RETRY-01'));
    // Subscribed, and its delivery of pending commands (collected for 20 ms) done.
    await waitFor('the panel ready', () => server.app.devices.gateway.isReady('RETRY-01'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await server.app.devices.commands.settle();
    const sent = device.sendCommandByDeviceId.reply.parse((await sendCommand(row.deviceId, '00', '12')).body);
    const id = sent.dataObject.commandId;
    const stored = () =>
      server.app.db.kysely
        .selectFrom('commands')
        .select(['status', 'attempts'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    await server.app.devices.commands.settle();
    expect(await stored()).toEqual({ status: 'sent', attempts: 1 });
    await waitFor('the first delivery', () => panel.commands.some((c) => c.id === id));

    server.clock.advance(16_000);
    await server.app.devices.commands.tick();
    await waitFor('the repeated delivery', () => panel.commands.filter((c) => c.id === id).length === 2);
    expect(await stored()).toEqual({ status: 'sent', attempts: 2 });

    await panel.client.publishAsync(
      'pf/v1/d/RETRY-01/ack',
      JSON.stringify({ v: 1, id, result: 'succeeded' }),
      { qos: device.PUBLISH_QOS.ack },
    );
    await waitFor('success', async () => (await stored()).status === 'succeeded');
    await panel.close();
  });

  it('expires a command whose panel never comes back, with a fail feedback', async () => {
    await enroll(server.url, 'GONE-01', secret);
    const row = await waitFor('the row', () => deviceRow('GONE-01'));
    const sent = device.sendCommandByDeviceId.reply.parse((await sendCommand(row.deviceId, '03')).body);
    server.clock.advance(11 * 60_000);
    await server.app.devices.commands.tick();
    expect(await commandStatus(sent.dataObject.commandId)).toBe('expired');
    const feedback = device.listFeedback.reply.parse(
      (await operator.get('/platform/feedback/listFeedbackInfo?start=1&size=10&deviceName=GONE-01')).body,
    );
    expect(feedback.listObject[0]).toMatchObject({
      uuid: sent.dataObject.commandId,
      status: 'fail',
      type: '03',
    });
  });

  it('lets only the company and its administrators see and rotate the enrollment secret', async () => {
    const manager = await operatorClient(server, 'manager1', 'manager123');
    expect((await manager.get('/platform/device/enrollmentSecret')).body).toMatchObject({
      hhtStatus: 'fail',
    });
    const rotated = device.rotateEnrollmentSecret.reply.parse(
      (await operator.post('/platform/device/enrollmentSecret/rotate')).body,
    );
    expect(rotated.dataObject.enrollmentSecret).not.toBe(secret);
    await expect(enroll(server.url, 'OLDSECRET-1', secret)).rejects.toThrow();
    secret = rotated.dataObject.enrollmentSecret;
    expect((await enroll(server.url, 'NEWSECRET-1', secret)).deviceKey).toBe('NEWSECRET-1');
  });
});
