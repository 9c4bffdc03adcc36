import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { materials, notifications } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import type { SimulatedPanel } from '../../simulator/src/panel.js';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { wavTone } from './audio-fixtures.js';
import { enroll, enrollmentSecretOf, waitFor } from './device-helpers.js';
import { contentOf } from '../src/modules/operation-log/repository.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

/** BASE_URL must be known before the server has a port: panels reach the server through this hop. */
class PassThrough {
  target = 0;
  private server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: this.target, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.socket?.destroy());
    req.pipe(upstream);
  });
  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  close() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

type Form = Record<string, string>;

describe.each(backends)('notifications on %s', (backend) => {
  let server: TestServer;
  let proxy: PassThrough;
  let baseUrl: string;
  let fleet: Fleet;
  let operator: TestClient;
  let otherCustomer: TestClient;
  let ids: Record<string, number>;
  let labelAB: number;
  let emptyLabel: number;
  let foreignLabel: number;
  let foreignDevice: number;
  let foreignMaterial: number;

  const panel = (serial: string) => fleet.panels.find((p) => p.serial === serial)!;
  const commandCount = async () =>
    Number(
      (
        await server.app.db.kysely
          .selectFrom('commands')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const send = (client: TestClient, form: Form) => client.post('/sendMessage/insert', form);
  const sent = async (form: Form) => {
    const reply = await send(operator, form);
    return notifications.sendMessage.reply.parse(reply.body).dataObject;
  };
  const deliveries = async (client: TestClient, commandIds: string[]) =>
    notifications.selectDelivery.reply.parse(
      (await client.get(`/sendMessage/selectDelivery?commandIds=${commandIds.join(',')}`)).body,
    ).listObject;
  const finished = (commandIds: string[]) =>
    waitFor('the panels to acknowledge', async () => {
      const list = await deliveries(operator, commandIds);
      return list.length === commandIds.length &&
        list.every((d) => ['succeeded', 'failed', 'expired'].includes(d.status))
        ? list
        : undefined;
    });
  const notifyOf = (p: SimulatedPanel, commandId: string) => p.executed.find((c) => c.id === commandId);
  const upload = async (client: TestClient, name: string, bytes: Buffer) => {
    const form = new FormData();
    form.append('fileType', '2');
    form.append('uiFile', new Blob([bytes]), name);
    const response = await fetch(`${server.url}/material/insertMaterial`, {
      method: 'POST',
      headers: { cookie: `pf_session=${client.cookie('pf_session')}` },
      body: form,
    });
    return materials.insertMaterial.reply.parse(await response.json()).dataObject;
  };
  const label = async (client: TestClient, name: string, deviceIds: number[]) => {
    const groupId = (await client.post('/platform/group/insert', { groupName: name })).body.dataObject as {
      groupId: number;
    };
    if (deviceIds.length)
      expect(
        (
          await client.post('/platform/group/saveGroupsAndDevices', {
            deviceIds: deviceIds.join(','),
            groupIds: String(groupId.groupId),
          })
        ).body.hhtStatus,
      ).toBe('success');
    return groupId.groupId;
  };

  beforeAll(async () => {
    proxy = new PassThrough();
    baseUrl = await proxy.listen();
    server = await startServer(
      backend,
      { BASE_URL: baseUrl },
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    proxy.target = Number(new URL(server.url).port);
    operator = await signedIn(server, 'operator1', 'operator123');
    fleet = await startFleet({
      url: baseUrl,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(operator),
      count: 4,
      prefix: 'NT',
      telemetryMs: 600_000,
      abnormalLogChance: 0,
      log: () => undefined,
    });
    const rows = await server.app.db.kysely.selectFrom('devices').select(['id', 'device_key']).execute();
    ids = Object.fromEntries(rows.map((r) => [r.device_key, r.id]));
    await server.app.db.kysely
      .updateTable('devices')
      .set({ state: 0 })
      .where('device_key', '=', 'NT-00004')
      .execute();
    labelAB = await label(operator, 'Hall A and B', [ids['NT-00001']!, ids['NT-00002']!]);
    emptyLabel = await label(operator, 'Nobody here', []);

    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-customer', password: 'bcustomer123', userType: '2', activated: 1 },
    ]);
    otherCustomer = await signedIn(server, 'b-customer', 'bcustomer123');
    await enroll(server.url, 'NT-B0001', await enrollmentSecretOf(otherCustomer));
    foreignDevice = (
      await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', 'NT-B0001')
        .executeTakeFirstOrThrow()
    ).id;
    foreignLabel = await label(otherCustomer, 'Their label', [foreignDevice]);
    foreignMaterial = (await upload(otherCustomer, 'theirs.wav', wavTone(0.2))).materialId;
  });
  afterAll(async () => {
    await fleet.stop();
    await server.stop();
    await proxy.close();
  });

  it('shows an ordinary notification on one panel with its position, play count and colour', async () => {
    const reply = await sent({
      deviceId: String(ids['NT-00001']),
      title: 'Assembly',
      text: 'Assembly at 10:00 in the main hall',
      level: '1',
      position: 'bottom',
      times: '5',
      materialType: '1',
      color: '#FF0000',
    });
    expect(reply.count).toBe(1);
    const [delivery] = await finished(reply.commandIds);
    expect(delivery).toMatchObject({ deviceKey: 'NT-00001', status: 'succeeded', detail: 'shown' });
    expect(panel('NT-00001').lastNotification).toEqual({
      title: 'Assembly',
      text: 'Assembly at 10:00 in the main hall',
      level: 1,
      position: 'bottom',
      times: 5,
      color: '#ff0000',
    });
    const log = await server.app.db.kysely
      .selectFrom('operation_logs')
      .select(['content', 'detail'])
      .where('action', '=', 'sendMessage')
      .execute();
    expect(contentOf(log.at(-1)!, 'en-US').content).toBe(
      '“Assembly” (ordinary) to NT-00001 (NT-00001), 1 panel',
    );
  });

  it('sends an emergency voice to the panels of a label, with the default play count', async () => {
    const reply = await sent({
      tags: String(labelAB),
      title: 'Earthquake',
      text: 'Leave the building now',
      level: '0',
      materialType: '2',
    });
    expect(reply.count).toBe(2);
    const list = await finished(reply.commandIds);
    expect(list.map((d) => [d.deviceKey, d.status])).toEqual([
      ['NT-00001', 'succeeded'],
      ['NT-00002', 'succeeded'],
    ]);
    for (const serial of ['NT-00001', 'NT-00002'])
      expect(panel(serial).lastNotification).toEqual({
        title: 'Earthquake',
        text: 'Leave the building now',
        level: 0,
        audio: 2,
        times: 3,
        color: '#000000',
      });
    expect(panel('NT-00003').executed.some((c) => reply.commandIds.includes(c.id))).toBe(false);
  });

  it('carries a custom audio as a URL signed for each panel, which the panel fetches, verifies and plays', async () => {
    const tone = wavTone(1);
    const material = await upload(operator, 'Evacuation.wav', tone);
    const reply = await sent({
      tags: String(labelAB),
      title: 'Evacuate',
      text: 'Use the east stairs',
      level: '0',
      materialType: '0',
      materialId: String(material.materialId),
    });
    const list = await finished(reply.commandIds);
    const sha256 = crypto.createHash('sha256').update(tone).digest('hex');
    expect(list.map((d) => [d.deviceKey, d.status, d.detail])).toEqual([
      ['NT-00001', 'succeeded', `shown, played audio ${sha256}`],
      ['NT-00002', 'succeeded', `shown, played audio ${sha256}`],
    ]);
    const urls = ['NT-00001', 'NT-00002'].map((serial) => {
      const value = notifyOf(panel(serial), list.find((d) => d.deviceKey === serial)!.commandId)!.value as {
        audioUrl: string;
        audioSize: number;
        audioSha256: string;
      };
      expect(value).toMatchObject({ audio: 0, audioSize: tone.length, audioSha256: sha256 });
      expect(value.audioUrl.startsWith(`${baseUrl}/device/files/`)).toBe(true);
      return value.audioUrl;
    });
    expect(urls[0]).not.toBe(urls[1]);
    // The database keeps the file, never a URL: a retried command is signed again.
    const stored = await server.app.db.kysely
      .selectFrom('commands')
      .select('value')
      .where('id', 'in', reply.commandIds)
      .execute();
    for (const row of stored) {
      expect(row.value).not.toContain('http');
      expect(JSON.parse(row.value)).toMatchObject({ audioFile: { size: tone.length, sha256 } });
    }
    // A URL is bound to its panel: without that panel's credentials it gives nothing.
    expect((await fetch(urls[0]!)).status).toBe(401);
  });

  it('refuses every rule of spec 2 on the server, and sends nothing', async () => {
    const mine = await upload(operator, 'Bell.wav', wavTone(0.3));
    const device1 = String(ids['NT-00001']);
    const ordinary = {
      deviceId: device1,
      title: 'Hello',
      text: 'World',
      level: '1',
      position: 'top',
      times: '3',
    };
    const emergency = {
      deviceId: device1,
      title: 'Hello',
      text: 'World',
      level: '0',
      materialType: '0',
      materialId: String(mine.materialId),
    };
    const cases: Array<[Form, string]> = [
      [{ ...ordinary, title: '' }, 'Please enter the title'],
      [{ ...ordinary, title: '   ' }, 'Please enter the title'],
      [
        { ...ordinary, title: 'a'.repeat(31) },
        'The title may be at most 30 width units (a Chinese character counts 2)',
      ],
      [
        { ...ordinary, title: '面'.repeat(15) + 'a' },
        'The title may be at most 30 width units (a Chinese character counts 2)',
      ],
      [{ ...ordinary, text: '' }, 'Please enter the content'],
      [{ ...ordinary, text: 'x'.repeat(201) }, 'The content may be at most 200 characters'],
      [{ ...ordinary, level: '2' }, 'Choose emergency or ordinary'],
      [{ ...ordinary, position: '' }, 'Choose the top or the bottom of the screen'],
      [{ ...ordinary, position: 'middle' }, 'Choose the top or the bottom of the screen'],
      [{ ...ordinary, times: '0' }, 'The play count must be greater than 0 (at most 100)'],
      [{ ...ordinary, times: '-2' }, 'The play count must be greater than 0 (at most 100)'],
      [{ ...ordinary, times: 'x' }, 'The play count must be greater than 0 (at most 100)'],
      [{ ...ordinary, times: '' }, 'The play count must be greater than 0 (at most 100)'],
      [{ ...ordinary, color: 'red' }, 'The colour must be written #rrggbb'],
      [{ ...emergency, materialType: '' }, 'Choose fire, earthquake, air defense or a custom audio'],
      [{ ...emergency, materialType: '4' }, 'Choose fire, earthquake, air defense or a custom audio'],
      [{ ...emergency, materialId: '' }, 'Please choose an audio'],
      [{ ...emergency, materialId: String(foreignMaterial) }, 'No such material'],
      [{ ...emergency, materialId: '999999' }, 'No such material'],
      [{ title: 'Hello', text: 'World', level: '1', position: 'top' }, 'Send to one device or to labels'],
      [{ ...ordinary, tags: String(labelAB) }, 'Send to one device or to labels'],
      [{ ...ordinary, deviceId: undefined as unknown as string, tags: '' }, 'Please tick at least one label'],
      [{ ...ordinary, deviceId: String(foreignDevice) }, 'No such device'],
      [{ ...ordinary, deviceId: '999999' }, 'No such device'],
      [
        { ...ordinary, deviceId: String(ids['NT-00004']) },
        'This device is disabled; enable it before sending it anything',
      ],
      [
        { ...ordinary, deviceId: undefined as unknown as string, tags: `${labelAB},${foreignLabel}` },
        'No such label',
      ],
      [
        { ...ordinary, deviceId: undefined as unknown as string, tags: String(emptyLabel) },
        'The chosen labels have no devices',
      ],
    ];
    const before = await commandCount();
    for (const [form, message] of cases) {
      const clean = Object.fromEntries(Object.entries(form).filter(([, v]) => v !== undefined));
      const reply = await send(operator, clean);
      expect(reply.body, JSON.stringify(clean)).toMatchObject({ hhtStatus: 'fail', hhtMsg: message });
      expect(reply.status).toBeLessThan(500);
    }
    const zh = await send(await signedIn(server, 'operator1', 'operator123', 'zh-CN'), {
      ...ordinary,
      title: '',
    });
    expect(zh.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: '请输入标题' });
    expect((await send(otherCustomer, { ...ordinary, deviceId: device1 })).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'No such device',
    });
    expect((await send(await signedIn(server, 'manager1', 'manager123'), ordinary)).body.hhtStatus).toBe(
      'fail',
    );
    // A raw NOTIFY would skip every rule above: only /sendMessage/insert composes one.
    const raw = await operator.post('/sendData/sendCommandByDeviceId', {
      deviceId: device1,
      order: 'NOTIFY',
      value: JSON.stringify({
        title: 'x',
        text: 'y',
        level: 1,
        times: 1,
        audioUrl: 'http://evil.example/a.mp3',
      }),
    });
    expect(raw.body.hhtStatus).toBe('fail');
    expect(await commandCount()).toBe(before);

    // Half-width katakana count one unit each: 30 of them fit.
    const katakana = await sent({ ...ordinary, title: 'ｱ'.repeat(30) });
    expect(katakana.count).toBe(1);
  });

  it('does not send an audio whose file changed on disk since its upload', async () => {
    const bell = await upload(operator, 'Changed.wav', wavTone(0.3));
    const row = await server.app.db.kysely
      .selectFrom('materials')
      .select('stored_name')
      .where('id', '=', bell.materialId)
      .executeTakeFirstOrThrow();
    const file = path.join(server.dataDir, 'files', 'materials', row.stored_name);
    const bytes = fs.readFileSync(file);
    bytes[100] = bytes[100]! ^ 0xff;
    fs.writeFileSync(file, bytes);
    const before = await commandCount();
    const reply = await send(operator, {
      deviceId: String(ids['NT-00001']),
      title: 'T',
      text: 'x',
      level: '0',
      materialType: '0',
      materialId: String(bell.materialId),
    });
    expect(reply.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The audio file is damaged; upload it again',
    });
    expect(await commandCount()).toBe(before);
  });

  it('shows delivery only to the company that sent', async () => {
    const reply = await sent({
      deviceId: String(ids['NT-00002']),
      title: 'Mine',
      text: 'only',
      level: '1',
      position: 'top',
    });
    await finished(reply.commandIds);
    expect(await deliveries(otherCustomer, reply.commandIds)).toEqual([]);
    expect((await operator.get('/sendMessage/selectDelivery?commandIds=not-a-uuid')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The id is not valid',
    });
  });
});
