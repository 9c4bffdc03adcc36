import { apk, device, deviceDetail, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { apkSigner, buildApk, type ApkSigner, type ApkSpec } from './apk-fixtures.js';
import { enroll, enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import { backends, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';
import { ForwardingProxy, tusCreate, tusPatch, tusTarget } from './ota-helpers.js';

// Installs to labels with a row per panel, the device detail's Renew, and the card lock that
// keeps a version while an install of it is being made.
describe.each(backends)('APK installs to labels, install tasks and Renew on %s', (backend) => {
  let server: TestServer;
  let proxy: ForwardingProxy;
  let operator: TestClient;
  let other: TestClient;
  let fleet: Fleet;
  let signer: ApkSigner;
  let devices: Array<{ id: number; device_key: string }>;
  const versions = new Map<string, number>();

  const fail = (key: string, vars?: Record<string, string | number>) => ({
    hhtStatus: 'fail',
    hhtMsg: translate('en-US', key, vars),
  });
  const ok = (reply: { body: Record<string, unknown>; text: string }, what: string) => {
    if (reply.body.hhtStatus !== 'success') throw new Error(`${what}: ${reply.text}`);
    return reply.body;
  };
  const panelOf = (i: number) => fleet.panels.find((p) => p.serial === devices[i]!.device_key)!;

  /** Uploads an APK: a new card for its first version, else a new version of its card. */
  async function publish(spec: ApkSpec) {
    const content = await buildApk(spec, signer);
    const t = tusTarget(server.url, operator);
    const created = await tusCreate(t, content.length, `${spec.packageName}.apk`, 'apk');
    await tusPatch(t, created.uploadId!, 0, content);
    const cardOf = versions.get(spec.packageName);
    const reply = apk.uploadApk.reply.parse(
      ok(
        cardOf === undefined
          ? await operator.post('/apkUpgrade/uploadApkPackage', {
              uploadId: created.uploadId!,
              mark: 'R-E-N-W',
            })
          : await operator.post('/apkUpgrade/uploadNewApkPackage', {
              uploadId: created.uploadId!,
              apkMarkId: String(cardOf),
            }),
        `upload ${spec.packageName}`,
      ),
    ).dataObject;
    versions.set(spec.packageName, reply.apkMarkId);
    return reply.apkVersionId;
  }

  const install = (apkVersionId: number, to: { deviceIds?: string; tagIds?: string }, client = operator) =>
    client.post('/apkUpgrade/install', { apkVersionId: String(apkVersionId), ...to });
  const renew = (deviceId: number, packageNames: string, client = operator) =>
    client.post('/platform/device/upgradeApk', { deviceId: String(deviceId), packageNames });
  const appsOf = async (deviceId: number, client = operator) =>
    deviceDetail.listDeviceApps.reply.parse(
      ok(await client.get(`/platform/device/listApp?deviceId=${deviceId}`), 'apps'),
    ).listObject;
  const taskDevices = async (taskId: number) =>
    apk.listApkTaskDevices.reply.parse(
      ok(
        await operator.get(`/apkUpgrade/listInstallTaskDevices?apkTaskId=${taskId}&start=1&size=50`),
        'rows',
      ),
    ).listObject;
  const apkTasks = async () =>
    Number(
      (
        await server.app.db.kysely
          .selectFrom('rollout_tasks')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('kind', '=', 'apk')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const reported = (deviceId: number, packageName: string) =>
    waitFor(`${packageName} reported`, async () =>
      (await appsOf(deviceId)).find((a) => a.packageName === packageName),
    );

  async function labelOf(name: string, deviceIds: number[], client = operator) {
    const label = device.insertGroup.reply.parse(
      ok(await client.post('/platform/group/insert', { groupName: name }), 'label'),
    );
    if (deviceIds.length)
      ok(
        await client.post('/platform/group/saveGroupsAndDevices', {
          deviceIds: deviceIds.join(','),
          groupIds: String(label.dataObject.groupId),
        }),
        'label members',
      );
    return label.dataObject.groupId;
  }

  beforeAll(async () => {
    proxy = new ForwardingProxy();
    const base = await proxy.listen();
    server = await startServer(
      backend,
      { BASE_URL: base },
      {
        rollout: { tickMs: 100, jitterMs: 0, leaseMs: 5000 },
        throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
      },
    );
    proxy.target = Number(new URL(server.url).port);
    operator = await operatorClient(server);
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'r-operator', password: 'roperator123', userType: '4' },
    ]);
    other = await operatorClient(server, 'r-operator', 'roperator123');
    signer = apkSigner('Renew Fixture');
    fleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(operator),
      count: 3,
      prefix: 'APKR',
      telemetryMs: 3_600_000,
      progressMs: 20,
      abnormalLogChance: 0,
      log: () => undefined,
    });
    devices = await waitFor('panels enrolled', async () => {
      await server.app.devices.gateway.flushState();
      const rows = await server.app.db.kysely
        .selectFrom('devices')
        .select(['id', 'device_key'])
        .where('device_key', 'like', 'APKR-%')
        .orderBy('id')
        .execute();
      return rows.length === 3 ? rows : undefined;
    });
  });
  afterAll(async () => {
    await fleet?.stop();
    await server?.stop();
    await proxy?.close();
  });

  it("installs to a label: a row per panel with its state, download % and the panel's failure reason", async () => {
    const v1 = await publish({
      packageName: 'com.riverside.reader',
      versionCode: 1,
      versionName: '1.0.0',
      label: 'Reader',
      padding: 1024 * 1024,
    });
    const label = await labelOf('Reader rooms', [devices[0]!.id, devices[1]!.id]);
    panelOf(1).failNextApk = 'install';
    // Panel 0's download crawls, so that it is seen downloading with a percentage.
    proxy.slow.add(devices[0]!.device_key);
    const task = apk.installApk.reply.parse(
      ok(await install(v1, { tagIds: String(label) }), 'install'),
    ).dataObject;
    expect(task).toMatchObject({ deviceCount: 2, skippedCount: 0 });
    const downloading = await waitFor('panel 0 downloading', async () =>
      (await taskDevices(task.taskId)).find((r) => r.state === 'downloading' && r.progress !== null),
    );
    expect(downloading).toMatchObject({ deviceKey: devices[0]!.device_key, versionUpdate: '1.0.0' });
    expect(downloading.progress).toBeGreaterThanOrEqual(0);
    expect(downloading.progress).toBeLessThanOrEqual(100);
    proxy.slow.clear();
    const rows = await waitFor('installs finished', async () => {
      const all = await taskDevices(task.taskId);
      return all.every((r) => ['succeeded', 'failed'].includes(r.state)) ? all : undefined;
    });
    expect(rows.map((r) => [r.deviceKey, r.state, r.reason, r.versionCurrent])).toEqual([
      [devices[0]!.device_key, 'succeeded', '', '1.0.0'],
      [devices[1]!.device_key, 'failed', 'install', ''],
    ]);
    const listed = apk.listApkTasks.reply.parse(
      ok(await operator.get(`/apkUpgrade/listInstallTasks?start=1&size=10&apkVersionId=${v1}`), 'tasks'),
    ).listObject;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      apkTaskId: task.taskId,
      packageName: 'com.riverside.reader',
      versionName: '1.0.0',
      target: 'labels',
      total: 2,
    });
    expect(listed[0]!.counts).toMatchObject({ succeeded: 1, failed: 1 });
    // A finished task cannot be cancelled.
    await waitFor('task completed', async () => {
      const one = apk.getApkTask.reply.parse(
        ok(await operator.get(`/apkUpgrade/selectInstallTask?apkTaskId=${task.taskId}`), 'task'),
      ).dataObject;
      return one.state === 'completed' ? one : undefined;
    });
    expect(
      (await operator.post('/apkUpgrade/cancelInstallTask', { apkTaskId: String(task.taskId) })).body,
    ).toMatchObject(fail('ota.taskFinished'));
  });

  it('refuses installs to no target, to both, to unknown, foreign or empty labels, and foreign tasks; nothing is made', async () => {
    const version = versions.get('com.riverside.reader')!;
    const anyVersion = (
      await server.app.db.kysely
        .selectFrom('apk_versions')
        .select('id')
        .where('mark_id', '=', version)
        .executeTakeFirstOrThrow()
    ).id;
    const before = await apkTasks();
    const foreignLabel = await labelOf('Elsewhere', [], other);
    const emptyLabel = await labelOf('Empty room', []);
    expect((await install(anyVersion, {})).body).toMatchObject(fail('apk.selectTarget'));
    expect(
      (await install(anyVersion, { deviceIds: String(devices[0]!.id), tagIds: String(emptyLabel) })).body,
    ).toMatchObject(fail('apk.devicesOrLabels'));
    expect((await install(anyVersion, { tagIds: '987654' })).body).toMatchObject(fail('label.notFound'));
    expect((await install(anyVersion, { tagIds: String(foreignLabel) })).body).toMatchObject(
      fail('label.notFound'),
    );
    expect((await install(anyVersion, { tagIds: String(emptyLabel) })).body).toMatchObject(
      fail('ota.noDevices'),
    );
    expect((await install(anyVersion, { deviceIds: String(devices[0]!.id) }, other)).body).toMatchObject(
      fail('apk.versionNotFound'),
    );
    operator.language = 'zh-CN';
    expect((await install(anyVersion, { tagIds: 'x' })).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('zh-CN', 'label.notFound'),
    });
    operator.language = 'en-US';
    expect(await apkTasks()).toBe(before);
    const mine = (
      await server.app.db.kysely
        .selectFrom('rollout_tasks')
        .select('id')
        .where('kind', '=', 'apk')
        .executeTakeFirstOrThrow()
    ).id;
    for (const path of [
      `/apkUpgrade/listInstallTaskDevices?apkTaskId=${mine}&start=1&size=10`,
      `/apkUpgrade/selectInstallTask?apkTaskId=${mine}`,
    ])
      expect((await other.get(path)).body).toMatchObject(fail('apk.taskNotFound'));
    expect(
      (await other.post('/apkUpgrade/cancelInstallTask', { apkTaskId: String(mine) })).body,
    ).toMatchObject(fail('apk.taskNotFound'));
  });

  it('Renew: the apps tab offers a newer version of the same package and signer, and the panel installs it', async () => {
    const before = await appsOf(devices[0]!.id);
    expect(before.find((a) => a.packageName === 'com.riverside.reader')).toMatchObject({
      versionName: '1.0.0',
      newVersionName: null,
    });
    await publish({
      packageName: 'com.riverside.reader',
      versionCode: 2,
      versionName: '2.0.0',
      label: 'Reader',
    });
    const offered = await appsOf(devices[0]!.id);
    expect(offered.find((a) => a.packageName === 'com.riverside.reader')!.newVersionName).toBe('2.0.0');
    // A system app and apps the repository does not hold offer nothing.
    expect(offered.filter((a) => a.newVersionName !== null).map((a) => a.packageName)).toEqual([
      'com.riverside.reader',
    ]);
    const reply = deviceDetail.upgradeApk.reply.parse(
      ok(await renew(devices[0]!.id, 'com.riverside.reader'), 'renew'),
    );
    expect(reply.hhtMsg).toBe(translate('en-US', 'apk.renewStarted', { names: 'Reader' }));
    expect(reply.dataObject.tasks).toEqual([
      { packageName: 'com.riverside.reader', versionName: '2.0.0', taskId: expect.any(Number) },
    ]);
    await waitFor('renewed', async () => {
      const [row] = await taskDevices(reply.dataObject.tasks[0]!.taskId);
      return row?.state === 'succeeded' && row.versionCurrent === '2.0.0' ? row : undefined;
    });
    expect(
      (await appsOf(devices[0]!.id)).find((a) => a.packageName === 'com.riverside.reader'),
    ).toMatchObject({
      versionName: '2.0.0',
      newVersionName: null,
    });
  });

  it('refuses Renew with the reason: no newer version, another signer, unknown signer, a system app, an install on its way, an offline panel, another company', async () => {
    const d0 = devices[0]!.id;
    const before = await apkTasks();
    expect((await renew(d0, 'com.riverside.reader')).body).toMatchObject(
      fail('apk.renewNoNewer', { name: 'Reader' }),
    );
    expect((await renew(d0, 'com.android.settings')).body).toMatchObject(fail('apk.renewSystemApp'));
    expect((await renew(d0, 'com.nowhere.app')).body).toMatchObject(
      fail('deviceManage.apkUnknown', { name: 'com.nowhere.app' }),
    );
    expect((await renew(d0, '')).body).toMatchObject(fail('deviceManage.SelectApkRenew'));

    // A preinstalled app of another vendor: the repository's card of that package is signed by
    // our certificate, so Android would refuse it as an update.
    const holder = (await appsOf(d0)).find(
      (a) => a.appLevel === 0 && a.packageName !== 'com.riverside.reader',
    )!;
    await publish({
      packageName: holder.packageName,
      versionCode: 99_999_999,
      versionName: '99',
      label: 'Other',
    });
    expect((await appsOf(d0)).find((a) => a.packageName === holder.packageName)!.newVersionName).toBeNull();
    expect((await renew(d0, holder.packageName)).body).toMatchObject(
      fail('apk.renewSignerDiffers', { name: holder.appName }),
    );

    // An app reported without versionCode and signer (older firmware) cannot be checked.
    const panel = panelOf(0);
    panel.apps = [
      ...panel.apps,
      { appName: 'Legacy', packageName: 'com.riverside.legacy', versionName: '1', appSize: 10, appLevel: 0 },
    ];
    await panel.publishApps();
    await reported(d0, 'com.riverside.legacy');
    await publish({ packageName: 'com.riverside.legacy', versionCode: 5, versionName: '5', label: 'Legacy' });
    expect((await renew(d0, 'com.riverside.legacy')).body).toMatchObject(
      fail('apk.renewSignerUnknown', { name: 'Legacy' }),
    );
    // All or nothing: one app that cannot be renewed refuses the others too.
    expect((await renew(d0, 'com.riverside.legacy,com.riverside.reader')).body).toMatchObject({
      hhtStatus: 'fail',
    });

    // Another company's operator: the panel reads as missing, to the list and to Renew.
    expect((await renew(d0, 'com.riverside.reader', other)).body).toMatchObject(fail('device.notFound'));
    expect((await other.get(`/platform/device/listApp?deviceId=${d0}`)).body).toMatchObject(
      fail('device.notFound'),
    );
    operator.language = 'zh-CN';
    expect((await renew(d0, 'com.android.settings')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('zh-CN', 'apk.renewSystemApp'),
    });
    operator.language = 'en-US';
    expect(await apkTasks()).toBe(before);

    // An install of the package on its way to the panel: a second is refused.
    const d2 = devices[2]!;
    const big1 = await publish({
      packageName: 'com.riverside.atlas',
      versionCode: 1,
      versionName: '1',
      label: 'Atlas',
    });
    ok(await install(big1, { deviceIds: String(d2.id) }), 'atlas 1');
    await reported(d2.id, 'com.riverside.atlas');
    const big2 = await publish({
      packageName: 'com.riverside.atlas',
      versionCode: 2,
      versionName: '2',
      label: 'Atlas',
      padding: 3 * 1024 * 1024,
    });
    proxy.slow.add(d2.device_key);
    const slow = apk.installApk.reply.parse(
      ok(await install(big2, { deviceIds: String(d2.id) }), 'atlas 2'),
    ).dataObject;
    expect((await renew(d2.id, 'com.riverside.atlas')).body).toMatchObject(
      fail('apk.renewRunning', { name: 'Atlas' }),
    );
    ok(await operator.post('/apkUpgrade/cancelInstallTask', { apkTaskId: String(slow.taskId) }), 'cancel');
    proxy.slow.clear();

    // An offline panel: refused as every command to it is.
    await panelOf(1).powerOff();
    await waitFor('panel 1 offline', async () =>
      server.app.devices.gateway.isOnline(devices[1]!.device_key) ? undefined : true,
    );
    expect((await renew(devices[1]!.id, 'com.riverside.reader')).body).toMatchObject(fail('device.offline'));
  });

  it('deleting a version while installs of it are made: either the delete or the installs are refused, never both kept', async () => {
    // A panel that never connects: its install rows stay queued, so the task stays unfinished.
    const quiet = await enroll(server.url, 'APKR-QUIET', await enrollmentSecretOf(operator));
    const quietId = (
      await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', quiet.deviceKey)
        .executeTakeFirstOrThrow()
    ).id;
    const outcomes = { deleted: 0, installed: 0 };
    for (let round = 0; round < 12; round++) {
      const packageName = `com.riverside.race${round}`;
      await publish({ packageName, versionCode: 1, versionName: '1', label: `Race ${round}` });
      const v2 = await publish({ packageName, versionCode: 2, versionName: '2', label: `Race ${round}` });
      // The delete goes first, between or last, so each interleaving gets its chance.
      const calls = [
        () => install(v2, { deviceIds: String(quietId) }),
        () => install(v2, { deviceIds: String(quietId) }),
      ];
      // ... and a little later each round, so that it also lands inside an install's own steps.
      calls.splice(round % 3, 0, async () => {
        await new Promise((resolve) => setTimeout(resolve, round % 4));
        return operator.post('/apkUpgrade/deleteApkUpgrade', { apkVersionId: String(v2) });
      });
      const replies = await Promise.all(calls.map((call) => call()));
      const deleteReply = replies.splice(round % 3, 1)[0]!;
      const deleted = deleteReply.body.hhtStatus === 'success';
      const installs = replies.filter((r) => r.body.hhtStatus === 'success').length;
      if (deleted) {
        expect(installs).toBe(0);
        for (const r of replies) expect(r.body).toMatchObject(fail('apk.versionNotFound'));
        outcomes.deleted++;
      } else {
        expect(installs).toBe(2);
        // The count is of the installs made before the delete looked.
        expect([1, 2].map((count) => translate('en-US', 'apk.versionInUse', { count }))).toContain(
          deleteReply.body.hhtMsg,
        );
        outcomes.installed++;
      }
    }
    // No install task names a version that is gone.
    const orphans = await server.app.db.kysely
      .selectFrom('rollout_tasks')
      .select('id')
      .where('kind', '=', 'apk')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('apk_versions')
              .select('id')
              .whereRef('apk_versions.id', '=', 'rollout_tasks.payload_id'),
          ),
        ),
      )
      .execute();
    expect(orphans).toEqual([]);
    expect(outcomes.deleted + outcomes.installed).toBe(12);
  });
});
