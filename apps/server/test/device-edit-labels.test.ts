import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type SeededAccounts } from '../src/dev/seed-accounts.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';
import { connectBare, enroll, enrollmentSecretOf, waitFor, type BareDevice } from './device-helpers.js';

const THROTTLE = { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } };

interface Fleet {
  operator: TestClient;
  ids: Record<string, number>;
  panels: BareDevice[];
}

/** Enrolls and connects bare panels for the signed-in operator; returns their ids by serial. */
async function fleetOf(server: TestServer, operator: TestClient, serials: string[]): Promise<Fleet> {
  const secret = await enrollmentSecretOf(operator);
  const mqttUrl = `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
  const panels: BareDevice[] = [];
  for (const serial of serials)
    panels.push(await connectBare(mqttUrl, await enroll(server.url, serial, secret)));
  const ids: Record<string, number> = {};
  for (const serial of serials) {
    const list = device.listDevices.reply.parse(
      (await operator.get(`/platform/device/list?start=1&size=10&deviceName=${serial}`)).body,
    );
    ids[serial] = list.listObject.find((d) => d.deviceKey === serial)!.deviceId;
  }
  await waitFor('the panels online', async () => {
    const reply = device.listIsOnlineByDeviceKey.reply.parse(
      (await operator.post('/platform/device/listIsOnlineByDeviceKey', { deviceKeyList: serials.join(',') }))
        .body,
    );
    return reply.listObject.length === serials.length && reply.listObject.every((d) => d.isOnline === '1');
  });
  return { operator, ids, panels };
}

const row = async (operator: TestClient, serial: string) =>
  device.listDevices.reply
    .parse((await operator.get('/platform/device/list?start=1&size=100')).body)
    .listObject.find((d) => d.deviceKey === serial);

const labelsOf = async (operator: TestClient) =>
  Object.fromEntries(
    device.listGroups.reply
      .parse((await operator.get('/platform/group/list')).body)
      .listObject.map((g) => [g.groupName, g.groupId]),
  );

describe.each(backends)('edit device and labels on %s', (backend) => {
  let server: TestServer;
  let a: Fleet;

  beforeAll(async () => {
    server = await startServer(backend, {}, THROTTLE);
    a = await fleetOf(server, await signedIn(server, 'operator1', 'operator123'), [
      'EDIT-0001',
      'EDIT-0002',
      'EDIT-0003',
    ]);
  });
  afterAll(async () => {
    for (const p of a.panels) await p.close();
    await server.stop();
  });

  it('saves name, labels (new names become labels), remark and state, and writes the operation log', async () => {
    const id = a.ids['EDIT-0001']!;
    const reply = await a.operator.post('/platform/device/update', {
      deviceId: String(id),
      deviceName: '  Hall 1 ',
      deviceKey: 'EDIT-0001',
      tag: 'Floor 1-Science- Floor 1',
      remark: 'by the stairs',
      state: '1',
    });
    expect(reply.body).toMatchObject({ hhtStatus: 'success', hhtMsg: 'Device saved' });
    const saved = (await row(a.operator, 'EDIT-0001'))!;
    expect(saved).toMatchObject({
      deviceName: 'Hall 1',
      deviceKey: 'EDIT-0001',
      tag: 'Floor 1-Science',
      remark: 'by the stairs',
      state: 1,
    });
    expect(Object.keys(await labelsOf(a.operator)).sort()).toEqual(['Floor 1', 'Science']);

    // The labels are replaced, not added to.
    await a.operator.post('/platform/device/update', {
      deviceId: String(id),
      deviceName: 'Hall 1',
      deviceKey: 'EDIT-0001',
      tag: 'Science',
      remark: '',
      state: '1',
    });
    expect((await row(a.operator, 'EDIT-0001'))!.tag).toBe('Science');
    const log = await server.app.db.kysely
      .selectFrom('operation_logs')
      .select(['action', 'content', 'user_name'])
      .where('action', '=', 'device.update')
      .execute();
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ user_name: 'operator1' });
    expect(log[0]!.content).toContain('EDIT-0001');
  });

  it('gives selected devices exactly the chosen labels and lists the devices of labels by name', async () => {
    const labels = await labelsOf(a.operator);
    const created = device.insertGroup.reply.parse(
      (await a.operator.post('/platform/group/insert', { groupName: 'Gym' })).body,
    ).dataObject;
    const both = [a.ids['EDIT-0002']!, a.ids['EDIT-0003']!].join(',');
    const saved = await a.operator.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: both,
      groupIds: `${created.groupId},${labels['Floor 1']}`,
    });
    expect(saved.body).toMatchObject({ hhtStatus: 'success', hhtMsg: 'Labels saved' });
    expect((await row(a.operator, 'EDIT-0002'))!.tag).toBe('Floor 1-Gym');
    await a.operator.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: String(a.ids['EDIT-0003']),
      groupIds: String(created.groupId),
    });
    expect((await row(a.operator, 'EDIT-0003'))!.tag).toBe('Gym');

    const page = device.selectByTag.reply.parse(
      (
        await a.operator.post('/platform/device/selectByTag', {
          tags: `${created.groupId},${labels.Science}`,
          start: '1',
          size: '2',
        })
      ).body,
    );
    expect(page.totalRecords).toBe(3);
    expect(page.listObject.map((d) => d.deviceName)).toEqual(['EDIT-0002', 'EDIT-0003']);
    expect(page.listObject[0]).toMatchObject({
      deviceKey: 'EDIT-0002',
      isOnline: '1',
      machineType: 'x9_vn',
      state: 1,
    });
    const second = device.selectByTag.reply.parse(
      (
        await a.operator.post('/platform/device/selectByTag', {
          tags: `${created.groupId},${labels.Science}`,
          start: '2',
          size: '2',
        })
      ).body,
    );
    expect(second.listObject.map((d) => d.deviceName)).toEqual(['Hall 1']);
  });

  it('sends a label command to the enabled devices only, and refuses every command to a disabled device', async () => {
    const labels = await labelsOf(a.operator);
    const id = a.ids['EDIT-0003']!;
    await a.operator.post('/platform/device/update', {
      deviceId: String(id),
      deviceName: 'Store',
      deviceKey: 'EDIT-0003',
      tag: 'Gym',
      remark: '',
      state: '0',
    });
    expect((await row(a.operator, 'EDIT-0003'))!.state).toBe(0);

    const single = await a.operator.post('/sendData/sendCommandByDeviceId', {
      deviceId: String(id),
      order: '00',
      value: '50',
    });
    expect(single.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'This device is disabled; enable it before sending it anything',
    });
    expect(
      (await a.operator.post('/sendData/sendPowerUpByDeviceId', { deviceId: String(id) })).body.hhtStatus,
    ).toBe('fail');

    const sent = await a.operator.post('/sendData/sendCommandByTagIds', {
      tagIds: String(labels.Gym),
      order: '00',
      value: '33',
    });
    expect(sent.body).toMatchObject({ hhtStatus: 'success', dataObject: { count: 1 } });
    const [p2, p3] = [a.panels[1]!, a.panels[2]!];
    await waitFor('the enabled panel to get brightness 33', () =>
      p2.commands.some((c) => c.order === '00' && c.value === 33),
    );
    expect(p3.commands).toEqual([]);

    // A label holding only disabled devices sends nothing.
    await a.operator.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: String(a.ids['EDIT-0002']),
      groupIds: String(labels.Science),
    });
    const none = await a.operator.post('/sendData/sendCommandByTagIds', {
      tagIds: String(labels.Gym),
      order: '03',
    });
    expect(none.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: 'The chosen labels have no devices' });
  });

  it('answers in the caller’s language', async () => {
    const zh = await signedIn(server, 'operator1', 'operator123', 'zh-CN');
    const reply = await zh.post('/platform/device/update', {
      deviceId: String(a.ids['EDIT-0001']),
      deviceName: ' ',
      deviceKey: 'EDIT-0001',
      tag: 'x',
      state: '1',
    });
    expect(reply.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: '请输入设备名称' });
    const noTag = await zh.post('/platform/device/update', {
      deviceId: String(a.ids['EDIT-0001']),
      deviceName: 'x',
      deviceKey: 'EDIT-0001',
      tag: '',
      state: '1',
    });
    expect(noTag.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: '请至少为设备设置一个标签' });
  });
});

describe.each(backends)('device and label probe on %s', (backend) => {
  let server: TestServer;
  let a: Fleet;
  let b: Fleet;
  let other: SeededAccounts;
  let labelA: number;
  let labelB: number;

  beforeAll(async () => {
    server = await startServer(backend, {}, THROTTLE);
    other = await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    a = await fleetOf(server, await signedIn(server, 'operator1', 'operator123'), ['PA-0001', 'PA-0002']);
    b = await fleetOf(server, await signedIn(server, 'b-operator', 'boperator123'), ['PB-0001']);
    await a.operator.post('/platform/device/update', {
      deviceId: String(a.ids['PA-0002']),
      deviceName: 'Off duty',
      deviceKey: 'PA-0002',
      tag: 'Spare',
      remark: '',
      state: '0',
    });
    await a.operator.post('/platform/device/update', {
      deviceId: String(a.ids['PA-0001']),
      deviceName: 'Front',
      deviceKey: 'PA-0001',
      tag: 'Main',
      remark: '',
      state: '1',
    });
    await b.operator.post('/platform/device/update', {
      deviceId: String(b.ids['PB-0001']),
      deviceName: 'B front',
      deviceKey: 'PB-0001',
      tag: 'B main',
      remark: 'b',
      state: '1',
    });
    labelA = (await labelsOf(a.operator)).Main!;
    labelB = (await labelsOf(b.operator))['B main']!;
  });
  afterAll(async () => {
    for (const p of [...a.panels, ...b.panels]) await p.close();
    await server.stop();
  });

  const snapshot = async () => ({
    devices: await server.app.db.kysely
      .selectFrom('devices')
      .select(['id', 'org_id', 'name', 'remark', 'state', 'device_key'])
      .orderBy('id')
      .execute(),
    groups: await server.app.db.kysely
      .selectFrom('labels')
      .select(['id', 'org_id', 'name'])
      .orderBy('id')
      .execute(),
    members: await server.app.db.kysely
      .selectFrom('label_devices')
      .selectAll()
      .orderBy('label_id')
      .orderBy('device_id')
      .execute(),
    commands: await server.app.db.kysely
      .selectFrom('commands')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  });

  it('refuses every bad edit, label and command call with a clear fail, and changes or sends nothing', async () => {
    const before = await snapshot();
    const pa1 = String(a.ids['PA-0001']);
    const pa2 = String(a.ids['PA-0002']);
    const pb1 = String(b.ids['PB-0001']);
    const edit = (over: Record<string, string>) => ({
      deviceId: pa1,
      deviceName: 'Front',
      deviceKey: 'PA-0001',
      tag: 'Main',
      remark: '',
      state: '1',
      ...over,
    });
    const probes: Array<[string, string, Record<string, string>, string?]> = [
      [
        'edit: another tenant’s device',
        '/platform/device/update',
        edit({ deviceId: pb1, deviceKey: 'PB-0001' }),
        'No such device',
      ],
      [
        'edit: a device that does not exist',
        '/platform/device/update',
        edit({ deviceId: '987654' }),
        'No such device',
      ],
      ['edit: id not a number', '/platform/device/update', edit({ deviceId: 'abc' })],
      [
        'edit: empty name',
        '/platform/device/update',
        edit({ deviceName: '   ' }),
        'Please enter the device name',
      ],
      ['edit: no name', '/platform/device/update', (({ deviceName: _, ...rest }) => rest)(edit({}))],
      ['edit: name too long', '/platform/device/update', edit({ deviceName: 'x'.repeat(65) })],
      ['edit: Chinese name too long', '/platform/device/update', edit({ deviceName: '教'.repeat(33) })],
      [
        'edit: no tag',
        '/platform/device/update',
        edit({ tag: '' }),
        'Please give the device at least one label',
      ],
      [
        'edit: only dashes',
        '/platform/device/update',
        edit({ tag: ' - - ' }),
        'Please give the device at least one label',
      ],
      [
        'edit: 21 tags',
        '/platform/device/update',
        edit({ tag: Array.from({ length: 21 }, (_, i) => `t${i}`).join('-') }),
      ],
      ['edit: tag too long', '/platform/device/update', edit({ tag: 'y'.repeat(33) })],
      [
        'edit: remark over the limit',
        '/platform/device/update',
        edit({ remark: 'r'.repeat(201) }),
        'The remark may be at most 200 characters long',
      ],
      ['edit: state 2', '/platform/device/update', edit({ state: '2' })],
      ['edit: no state', '/platform/device/update', (({ state: _, ...rest }) => rest)(edit({}))],
      [
        'edit: serial changed',
        '/platform/device/update',
        edit({ deviceKey: 'PA-9999' }),
        'The serial number cannot be changed',
      ],
      ['edit: another device’s serial', '/platform/device/update', edit({ deviceKey: 'PA-0002' })],
      [
        'labels: another tenant’s device',
        '/platform/group/saveGroupsAndDevices',
        { deviceIds: `${pa1},${pb1}`, groupIds: String(labelA) },
        'No such device',
      ],
      [
        'labels: another tenant’s label',
        '/platform/group/saveGroupsAndDevices',
        { deviceIds: pa1, groupIds: `${labelA},${labelB}` },
        'No such label',
      ],
      [
        'labels: missing ids',
        '/platform/group/saveGroupsAndDevices',
        { deviceIds: '987654', groupIds: String(labelA) },
      ],
      [
        'labels: no device',
        '/platform/group/saveGroupsAndDevices',
        { deviceIds: '', groupIds: String(labelA) },
        'Please select at least one device',
      ],
      ['labels: no label', '/platform/group/saveGroupsAndDevices', { deviceIds: pa1, groupIds: '' }],
      [
        'labels: not ids',
        '/platform/group/saveGroupsAndDevices',
        { deviceIds: 'x,1', groupIds: String(labelA) },
      ],
      ['label: empty name', '/platform/group/insert', { groupName: ' ' }, 'Please enter the label name'],
      [
        'label: dash in name',
        '/platform/group/insert',
        { groupName: 'a-b' },
        "A label name cannot contain '-'",
      ],
      ['label: name too long', '/platform/group/insert', { groupName: '教'.repeat(17) }],
      ['label: taken name', '/platform/group/insert', { groupName: 'Main' }, 'A label with this name exists'],
      [
        'label devices: another tenant’s label',
        '/platform/device/selectByTag',
        { tags: String(labelB), start: '1', size: '5' },
        'No such label',
      ],
      [
        'label devices: no label',
        '/platform/device/selectByTag',
        { tags: '', start: '1', size: '5' },
        'Please tick at least one label',
      ],
      [
        'command: unknown order',
        '/sendData/sendCommandByDeviceId',
        { deviceId: pa1, order: 'ZZ', value: '1' },
        'Unknown order',
      ],
      [
        'command: order 05',
        '/sendData/sendCommandByDeviceId',
        { deviceId: pa1, order: '05', value: '1' },
        'Unknown order',
      ],
      [
        'command: relay order from outside',
        '/sendData/sendCommandByDeviceId',
        { deviceId: pa1, order: 'WAKE', value: '{}' },
      ],
      [
        'command: brightness 101',
        '/sendData/sendCommandByDeviceId',
        { deviceId: pa1, order: '00', value: '101' },
        'The value does not fit this order',
      ],
      [
        'command: brightness -1',
        '/sendData/sendCommandByDeviceId',
        { deviceId: pa1, order: '00', value: '-1' },
      ],
      [
        'command: brightness text',
        '/sendData/sendCommandByDeviceId',
        { deviceId: pa1, order: '00', value: 'bright' },
      ],
      ['command: volume missing', '/sendData/sendCommandByDeviceId', { deviceId: pa1, order: '01' }],
      [
        'command: bad source',
        '/sendData/sendCommandByDeviceId',
        { deviceId: pa1, order: '04', value: 'hdmi 1; rm' },
      ],
      [
        'command: unknown key',
        '/sendData/sendCommandByDeviceId',
        { deviceId: pa1, order: '08', value: 'jump' },
      ],
      [
        'command: mute maybe',
        '/sendData/sendCommandByDeviceId',
        { deviceId: pa1, order: '07', value: 'maybe' },
      ],
      [
        'command: another tenant’s device',
        '/sendData/sendCommandByDeviceId',
        { deviceId: pb1, order: '00', value: '50' },
        'No such device',
      ],
      ['command: missing device', '/sendData/sendCommandByDeviceId', { deviceId: '987654', order: '03' }],
      [
        'command: disabled device',
        '/sendData/sendCommandByDeviceId',
        { deviceId: pa2, order: '01', value: '20' },
      ],
      ['power on: another tenant’s device', '/sendData/sendPowerUpByDeviceId', { deviceId: pb1 }],
      ['power on: disabled device', '/sendData/sendPowerUpByDeviceId', { deviceId: pa2 }],
      [
        'label command: another tenant’s label',
        '/sendData/sendCommandByTagIds',
        { tagIds: String(labelB), order: '00', value: '50' },
        'No such label',
      ],
      [
        'label command: own and foreign label',
        '/sendData/sendCommandByTagIds',
        { tagIds: `${labelA},${labelB}`, order: '00', value: '50' },
        'No such label',
      ],
      ['label command: missing label', '/sendData/sendCommandByTagIds', { tagIds: '987654', order: '02' }],
      [
        'label command: no label',
        '/sendData/sendCommandByTagIds',
        { tagIds: '', order: '02' },
        'Please tick at least one label',
      ],
      [
        'label command: unknown order',
        '/sendData/sendCommandByTagIds',
        { tagIds: String(labelA), order: 'XX' },
      ],
      [
        'label command: source by label',
        '/sendData/sendCommandByTagIds',
        { tagIds: String(labelA), order: '04', value: 'hdmi1' },
        'This order cannot be sent to a label',
      ],
      [
        'label command: volume 300',
        '/sendData/sendCommandByTagIds',
        { tagIds: String(labelA), order: '01', value: '300' },
      ],
      [
        'label power on: another tenant’s label',
        '/sendData/sendPowerUpByTagIds',
        { tagIds: String(labelB) },
        'No such label',
      ],
    ];

    let refused = 0;
    const leaks: string[] = [];
    for (const [name, url, form, message] of probes) {
      const reply = await a.operator.post(url, form);
      const clear =
        reply.body.hhtStatus === 'fail' &&
        reply.status < 500 &&
        typeof reply.body.hhtMsg === 'string' &&
        (message === undefined || reply.body.hhtMsg === message);
      if (clear) refused++;
      else leaks.push(`${name} -> ${reply.status} ${reply.text}`);
    }
    // Reads: the other tenant's devices, labels and presence are never shown.
    const reads: Array<[string, () => Promise<boolean>]> = [
      [
        'device list',
        async () =>
          !JSON.stringify((await a.operator.get('/platform/device/list?start=1&size=100')).body).includes(
            'PB-0001',
          ),
      ],
      [
        'device search',
        async () =>
          device.listDevices.reply.parse(
            (await a.operator.get('/platform/device/list?start=1&size=5&deviceName=B')).body,
          ).totalRecords === 0,
      ],
      [
        'online state',
        async () =>
          device.listIsOnlineByDeviceKey.reply
            .parse(
              (
                await a.operator.post('/platform/device/listIsOnlineByDeviceKey', {
                  deviceKeyList: 'PB-0001,PA-0001',
                })
              ).body,
            )
            .listObject.every((d) => d.deviceKey !== 'PB-0001'),
      ],
      [
        'label list',
        async () => !JSON.stringify((await a.operator.get('/platform/group/list')).body).includes('B main'),
      ],
      [
        'bad cursor',
        async () =>
          (await a.operator.get('/platform/device/list?start=2&size=5&cursor=not-a-cursor')).body
            .hhtStatus === 'fail',
      ],
    ];
    for (const [name, check] of reads) {
      if (await check()) refused++;
      else leaks.push(`read: ${name}`);
    }
    const calls = probes.length + reads.length;
    console.log(`device and label probe (${backend}): ${refused} of ${calls} refused`);
    expect(leaks).toEqual([]);
    expect(refused).toBe(calls);
    expect(await snapshot()).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const panel of [...a.panels, ...b.panels]) expect(panel.commands).toEqual([]);
    expect(other.customerId).not.toBe(server.accounts.customerId);
  });

  it('refuses device and label calls to user types that do not manage devices', async () => {
    for (const [userName, password] of [
      ['manager1', 'manager123'],
      ['sales1', 'sales123'],
    ] as const) {
      const client = await signedIn(server, userName, password);
      for (const [url, form] of [
        [
          '/platform/device/update',
          { deviceId: String(a.ids['PA-0001']), deviceName: 'x', deviceKey: 'PA-0001', tag: 'x', state: '1' },
        ],
        [
          '/platform/group/saveGroupsAndDevices',
          { deviceIds: String(a.ids['PA-0001']), groupIds: String(labelA) },
        ],
        ['/platform/device/selectByTag', { tags: String(labelA) }],
      ] as const) {
        const reply = await client.post(url, form);
        expect(reply.body.hhtStatus).toBe('fail');
        expect(reply.status).toBe(403);
      }
      expect((await client.get('/platform/device/list?start=1&size=5')).status).toBe(403);
    }
  });
});
