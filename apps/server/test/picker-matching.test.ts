import { apk, device, deviceDetail, settings, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { apkSigner, buildApk } from './apk-fixtures.js';
import { bearer, makeToken } from './api-token-helpers.js';
import { operatorClient } from './device-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';
import { tusCreate, tusPatch, tusTarget } from './ota-helpers.js';

/**
 * "All N matching" in the panel pickers (issue 28 item 4): a picker's filter is the labels it
 * ticked (`matching.tagIds`); the settings push, the clone and the APK install given it reach
 * exactly the enabled panels of those labels in the caller's organisation and reach, resolved by
 * the server; a call that takes at most 10,000 panels refuses a larger match, changing nothing.
 * Company A: label "Hall" of 120 enabled x9_vn panels and 2 disabled, label "Wing" of 10 (4 of
 * them also in Hall), label "Huge" of 10,001. Company B: label "Hall B" of 7.
 */
describe.each(backends)('panel pickers: all matching on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let operatorB: TestClient;
  let orgA: number;
  let orgB: number;
  let hall: number;
  let wing: number;
  let huge: number;
  let hallB: number;
  let template: number;
  let sourceSettings: string;
  let sourceId: number;
  let apkVersionId: number;

  const db = () => server.app.db.kysely;
  /** Panels of a company in a new label; answers the label and the panels' ids. */
  const labelled = async (orgId: number, name: string, count: number, state = 1, machineType = 'x9_vn') => {
    const [label] = await db()
      .insertInto('labels')
      .values({ org_id: orgId, name, created_at: 0 })
      .returning('id')
      .execute();
    const ids: number[] = [];
    for (let i = 0; i < count; i += 500) {
      const rows = await db()
        .insertInto('devices')
        .values(
          Array.from({ length: Math.min(500, count - i) }, (_, j) => ({
            org_id: orgId,
            device_key: `PM-${name.replace(/\W/g, '')}-${state}-${String(i + j).padStart(5, '0')}`,
            name: `${name} ${state ? '' : 'off '}${i + j}`,
            machine_type: machineType,
            state,
            secret_hash: 'x',
            enrolled_at: 0,
          })),
        )
        .returning('id')
        .execute();
      ids.push(...rows.map((r) => r.id));
    }
    await addTo(orgId, label!.id, ids);
    return { id: label!.id, ids };
  };
  const addTo = async (orgId: number, labelId: number, ids: number[]) => {
    for (let i = 0; i < ids.length; i += 500)
      await db()
        .insertInto('label_devices')
        .values(ids.slice(i, i + 500).map((id) => ({ label_id: labelId, device_id: id, org_id: orgId })))
        .execute();
  };
  const members = async (labelIds: number[]) =>
    [
      ...new Set(
        (
          await db()
            .selectFrom('label_devices as l')
            .innerJoin('devices as d', 'd.id', 'l.device_id')
            .select('d.id')
            .where('l.label_id', 'in', labelIds)
            .where('d.state', '=', 1)
            .execute()
        ).map((r) => r.id),
      ),
    ].sort((a, b) => a - b);
  const totals = async () => {
    const count = async (table: 'commands' | 'setting_pushes' | 'rollout_tasks' | 'rollout_targets') =>
      Number(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      commands: await count('commands'),
      pushes: await count('setting_pushes'),
      tasks: await count('rollout_tasks'),
      targets: await count('rollout_targets'),
    };
  };
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
  const post = (client: TestClient, path: string, json: unknown, headers?: Record<string, string>) =>
    client.request('POST', path, { json, headers });
  const count = async (client: TestClient, query: string, headers?: Record<string, string>) =>
    device.countMatchingDevices.reply.parse(
      (await client.request('GET', `/platform/device/countMatching?${query}`, { headers })).body,
    ).dataObject;
  const pushCommands = async (pushId: number) =>
    sorted(
      (
        await db()
          .selectFrom('setting_push_targets as t')
          .innerJoin('commands as c', 'c.id', 't.command_id')
          .select(['c.device_id'])
          .where('t.push_id', '=', pushId)
          .execute()
      ).map((c) => c.device_id),
    );
  const taskPanels = async (taskId: number) =>
    sorted(
      (
        await db().selectFrom('rollout_targets').select('device_id').where('task_id', '=', taskId).execute()
      ).map((r) => r.device_id),
    );

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    operator = await operatorClient(server);
    const b = await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'pm-operator', password: 'pmoperator123', userType: '4' },
    ]);
    operatorB = await signedIn(server, 'pm-operator', 'pmoperator123');
    orgA = server.accounts.customerId;
    orgB = b.customerId;
    const hallLabel = await labelled(orgA, 'Hall', 120);
    hall = hallLabel.id;
    const off = await labelled(orgA, 'Hall gone', 2, 0);
    await addTo(orgA, hall, off.ids);
    const wingLabel = await labelled(orgA, 'Wing', 6);
    wing = wingLabel.id;
    await addTo(orgA, wing, hallLabel.ids.slice(0, 4));
    huge = (await labelled(orgA, 'Huge', 10_001)).id;
    hallB = (await labelled(orgB, 'Hall B', 7)).id;
    template = settings.addSetting.reply.parse(
      (await operator.post('/deviceSetting/addSetting', { type: '0', series: 'x9_vn' })).body,
    ).id;
    // The clone's source: a Wing panel that reported its language and tool bar.
    sourceId = wingLabel.ids[0]!;
    const defaults = device.defaultPlatformMsg('x9_vn') as unknown as Record<string, unknown>;
    const reported = await db()
      .insertInto('device_settings')
      .values(
        ['language', 'toolBar'].map((section) => ({
          org_id: orgA,
          device_id: sourceId,
          platform: 'x9_vn',
          section,
          value: JSON.stringify(defaults[section]),
          reported_at: 0,
        })),
      )
      .returning('id')
      .execute();
    sourceSettings = reported.map((r) => r.id).join(',');
    const target = tusTarget(server.url, operator);
    const file = await buildApk(
      { packageName: 'com.picker.match', versionCode: 3, versionName: '3.0', label: 'Match' },
      apkSigner('Picker Match'),
    );
    const created = await tusCreate(target, file.length, 'match.apk', 'apk');
    await tusPatch(target, created.uploadId!, 0, file);
    const card = await operator.post('/apkUpgrade/uploadApkPackage', {
      uploadId: created.uploadId!,
      mark: 'P-M-A-T',
    });
    if (card.body.hhtStatus !== 'success') throw new Error(card.text);
    apkVersionId = apk.uploadApk.reply.parse(card.body).dataObject.apkVersionId;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("counts a picker's labels exactly: enabled members once, the disabled left out, another company's label none", async () => {
    expect(await count(operator, `tagIds=${hall}`)).toEqual({ count: 120, disabled: 2 });
    // Four panels are in both labels: counted once.
    expect(await count(operator, `tagIds=${hall},${wing}`)).toEqual({ count: 126, disabled: 2 });
    expect(await count(operator, `tagIds=${hallB}`)).toEqual({ count: 0, disabled: 0 });
    expect(await count(operatorB, `tagIds=${hallB}`)).toEqual({ count: 7, disabled: 0 });
    // The search narrows the labels' panels as in the device list.
    expect(await count(operator, `tagIds=${hall},${wing}&deviceName=wing`)).toEqual({
      count: 6,
      disabled: 0,
    });
    const bad = await operator.get('/platform/device/countMatching?tagIds=0,x');
    expect(bad.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', 'label.notFound') });
  });

  it('pushes a setting to the labels: exactly their enabled panels, never another company', async () => {
    const reply = await post(operator, '/sendData/sendSetting', {
      id: String(template),
      matching: { tagIds: [hall, wing] },
    });
    const { pushId, count: sent } = settings.sendSetting.reply.parse(reply.body).dataObject;
    expect(sent).toBe(126);
    expect(await pushCommands(pushId)).toEqual(await members([hall, wing]));
    // Company B naming A's label reaches nothing and is refused in its language; nothing recorded.
    const before = await totals();
    for (const language of ['en-US', 'zh-CN'] as const) {
      const foreign = await post(
        operatorB,
        '/sendData/sendSetting',
        { id: String(template), matching: { tagIds: [hall] } },
        { 'accept-language': language },
      );
      expect(foreign.body).toMatchObject({ hhtStatus: 'fail' });
    }
    const none = await post(
      operator,
      '/sendData/sendSetting',
      { id: String(template), matching: { tagIds: [hallB] } },
      { 'accept-language': 'zh-CN' },
    );
    expect(none.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('zh-CN', 'allMatching.noneMatching'),
    });
    expect(await totals()).toEqual(before);
  });

  it('clones to every matching panel but the source, and refuses more than 10,000 in both languages', async () => {
    const clone = (matching: unknown, language = 'en-US') =>
      post(
        operator,
        '/sendData/sendDeviceSettings',
        { deviceSettingIds: sourceSettings, matching },
        { 'accept-language': language },
      );
    const settingsCommands = (ids: number[]) =>
      db()
        .selectFrom('commands')
        .select(['id', 'device_id'])
        .where('order_code', '=', 'SETTINGS')
        .where('device_id', 'in', ids)
        .execute();
    const earlier = new Set((await settingsCommands(await members([wing]))).map((c) => c.id));
    const commandsFor = async (ids: number[]) =>
      sorted((await settingsCommands(ids)).filter((c) => !earlier.has(c.id)).map((c) => c.device_id));
    const wingPanels = await members([wing]);
    const reply = await clone({ tagIds: [wing] });
    expect(deviceDetail.sendDeviceSettings.reply.parse(reply.body).dataObject.count).toBe(9);
    expect(await commandsFor(wingPanels)).toEqual(wingPanels.filter((id) => id !== sourceId));

    const before = await totals();
    for (const language of ['en-US', 'zh-CN'] as const) {
      const tooMany = await clone({ tagIds: [huge] }, language);
      expect(tooMany.body).toMatchObject({
        hhtStatus: 'fail',
        hhtMsg: translate(language, 'allMatching.tooMany', { count: 10_001, max: 10_000 }),
      });
    }
    // Both forms at once, or neither, are refused before anything is looked up.
    const both = await post(operator, '/sendData/sendDeviceSettings', {
      deviceSettingIds: sourceSettings,
      deviceIds: String(wingPanels[1]),
      matching: { tagIds: [wing] },
    });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'setting.chooseDevice'),
    });
    expect(await totals()).toEqual(before);
  });

  it('installs an APK on the matching panels as one task, within the 10,000 limit, one task per request when they race', async () => {
    const install = (matching: unknown, language = 'en-US') =>
      post(
        operator,
        '/apkUpgrade/install',
        { apkVersionId: String(apkVersionId), matching },
        { 'accept-language': language },
      );
    const replies = await Promise.all([install({ tagIds: [hall] }), install({ tagIds: [hall] })]);
    const tasks = replies.map((r) => apk.installApk.reply.parse(r.body).dataObject);
    expect(tasks.map((t) => t.deviceCount)).toEqual([120, 120]);
    expect(new Set(tasks.map((t) => t.taskId)).size).toBe(2);
    for (const task of tasks) expect(await taskPanels(task.taskId)).toEqual(await members([hall]));

    const before = await totals();
    const tooMany = await install({ tagIds: [huge] }, 'zh-CN');
    expect(tooMany.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('zh-CN', 'allMatching.tooMany', { count: 10_001, max: 10_000 }),
    });
    const foreign = await post(operatorB, '/apkUpgrade/install', {
      apkVersionId: String(apkVersionId),
      matching: { tagIds: [hallB] },
    });
    expect(foreign.body).toMatchObject({ hhtStatus: 'fail' });
    const mixed = await post(operator, '/apkUpgrade/install', {
      apkVersionId: String(apkVersionId),
      tagIds: String(hall),
      matching: { tagIds: [hall] },
    });
    expect(mixed.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'apk.devicesOrLabels'),
    });
    expect(await totals()).toEqual(before);
  });

  it("reaches only a restricted token's labels: a filter's panels are narrowed to them, another label refused", async () => {
    const token = await makeToken(operator, 'manage', { labelIds: [wing] });
    const anonymous = new (operator.constructor as typeof TestClient)(server.url);
    const auth = bearer(token.token);
    // Wing's panels, four of them also in Hall: a search that Hall's panels match too is narrowed to Wing.
    expect(await count(anonymous, `tagIds=${wing}`, auth)).toEqual({ count: 10, disabled: 0 });
    expect(await count(anonymous, 'deviceName=hall', auth)).toEqual({ count: 4, disabled: 0 });
    const reply = await post(
      anonymous,
      '/sendData/sendSetting',
      { id: String(template), matching: { deviceName: 'hall' } },
      auth,
    );
    expect(reply.body.hhtStatus, reply.text).toBe('success');
    const { pushId, count: sent } = settings.sendSetting.reply.parse(reply.body).dataObject;
    expect(sent).toBe(4);
    const wingPanels = new Set(await members([wing]));
    expect(await pushCommands(pushId)).toEqual((await members([hall])).filter((id) => wingPanels.has(id)));
    // Naming Hall, outside the token's labels, is refused before anything is resolved.
    const before = await totals();
    const outside = await post(
      anonymous,
      '/sendData/sendSetting',
      { id: String(template), matching: { tagIds: [hall, wing] } },
      auth,
    );
    expect(outside.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'apiToken.outsideLabels'),
    });
    const counted = await anonymous.request('GET', `/platform/device/countMatching?tagIds=${hall}`, {
      headers: auth,
    });
    expect(counted.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'apiToken.outsideLabels'),
    });
    expect(await totals()).toEqual(before);
  });
});
