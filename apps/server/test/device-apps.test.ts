import { device, deviceDetail } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  operatorClient,
  waitFor,
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
  {
    appName: 'Zoom',
    packageName: 'us.zoom.videomeetings',
    versionName: '5.17.0',
    appSize: 120_000_000,
    appLevel: 0,
  },
];

describe.each(backends)('device apps and uninstall on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let panel: BareDevice;
  let apps = [...APPS];
  let deviceId: number;

  const list = async (id = deviceId) =>
    deviceDetail.listDeviceApps.reply.parse(
      (await operator.get(`/platform/device/listApp?deviceId=${id}`)).body,
    ).listObject;
  const uninstall = (packageNames: string, id = deviceId, client = operator) =>
    client.post('/platform/device/uninstallApk', { deviceId: String(id), packageNames });
  const reportApps = () =>
    panel.client.publishAsync(`pf/v1/d/${panel.key}/apps`, JSON.stringify({ v: 1, apps }), { qos: 1 });
  const ack = (id: string, result: device.AckResult, detail?: string) =>
    panel.client.publishAsync(
      `pf/v1/d/${panel.key}/ack`,
      JSON.stringify({ v: 1, id, result, ...(detail ? { detail } : {}) }),
      { qos: 1 },
    );
  const uninstallCommands = async () =>
    Number(
      (
        await server.app.db.kysely
          .selectFrom('commands')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('order_code', '=', 'UNINSTALL')
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await operatorClient(server);
    panel = await connectBare(
      `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      await enroll(server.url, 'APPS-0001', await enrollmentSecretOf(operator)),
      { autoAck: false },
    );
    deviceId = (
      await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', 'APPS-0001')
        .executeTakeFirstOrThrow()
    ).id;
    await reportApps();
    await waitFor('the app report', async () => (await list()).length === APPS.length);
  });
  afterAll(async () => {
    await panel.close();
    await server.stop();
  });

  it('lists the reported apps by name with their level and no newer version while no APK repository exists', async () => {
    const rows = await list();
    expect(rows.map((a) => a.appName)).toEqual(['Settings', 'VLC', 'Whiteboard', 'Zoom']);
    expect(rows[0]).toEqual({
      appName: 'Settings',
      packageName: 'com.android.settings',
      versionName: '12',
      newVersionName: null,
      appSize: 1000,
      appLevel: 1,
      iconName: '',
      status: 'normal',
    });
    expect(rows.every((a) => a.status === 'normal' && a.newVersionName === null)).toBe(true);
  });

  it('refuses system apps, unknown apps, an empty choice and other companies, sending nothing', async () => {
    const before = await uninstallCommands();
    expect((await uninstall('com.android.settings')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'System apps cannot be uninstalled',
    });
    expect((await uninstall('com.panel.board,com.android.settings')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'System apps cannot be uninstalled',
    });
    expect((await uninstall('com.example.absent')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The panel does not report this app (com.example.absent); refresh the list',
    });
    expect((await uninstall('')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Please select the apps to uninstall',
    });
    expect((await uninstall('com.panel.board;rm -rf')).body).toMatchObject({ hhtStatus: 'fail' });
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    const other = await operatorClient(server, 'b-operator', 'boperator123');
    expect((await uninstall('com.panel.board', deviceId, other)).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'No such device',
    });
    expect((await other.get(`/platform/device/listApp?deviceId=${deviceId}`)).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'No such device',
    });
    operator.language = 'zh-CN';
    expect((await uninstall('com.android.settings')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: '系统应用不能卸载',
    });
    operator.language = 'en-US';
    expect(await uninstallCommands()).toBe(before);
  });

  it('shows an app as uninstalling while the panel works, refuses a second request, and confirms once the panel has', async () => {
    const pending = uninstall('com.panel.board');
    const command = await waitFor('UNINSTALL at the panel', () =>
      panel.commands.find((c) => c.order === 'UNINSTALL'),
    );
    expect(command.value).toEqual({ packageNames: ['com.panel.board'] });
    await ack(command.id, 'received');
    await waitFor(
      'uninstall status in the list',
      async () => (await list()).find((a) => a.packageName === 'com.panel.board')?.status === 'uninstall',
    );
    expect((await uninstall('com.panel.board')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'An uninstall of this app is already on its way (Whiteboard)',
    });

    apps = apps.filter((a) => a.packageName !== 'com.panel.board');
    await reportApps();
    await ack(command.id, 'succeeded');
    const reply = deviceDetail.uninstallApk.reply.parse((await pending).body);
    expect(reply).toMatchObject({
      hhtMsg: 'Uninstalled',
      appList: [{ packageName: 'com.panel.board', uninstallStatus: true }],
    });
    expect((await list()).map((a) => a.packageName)).not.toContain('com.panel.board');
  });

  it('passes on a refusal of the panel as a fail', async () => {
    const pending = uninstall('org.videolan.vlc');
    const command = await waitFor('the second UNINSTALL', () =>
      panel.commands.find(
        (c) =>
          c.order === 'UNINSTALL' &&
          (c.value as { packageNames: string[] }).packageNames[0] === 'org.videolan.vlc',
      ),
    );
    await ack(command.id, 'failed', 'busy');
    expect((await pending).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The panel refused the uninstall (busy)',
    });
    expect((await list()).find((a) => a.packageName === 'org.videolan.vlc')?.status).toBe('normal');
  });

  it('refuses uninstalling on an offline panel', async () => {
    await panel.close();
    await waitFor(
      'offline',
      async () =>
        deviceDetail.selectByDeviceId.reply.parse(
          (await operator.get(`/platform/device/selectByDeviceId?deviceId=${deviceId}`)).body,
        ).dataObject.isOnline === '0',
    );
    expect((await uninstall('us.zoom.videomeetings')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The device is offline',
    });
    expect((await list()).map((a) => a.packageName)).toContain('us.zoom.videomeetings');
  });
});
