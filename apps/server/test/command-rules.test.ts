import crypto from 'node:crypto';
import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { contentOf } from '../src/modules/operation-log/repository.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  fullState,
  operatorClient,
  waitFor,
  x9Settings,
  type BareDevice,
} from './device-helpers.js';
import { backends, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

const APPS: device.InstalledApp[] = [
  { appName: 'Settings', packageName: 'com.android.settings', versionName: '12', appSize: 1000, appLevel: 1 },
  {
    appName: 'Whiteboard',
    packageName: 'com.panel.board',
    versionName: '2.1.0',
    appSize: 52_000_000,
    appLevel: 0,
  },
  { appName: 'VLC', packageName: 'org.videolan.vlc', versionName: '3.5.4', appSize: 45_000_000, appLevel: 0 },
];

const SETTINGS: device.SettingsReport = x9Settings;

const DAY_MS = 24 * 60 * 60_000;

/**
 * The rules of commands operators send: the generic command call applies the dedicated calls'
 * checks, every remote command leaves an operation-log row, and a label command repeated with
 * the same idempotency key creates its commands once.
 */
describe.each(backends)('command rules on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let other: TestClient;
  let panel: BareDevice;
  let quiet: BareDevice;
  let deviceId: number;
  let quietId: number;
  let labelId: number;
  let foreignLabel: number;

  const db = () => server.app.db.kysely;
  const count = async (table: 'commands' | 'operation_logs', orgId = server.accounts.customerId) =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('org_id', '=', orgId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const ordersOf = async (order: string) =>
    Number(
      (
        await db()
          .selectFrom('commands')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('order_code', '=', order)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const send = (id: number, order: string, value?: string, client = operator) =>
    client.post('/sendData/sendCommandByDeviceId', {
      deviceId: String(id),
      order,
      ...(value !== undefined ? { value } : {}),
    });
  const sendToLabel = (form: Record<string, string>, client = operator) =>
    client.post('/sendData/sendCommandByTagIds', form);
  const settings = (platformMsg: unknown, platform = 'x9_vn') => JSON.stringify({ platform, platformMsg });

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await operatorClient(server);
    const mqttUrl = `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
    const secret = await enrollmentSecretOf(operator);
    panel = await connectBare(mqttUrl, await enroll(server.url, 'RULE-0001', secret));
    quiet = await connectBare(mqttUrl, await enroll(server.url, 'RULE-0002', secret));
    await panel.client.publishAsync('pf/v1/d/RULE-0001/state', JSON.stringify(fullState()), { qos: 1 });
    await panel.client.publishAsync('pf/v1/d/RULE-0001/apps', JSON.stringify({ v: 1, apps: APPS }), {
      qos: 1,
    });
    await panel.client.publishAsync('pf/v1/d/RULE-0001/settings', JSON.stringify(SETTINGS), { qos: 1 });
    const idOf = async (key: string) =>
      (await db().selectFrom('devices').select('id').where('device_key', '=', key).executeTakeFirstOrThrow())
        .id;
    deviceId = await idOf('RULE-0001');
    quietId = await idOf('RULE-0002');
    await waitFor('the app and settings reports', async () => {
      const apps = await db()
        .selectFrom('device_apps')
        .select('package_name')
        .where('device_id', '=', deviceId)
        .execute();
      const sections = await db()
        .selectFrom('device_settings')
        .select('id')
        .where('device_id', '=', deviceId)
        .execute();
      return apps.length === APPS.length && sections.length === Object.keys(SETTINGS.platformMsg).length;
    });
    labelId = device.insertGroup.reply.parse(
      (await operator.post('/platform/group/insert', { groupName: 'Floor R' })).body,
    ).dataObject.groupId;
    expect(
      (
        await operator.post('/platform/group/saveGroupsAndDevices', {
          deviceIds: `${deviceId},${quietId}`,
          groupIds: String(labelId),
        })
      ).body.hhtStatus,
    ).toBe('success');

    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    other = await operatorClient(server, 'b-operator', 'boperator123');
    const otherPanel = await connectBare(
      mqttUrl,
      await enroll(server.url, 'RULE-B-01', await enrollmentSecretOf(other)),
    );
    await otherPanel.close();
    const otherDevice = await idOf('RULE-B-01');
    foreignLabel = device.insertGroup.reply.parse(
      (await other.post('/platform/group/insert', { groupName: 'Floor R' })).body,
    ).dataObject.groupId;
    await other.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: String(otherDevice),
      groupIds: String(foreignLabel),
    });
  });
  afterAll(async () => {
    await panel.close();
    await quiet.close();
    await server.stop();
  });

  it('refuses through the generic call every UNINSTALL the dedicated call refuses, sending nothing', async () => {
    const before = await ordersOf('UNINSTALL');
    const uninstall = (packageNames: string[], id = deviceId) =>
      send(id, 'UNINSTALL', JSON.stringify({ packageNames }));
    expect((await uninstall(['com.android.settings'])).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'System apps cannot be uninstalled',
    });
    expect((await uninstall(['com.panel.board', 'com.android.settings'])).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'System apps cannot be uninstalled',
    });
    expect((await uninstall(['com.example.absent'])).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The panel does not report this app (com.example.absent); refresh the list',
    });
    expect((await uninstall(['com.panel.board'], quietId)).body).toMatchObject({ hhtStatus: 'fail' });
    operator.language = 'zh-CN';
    expect((await uninstall(['com.android.settings'])).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: '系统应用不能卸载',
    });
    operator.language = 'en-US';
    expect(await ordersOf('UNINSTALL')).toBe(before);
    expect(panel.commands.filter((c) => c.order === 'UNINSTALL')).toEqual([]);

    const reply = device.sendCommandByDeviceId.reply.parse((await uninstall(['org.videolan.vlc'])).body);
    const sent = await waitFor('the UNINSTALL at the panel', () =>
      panel.commands.find((c) => c.id === reply.dataObject.commandId),
    );
    expect(sent.value).toEqual({ packageNames: ['org.videolan.vlc'] });
  });

  it('refuses through the generic call every SETTINGS the dedicated call refuses, sending nothing', async () => {
    const before = await ordersOf('SETTINGS');
    // Valid settings of another series, for a panel that reported x9_vn.
    expect((await send(deviceId, 'SETTINGS', settings({ language: 'de_de' }, 'oem'))).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'This setting does not exist on panels of this series',
    });
    // Each field valid, the result not: two enabled extension features on one source.
    expect(
      (await send(deviceId, 'SETTINGS', settings({ newlineExtension: { x10d: true, x10dSource: 'front' } })))
        .body,
    ).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'A source can serve only one enabled extension feature',
    });
    expect((await send(deviceId, 'SETTINGS', settings({}))).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Please choose at least one setting to push',
    });
    expect((await send(quietId, 'SETTINGS', settings({ language: 'de_de' }))).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The panel has not reported its settings yet; wait until it is online',
    });
    expect(await ordersOf('SETTINGS')).toBe(before);

    const reply = device.sendCommandByDeviceId.reply.parse(
      (await send(deviceId, 'SETTINGS', settings({ language: 'de_de' }))).body,
    );
    const sent = await waitFor('the SETTINGS at the panel', () =>
      panel.commands.find((c) => c.id === reply.dataObject.commandId),
    );
    expect(sent.value).toEqual({ platform: 'x9_vn', platformMsg: { language: 'de_de' } });
  });

  it('writes an operation-log row for every remote command, notification and settings push: who, what, which panels or labels, from where', async () => {
    const logged = async (call: () => Promise<{ body: Record<string, unknown> }>) => {
      const since =
        (
          await db()
            .selectFrom('operation_logs')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirstOrThrow()
        ).id ?? 0;
      const reply = await call();
      expect(reply.body.hhtStatus).toBe('success');
      return db()
        .selectFrom('operation_logs')
        .selectAll()
        .where('id', '>', Number(since))
        .orderBy('id')
        .execute();
    };
    const cases: Array<[string, () => Promise<{ body: Record<string, unknown> }>, RegExp]> = [
      ['command.send', () => send(deviceId, '00', '40'), /RULE-0001.*: Brightness 40$/],
      [
        'command.send',
        () => send(deviceId, 'SETTINGS', settings({ language: 'fr_fr' })),
        /RULE-0001.*: Settings: Language$/,
      ],
      [
        'command.powerUp',
        () => operator.post('/sendData/sendPowerUpByDeviceId', { deviceId: String(quietId) }),
        /RULE-0002/,
      ],
      [
        'command.labelSend',
        () => sendToLabel({ tagIds: String(labelId), order: '03' }),
        /^Floor R: Restart, 2 panels$/,
      ],
      [
        'command.labelPowerUp',
        () => operator.post('/sendData/sendPowerUpByTagIds', { tagIds: String(labelId) }),
        /^Floor R: 2 panels$/,
      ],
      [
        'sendMessage',
        () =>
          operator.post('/sendMessage/insert', {
            tags: String(labelId),
            title: 'Drill',
            text: 'Fire drill at noon',
            level: '1',
            position: 'top',
            times: '2',
            materialType: '1',
          }),
        /^“Drill” \(ordinary\) to labels Floor R, 2 panels$/,
      ],
      [
        'deviceSetting.update',
        () =>
          operator.post('/deviceSetting/updateDeviceSetting', {
            deviceId: String(deviceId),
            jsonData: JSON.stringify({ language: 'en_us' }),
          }),
        /^RULE-0001 \(RULE-0001\): Language$/,
      ],
      [
        'device.uninstallApk',
        () =>
          operator.post('/platform/device/uninstallApk', {
            deviceId: String(deviceId),
            packageNames: 'com.panel.board',
          }),
        /^RULE-0001 \(RULE-0001\): com\.panel\.board$/,
      ],
    ];
    for (const [action, call, content] of cases) {
      const rows = await logged(call);
      expect(rows.map((r) => r.action)).toEqual([action]);
      expect(rows[0]).toMatchObject({
        org_id: server.accounts.customerId,
        user_id: server.accounts.userIds.operator1,
        user_name: 'operator1',
        user_type: '4',
        ip: '127.0.0.1',
      });
      // In words, never codes or JSON (the log shows them to operators).
      expect(contentOf(rows[0]!, 'en-US').content).toMatch(content);
    }
  });

  it('creates a label command once per idempotency key, also for requests that arrive together', async () => {
    const key = crypto.randomUUID();
    const form = { tagIds: String(labelId), order: '00', value: '30', idempotencyKey: key };
    const commandsBefore = await count('commands');
    const first = device.sendCommandByTagIds.reply.parse((await sendToLabel(form)).body);
    expect(first.dataObject.count).toBe(2);
    const logsAfterFirst = await count('operation_logs');
    const again = device.sendCommandByTagIds.reply.parse((await sendToLabel(form)).body);
    expect(again.dataObject).toEqual(first.dataObject);
    expect(await count('commands')).toBe(commandsBefore + 2);
    expect(await count('operation_logs')).toBe(logsAfterFirst);

    const together = { ...form, idempotencyKey: crypto.randomUUID() };
    const replies = await Promise.all(Array.from({ length: 10 }, () => sendToLabel(together)));
    expect(
      replies.map((r) => [r.status, r.body.hhtStatus, (r.body.dataObject as { count: number }).count]),
    ).toEqual(Array.from({ length: 10 }, () => [200, 'success', 2]));
    expect(await count('commands')).toBe(commandsBefore + 4);

    const powerUp = { tagIds: String(labelId), idempotencyKey: crypto.randomUUID() };
    const powerUps = await Promise.all(
      Array.from({ length: 5 }, () => operator.post('/sendData/sendPowerUpByTagIds', powerUp)),
    );
    expect(powerUps.map((r) => r.body.hhtStatus)).toEqual(Array.from({ length: 5 }, () => 'success'));
    expect(await count('commands')).toBe(commandsBefore + 6);

    // Without a key every request is a new click.
    await sendToLabel({ tagIds: String(labelId), order: '00', value: '30' });
    await sendToLabel({ tagIds: String(labelId), order: '00', value: '30' });
    expect(await count('commands')).toBe(commandsBefore + 10);
  });

  it('refuses a key used for another command or malformed, keeps keys per company, and forgets them after a day', async () => {
    const key = crypto.randomUUID();
    const commandsBefore = await count('commands');
    expect(
      (await sendToLabel({ tagIds: String(labelId), order: '00', value: '30', idempotencyKey: key })).body
        .hhtStatus,
    ).toBe('success');
    for (const changed of [{ order: '00', value: '31' }, { order: '03' }] as Array<Record<string, string>>) {
      expect(
        (await sendToLabel({ tagIds: String(labelId), ...changed, idempotencyKey: key })).body,
      ).toMatchObject({
        hhtStatus: 'fail',
        hhtMsg: 'This request key was already used for another command',
      });
    }
    expect(
      (await operator.post('/sendData/sendPowerUpByTagIds', { tagIds: String(labelId), idempotencyKey: key }))
        .body,
    ).toMatchObject({ hhtStatus: 'fail' });
    expect(
      (await sendToLabel({ tagIds: String(labelId), order: '00', value: '30', idempotencyKey: 'not-a-uuid' }))
        .body,
    ).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The request key is not valid',
    });
    expect(await count('commands')).toBe(commandsBefore + 2);

    // Another company's click with the same key is its own.
    const otherBefore = await count(
      'commands',
      (
        await db()
          .selectFrom('labels')
          .select('org_id')
          .where('id', '=', foreignLabel)
          .executeTakeFirstOrThrow()
      ).org_id,
    );
    const foreign = device.sendCommandByTagIds.reply.parse(
      (
        await sendToLabel(
          { tagIds: String(foreignLabel), order: '00', value: '30', idempotencyKey: key },
          other,
        )
      ).body,
    );
    expect(foreign.dataObject.count).toBe(1);
    expect(
      await count(
        'commands',
        (
          await db()
            .selectFrom('labels')
            .select('org_id')
            .where('id', '=', foreignLabel)
            .executeTakeFirstOrThrow()
        ).org_id,
      ),
    ).toBe(otherBefore + 1);

    server.clock.advance(DAY_MS + 1);
    operator = await operatorClient(server); // the session ended meanwhile
    expect(
      (await sendToLabel({ tagIds: String(labelId), order: '03', idempotencyKey: key })).body.hhtStatus,
    ).toBe('success');
    expect(await count('commands')).toBe(commandsBefore + 4);
  });
});
