import { apk, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';
import { enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import { ForwardingProxy, tusCreate, tusPatch, tusTarget } from './ota-helpers.js';
import { apkSigner, buildApk, type ApkSigner } from './apk-fixtures.js';

describe.each(backends)('APK installs on simulated panels on %s', (backend) => {
  let server: TestServer;
  let proxy: ForwardingProxy;
  let operator: TestClient;
  let fleet: Fleet;
  let signer: ApkSigner;
  let devices: Array<{ id: number; device_key: string }>;

  const ok = (reply: { body: Record<string, unknown>; text: string }, what: string) => {
    if (reply.body.hhtStatus !== 'success') throw new Error(`${what}: ${reply.text}`);
    return reply.body;
  };

  async function upload(content: Buffer) {
    const t = tusTarget(server.url, operator);
    const created = await tusCreate(t, content.length, 'app.apk', 'apk');
    await tusPatch(t, created.uploadId!, 0, content);
    return created.uploadId!;
  }

  const targets = (taskId: number) =>
    server.app.db.kysely
      .selectFrom('rollout_targets')
      .innerJoin('devices', 'devices.id', 'rollout_targets.device_id')
      .select(['devices.device_key', 'rollout_targets.state', 'rollout_targets.reason'])
      .where('task_id', '=', taskId)
      .orderBy('devices.id')
      .execute();
  const appsOf = (deviceId: number, packageName: string) =>
    server.app.db.kysely
      .selectFrom('device_apps')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('package_name', '=', packageName)
      .execute();

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
    signer = apkSigner('Install Fixture');
    fleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(operator),
      count: 3,
      prefix: 'APKI',
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
        .where('device_key', 'like', 'APKI-%')
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

  it('installs a version on chosen panels: they download, verify, install and report the app; a told failure carries its reason', async () => {
    const card = apk.uploadApk.reply.parse(
      ok(
        await operator.post('/apkUpgrade/uploadApkPackage', {
          uploadId: await upload(
            await buildApk(
              { packageName: 'com.riverside.quiz', versionCode: 4, versionName: '4.0.0', label: 'Quiz' },
              signer,
            ),
          ),
          mark: 'Q-U-I-Z',
        }),
        'card',
      ),
    ).dataObject;
    const failing = fleet.panels.find((p) => p.serial === devices[2]!.device_key)!;
    failing.failNextApk = 'install';
    const task = apk.installApk.reply.parse(
      ok(
        await operator.post('/apkUpgrade/install', {
          apkVersionId: String(card.apkVersionId),
          deviceIds: devices.map((d) => d.id).join(','),
        }),
        'install',
      ),
    ).dataObject;
    expect(task).toMatchObject({ deviceCount: 3, skippedCount: 0 });
    const done = await waitFor('installs finished', async () => {
      const rows = await targets(task.taskId);
      return rows.every((r) => ['succeeded', 'failed'].includes(r.state)) ? rows : undefined;
    });
    expect(done.map((r) => [r.device_key, r.state, r.reason])).toEqual([
      [devices[0]!.device_key, 'succeeded', ''],
      [devices[1]!.device_key, 'succeeded', ''],
      [devices[2]!.device_key, 'failed', 'install'],
    ]);
    // The panels' own reports: the app list holds the new app, the download counters are full.
    for (const d of devices.slice(0, 2)) {
      const rows = await waitFor('app reported', async () => {
        const found = await appsOf(d.id, 'com.riverside.quiz');
        return found.length ? found : undefined;
      });
      expect(rows[0]).toMatchObject({ version_name: '4.0.0', app_level: 0 });
    }
    expect(await appsOf(devices[2]!.id, 'com.riverside.quiz')).toEqual([]);
    const panel = await waitFor('download counters reported', async () => {
      await server.app.devices.gateway.flushState();
      const row = await server.app.db.kysely
        .selectFrom('devices')
        .select(['apk_current', 'apk_total'])
        .where('id', '=', devices[0]!.id)
        .executeTakeFirstOrThrow();
      return Number(row.apk_total) > 0 ? row : undefined;
    });
    expect(Number(panel.apk_current)).toBe(Number(panel.apk_total));
  });

  it("refuses installing to no panel, to another company's panel, and by a type that does not operate panels", async () => {
    const anyVersion = await server.app.db.kysely
      .selectFrom('apk_versions')
      .select('id')
      .executeTakeFirstOrThrow();
    const none = await operator.post('/apkUpgrade/install', {
      apkVersionId: String(anyVersion.id),
      deviceIds: '',
    });
    expect(none.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', 'apk.selectTarget') });
    const foreign = await operator.post('/apkUpgrade/install', {
      apkVersionId: String(anyVersion.id),
      deviceIds: `${devices[0]!.id},987654`,
    });
    expect(foreign.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', 'device.notFound') });
    const sales = await signedIn(server, 'sales1', 'sales123');
    const refused = await sales.post('/apkUpgrade/install', {
      apkVersionId: String(anyVersion.id),
      deviceIds: String(devices[0]!.id),
    });
    expect(refused.body).toMatchObject({ hhtStatus: 'fail' });
    const tasks = await server.app.db.kysely
      .selectFrom('rollout_tasks')
      .select('id')
      .where('kind', '=', 'apk')
      .execute();
    expect(tasks).toHaveLength(1);
  });

  it('skips, before sending, a panel whose installed app of the package has another signer (as Renew refuses it)', async () => {
    // A preinstalled app of another vendor on the first panel: our APK of that package is signed
    // by our certificate, so Android would refuse it as an update.
    const reported = await waitFor('apps reported', async () => {
      const rows = await server.app.db.kysely
        .selectFrom('device_apps')
        .select(['device_id', 'package_name', 'signer_sha256'])
        .where(
          'device_id',
          'in',
          devices.map((d) => d.id),
        )
        .where('app_level', '=', 0)
        .where('signer_sha256', '<>', '')
        .execute();
      return rows.some((r) => r.device_id === devices[0]!.id) ? rows : undefined;
    });
    const held = reported.find((r) => r.device_id === devices[0]!.id)!;
    expect(held.signer_sha256).not.toBe(signer.sha256);
    const holders = new Set(
      reported.filter((r) => r.package_name === held.package_name).map((r) => r.device_id),
    );
    const card = apk.uploadApk.reply.parse(
      ok(
        await operator.post('/apkUpgrade/uploadApkPackage', {
          uploadId: await upload(
            await buildApk(
              { packageName: held.package_name, versionCode: 99_999_999, versionName: '99', label: 'Other' },
              signer,
            ),
          ),
          mark: 'O-T-H-R',
        }),
        'card',
      ),
    ).dataObject;
    const task = apk.installApk.reply.parse(
      ok(
        await operator.post('/apkUpgrade/install', {
          apkVersionId: String(card.apkVersionId),
          deviceIds: devices.map((d) => d.id).join(','),
        }),
        'install',
      ),
    ).dataObject;
    const done = await waitFor('installs decided', async () => {
      const rows = await targets(task.taskId);
      return rows.every((r) => ['succeeded', 'failed', 'skipped'].includes(r.state)) ? rows : undefined;
    });
    expect(done.map((r) => [r.device_key, r.state, r.reason])).toEqual(
      devices.map((d) =>
        holders.has(d.id) ? [d.device_key, 'skipped', 'signerDiffers'] : [d.device_key, 'succeeded', ''],
      ),
    );
    // Nothing was sent to the skipped panels.
    const commands = await server.app.db.kysely
      .selectFrom('rollout_targets')
      .select(['device_id', 'command_id'])
      .where('task_id', '=', task.taskId)
      .execute();
    for (const row of commands) expect(row.command_id === null).toBe(holders.has(row.device_id));
  });

  it('cancelling a panel whose download runs stops it there (APK_CANCEL): the app is not installed', async () => {
    const card = apk.uploadApk.reply.parse(
      ok(
        await operator.post('/apkUpgrade/uploadApkPackage', {
          uploadId: await upload(
            await buildApk(
              {
                packageName: 'com.riverside.atlas',
                versionCode: 1,
                versionName: '1.0.0',
                label: 'Atlas',
                padding: 4 * 1024 * 1024,
              },
              signer,
            ),
          ),
          mark: 'A-T-L-S',
        }),
        'card',
      ),
    ).dataObject;
    const target = devices[1]!;
    proxy.slow.add(target.device_key);
    const task = apk.installApk.reply.parse(
      ok(
        await operator.post('/apkUpgrade/install', {
          apkVersionId: String(card.apkVersionId),
          deviceIds: String(target.id),
        }),
        'install',
      ),
    ).dataObject;
    await waitFor('the download to run', async () => {
      const [row] = await targets(task.taskId);
      return row?.state === 'downloading';
    });
    ok(await operator.post('/apkUpgrade/cancelInstallTask', { apkTaskId: String(task.taskId) }), 'cancel');
    const cancelOrder = await waitFor('APK_CANCEL acknowledged', async () => {
      const c = await server.app.db.kysely
        .selectFrom('commands')
        .select('status')
        .where('order_code', '=', 'APK_CANCEL')
        .where('device_id', '=', target.id)
        .executeTakeFirst();
      return c?.status === 'succeeded' ? c : undefined;
    });
    expect(cancelOrder.status).toBe('succeeded');
    expect((await targets(task.taskId))[0]).toMatchObject({ state: 'cancelled' });
    const panel = fleet.panels.find((p) => p.serial === target.device_key)!;
    await waitFor('the stopped download reported', () =>
      panel.apkFailures.some((f) => f.detail === 'cancelled'),
    );
    expect(panel.apps.map((a) => a.packageName)).not.toContain('com.riverside.atlas');
    expect(await appsOf(target.id, 'com.riverside.atlas')).toEqual([]);
    proxy.slow.clear();
  });
});
