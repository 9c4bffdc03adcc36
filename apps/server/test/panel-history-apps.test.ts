import { device, panelHistory } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  operatorClient,
  waitFor,
  type BareDevice,
} from './device-helpers.js';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';

const DAY = 86_400_000;
const app = (appName: string, packageName: string, versionName: string): device.InstalledApp => ({
  appName,
  packageName,
  versionName,
  appSize: 1000,
  appLevel: 0,
});
const FIRST = [
  app('Settings', 'com.android.settings', '12'),
  app('VLC', 'org.videolan.vlc', '3.5.4'),
  app('Zoom', 'us.zoom.videomeetings', '5.17.0'),
];

// Issue 27 item 5: firmware and app version changes in a panel's history; here the apps.
describe.each(backends)("app changes in a panel's history on %s", (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let panel: BareDevice;
  let deviceId: number;
  const since = () => server.clock.now() - DAY;

  const reportApps = (apps: device.InstalledApp[], part?: { id: string; part: number; parts: number }) =>
    panel.client.publishAsync(`pf/v1/d/${panel.key}/apps`, JSON.stringify({ v: 1, apps, ...part }), {
      qos: 1,
    });
  const versions = async () =>
    (
      await server.app.db.kysely
        .selectFrom('device_apps')
        .select(['package_name', 'version_name'])
        .where('device_id', '=', deviceId)
        .orderBy('package_name')
        .execute()
    )
      .map((r) => `${r.package_name}=${r.version_name}`)
      .join(',');
  const appHistory = async () => {
    const reply = await operator.get(
      `/platform/device/history?deviceId=${deviceId}&from=${since()}&to=${server.clock.now() + 1}`,
    );
    expect(reply.body.hhtStatus).toBe('success');
    return panelHistory.panelHistory.parse(reply.body.dataObject).apps;
  };

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await operatorClient(server);
    panel = await connectBare(
      `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      await enroll(server.url, 'APPHIST-1', await enrollmentSecretOf(operator)),
      { autoAck: false },
    );
    deviceId = (
      await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', 'APPHIST-1')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await panel.close();
    await server.stop();
  });

  it('starts from the first list, then lists each app updated, installed and removed with its versions', async () => {
    await reportApps(FIRST);
    await waitFor('the first list', async () => (await versions()).includes('org.videolan.vlc=3.5.4'));
    // The apps a panel had when it first reported were not installed then.
    expect(await appHistory()).toEqual([]);

    server.clock.advance(60_000);
    const changedAt = server.clock.now();
    await reportApps([
      app('Settings', 'com.android.settings', '12'),
      app('VLC', 'org.videolan.vlc', '3.6.0'),
      app('Whiteboard', 'com.panel.board', '2.1.0'),
    ]);
    await waitFor('the second list', async () => (await versions()).includes('com.panel.board=2.1.0'));
    const changes = await appHistory();
    expect(changes.map(({ at, ...c }) => ({ ...c, at: at === changedAt }))).toEqual([
      { at: true, packageName: 'com.panel.board', appName: 'Whiteboard', from: null, to: '2.1.0' },
      { at: true, packageName: 'org.videolan.vlc', appName: 'VLC', from: '3.5.4', to: '3.6.0' },
      { at: true, packageName: 'us.zoom.videomeetings', appName: 'Zoom', from: '5.17.0', to: null },
    ]);
  });

  it('adds nothing for the same list again, and one change for a list sent in parts', async () => {
    const before = await appHistory();
    await reportApps([
      app('Settings', 'com.android.settings', '12'),
      app('VLC', 'org.videolan.vlc', '3.6.0'),
      app('Whiteboard', 'com.panel.board', '2.1.0'),
    ]);
    server.clock.advance(60_000);
    await reportApps([app('Settings', 'com.android.settings', '13')], {
      id: 'report-0002',
      part: 1,
      parts: 2,
    });
    await reportApps(
      [app('VLC', 'org.videolan.vlc', '3.6.0'), app('Whiteboard', 'com.panel.board', '2.1.0')],
      { id: 'report-0002', part: 2, parts: 2 },
    );
    await waitFor('the list in parts', async () => (await versions()).includes('com.android.settings=13'));
    const after = await appHistory();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map(({ at: _at, ...c }) => c)).toEqual([
      { packageName: 'com.android.settings', appName: 'Settings', from: '12', to: '13' },
    ]);
  });
});
