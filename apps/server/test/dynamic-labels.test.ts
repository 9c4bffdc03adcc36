import crypto from 'node:crypto';
import { device, notifications } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { RolloutRepository } from '../src/modules/rollouts/repository.js';
import { connectBare, enroll, enrollmentSecretOf, waitFor } from './device-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

// Issue 28 item 3: dynamic labels. A label defined by a filter; the server decides membership
// when the label is used (modules/label-membership), for every field of the filter, within the
// caller's company, and a keep-adding rollout picks up panels that start to match.

const MINUTE = 60_000;

interface PanelSpec {
  key: string;
  name?: string;
  machineType?: string;
  version?: string;
  online?: boolean;
  seenMinutesAgo?: number | null;
  country?: string;
  province?: string;
  apps?: Array<{ packageName: string; versionName: string; versionCode: number }>;
}

describe.each(backends)('dynamic labels on %s', (backend) => {
  let server: TestServer;
  let a: TestClient;
  let b: TestClient;
  let orgA: number;
  let orgB: number;
  const ids: Record<string, number> = {};

  const db = () => server.app.db.kysely;

  async function addPanel(orgId: number, p: PanelSpec) {
    const now = server.clock.now();
    const seen = p.seenMinutesAgo === undefined ? 1 : p.seenMinutesAgo;
    const row = await db()
      .insertInto('devices')
      .values({
        org_id: orgId,
        device_key: p.key,
        name: p.name ?? p.key,
        secret_hash: crypto.createHash('sha256').update(p.key).digest('hex'),
        machine_type: p.machineType ?? 'PF-A',
        ota_version: p.version ?? '1.0.0',
        online: p.online ? 1 : 0,
        last_seen_at: seen === null ? null : now - seen * MINUTE,
        geo_country: p.country ?? '',
        geo_province: p.province ?? '',
        enrolled_at: now - 100 * MINUTE,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const app of p.apps ?? [])
      await db()
        .insertInto('device_apps')
        .values({
          device_id: row.id,
          org_id: orgId,
          package_name: app.packageName,
          app_name: app.packageName,
          version_name: app.versionName,
          version_code: app.versionCode,
          app_size: 1,
          app_level: 0,
        })
        .execute();
    ids[p.key] = row.id;
    return row.id;
  }

  const save = (client: TestClient, body: Record<string, unknown>) =>
    client.request('POST', '/platform/group/saveDynamic', { json: body });

  async function dynamicLabel(client: TestClient, name: string, filter: device.LabelFilter) {
    const reply = await save(client, { groupName: name, filter });
    if (reply.body.hhtStatus !== 'success') throw new Error(`saveDynamic ${name}: ${reply.text}`);
    return device.saveDynamicGroup.reply.parse(reply.body).dataObject.groupId;
  }

  async function count(client: TestClient, filter: unknown) {
    const reply = await client.request('POST', '/platform/group/countFilter', { json: { filter } });
    if (reply.body.hhtStatus !== 'success') throw new Error(`countFilter: ${reply.text}`);
    return device.countGroupFilter.reply.parse(reply.body).dataObject.count;
  }

  /** Serial numbers of the label's panels, as the label page lists them. */
  async function membersOf(client: TestClient, labelId: number) {
    const reply = await client.post('/platform/device/selectByTag', {
      tags: String(labelId),
      start: '1',
      size: '1000',
    });
    return device.selectByTag.reply
      .parse(reply.body)
      .listObject.map((d) => d.deviceKey)
      .sort();
  }

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-customer', password: 'bcustomer123', userType: '2', activated: 1 },
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    a = await signedIn(server, 'operator1', 'operator123');
    b = await signedIn(server, 'b-operator', 'boperator123');
    const orgOf = async (userName: string) =>
      (
        await db()
          .selectFrom('users')
          .select('org_id')
          .where('user_name', '=', userName)
          .executeTakeFirstOrThrow()
      ).org_id;
    orgA = await orgOf('operator1');
    orgB = await orgOf('b-operator');
    const apps = (versionName: string, versionCode: number) => [
      { packageName: 'com.example.player', versionName, versionCode },
    ];
    await addPanel(orgA, {
      key: 'DL-A1',
      name: 'Hall North',
      machineType: 'PF-A',
      version: '1.9.0',
      online: true,
      seenMinutesAgo: 2,
      country: 'China',
      province: 'Zhejiang',
      apps: apps('2.1', 21),
    });
    await addPanel(orgA, {
      key: 'DL-A2',
      name: 'Hall South',
      machineType: 'PF-A',
      version: '1.10.0',
      online: false,
      seenMinutesAgo: 90,
      country: 'China',
      province: 'Jiangsu',
      apps: apps('2.2', 22),
    });
    await addPanel(orgA, {
      key: 'DL-B1',
      name: 'Library 1',
      machineType: 'PF-B',
      version: '2.0.0',
      online: true,
      seenMinutesAgo: null,
      country: 'Germany',
    });
    // The other company: the same machine type names, versions and app.
    await addPanel(orgB, {
      key: 'OTHER-1',
      name: 'Hall Other',
      machineType: 'PF-A',
      version: '1.9.0',
      online: true,
      country: 'China',
      province: 'Zhejiang',
      apps: apps('2.1', 21),
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('counts the members of each filter field, within the company', async () => {
    expect(await count(a, { machineTypes: ['PF-A'] })).toBe(2);
    expect(await count(a, { machineTypes: ['PF-A', 'PF-B'] })).toBe(3);
    expect(await count(a, { firmware: { versions: ['1.9.0'] } })).toBe(1);
    // Numeric parts compare as numbers: 1.10.0 is after 1.9.0.
    expect(await count(a, { firmware: { min: '1.9.5' } })).toBe(2);
    expect(await count(a, { firmware: { min: '1.9.0', max: '1.10.0' } })).toBe(2);
    expect(await count(a, { firmware: { max: '1.9.9' } })).toBe(1);
    expect(await count(a, { app: { packageName: 'com.example.player' } })).toBe(2);
    expect(await count(a, { app: { packageName: 'com.example.player', versionName: '2.2' } })).toBe(1);
    expect(await count(a, { app: { packageName: 'com.example.player', minVersionCode: 22 } })).toBe(1);
    expect(await count(a, { app: { packageName: 'com.example.none' } })).toBe(0);
    expect(await count(a, { online: true })).toBe(2);
    expect(await count(a, { online: false })).toBe(1);
    expect(await count(a, { lastSeen: { within: 'within', minutes: 10 } })).toBe(1);
    // Not seen within an hour: the one seen 90 minutes ago and the one never seen.
    expect(await count(a, { lastSeen: { within: 'notWithin', minutes: 60 } })).toBe(2);
    expect(await count(a, { region: { country: 'China' } })).toBe(2);
    expect(await count(a, { region: { country: 'China', province: 'Jiangsu' } })).toBe(1);
    expect(await count(a, { namePattern: 'hall*' })).toBe(2);
    expect(await count(a, { namePattern: 'Library ?' })).toBe(1);
    expect(await count(a, { serialPattern: 'dl-a*' })).toBe(2);
    // Two conditions: both must hold.
    expect(await count(a, { machineTypes: ['PF-A'], online: true })).toBe(1);
    // The other company's panel of the same machine type and version counts for it alone.
    expect(await count(b, { machineTypes: ['PF-A'], firmware: { versions: ['1.9.0'] } })).toBe(1);
  });

  it('has / has not other labels, listed or dynamic', async () => {
    const listed = device.insertGroup.reply.parse(
      (await a.post('/platform/group/insert', { groupName: 'Listed A' })).body,
    ).dataObject.groupId;
    const saved = await a.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: String(ids['DL-B1']),
      groupIds: String(listed),
    });
    expect(saved.body.hhtStatus).toBe('success');
    const online = await dynamicLabel(a, 'Online A', { online: true });
    expect(await membersOf(a, online)).toEqual(['DL-A1', 'DL-B1']);
    expect(await count(a, { hasLabels: [listed] })).toBe(1);
    expect(await count(a, { hasLabels: [online], notLabels: [listed] })).toBe(1);
    const nested = await dynamicLabel(a, 'Online not listed', { hasLabels: [online], notLabels: [listed] });
    expect(await membersOf(a, nested)).toEqual(['DL-A1']);
    // The device list shows dynamic labels among a panel's labels.
    const list = device.listDevices.reply.parse((await a.get('/platform/device/list?start=1&size=100')).body);
    expect(
      list.listObject
        .find((d) => d.deviceKey === 'DL-A1')!
        .tag.split('-')
        .sort(),
    ).toEqual(['Online A', 'Online not listed']);
  });

  it('lists dynamic labels with their filter and edits them', async () => {
    const id = await dynamicLabel(a, 'Type B', { machineTypes: ['PF-B'] });
    let labels = device.listGroups.reply.parse((await a.get('/platform/group/list')).body).listObject;
    expect(labels.find((l) => l.groupId === id)).toMatchObject({
      dynamic: true,
      filter: { machineTypes: ['PF-B'] },
    });
    expect(labels.find((l) => l.groupName === 'Listed A')).toMatchObject({ dynamic: false, filter: null });
    const edited = await save(a, { groupId: id, groupName: 'Type A', filter: { machineTypes: ['PF-A'] } });
    expect(edited.body.hhtStatus).toBe('success');
    labels = device.listGroups.reply.parse((await a.get('/platform/group/list')).body).listObject;
    expect(labels.find((l) => l.groupId === id)).toMatchObject({ groupName: 'Type A' });
    expect(await membersOf(a, id)).toEqual(['DL-A1', 'DL-A2']);
  });

  it('refuses adding or removing panels of a dynamic label by hand', async () => {
    const id = await dynamicLabel(a, 'No hands', { machineTypes: ['PF-B'] });
    const reply = await a.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: String(ids['DL-A1']),
      groupIds: String(id),
    });
    expect(reply.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The panels of a dynamic label follow its filter and cannot be added or removed by hand',
    });
    expect(await membersOf(a, id)).toEqual(['DL-B1']);
    // A listed label cannot be turned into a dynamic one through the dynamic label's call.
    const listed = device.listGroups.reply
      .parse((await a.get('/platform/group/list')).body)
      .listObject.find((l) => l.groupName === 'Listed A')!.groupId;
    const turned = await save(a, { groupId: listed, groupName: 'Listed A', filter: { online: true } });
    expect(turned.body.hhtStatus).toBe('fail');
    // A dynamic label that names itself in its own filter is a bad filter.
    const self = await save(a, { groupId: id, groupName: 'No hands', filter: { hasLabels: [id] } });
    expect(self.status).toBe(400);
    expect(self.body.hhtStatus).toBe('fail');
  });

  it('answers 400 in the envelope for a bad filter and changes nothing', async () => {
    const before = device.listGroups.reply.parse((await a.get('/platform/group/list')).body).totalRecords;
    for (const filter of [
      {},
      { colour: 'red' },
      { machineTypes: [] },
      { lastSeen: { within: 'within', minutes: 0 } },
      { firmware: {} },
      { app: { packageName: 'x', minVersionCode: 5, maxVersionCode: 1 } },
      { online: 'yes' },
    ]) {
      const reply = await save(a, { groupName: 'Bad', filter });
      expect(reply.status, JSON.stringify(filter)).toBe(400);
      expect(reply.body.hhtStatus).toBe('fail');
      expect(typeof reply.body.hhtMsg).toBe('string');
    }
    const zh = await a.request('POST', '/platform/group/saveDynamic', {
      json: { groupName: 'Bad', filter: {} },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: '动态标签至少需要一个条件' });
    expect(device.listGroups.reply.parse((await a.get('/platform/group/list')).body).totalRecords).toBe(
      before,
    );
  });

  it('never reaches the other company: its labels read as missing, its panels never match', async () => {
    const aLabel = await dynamicLabel(a, 'A type', { machineTypes: ['PF-A'] });
    // B names A's label in a filter, uses it as a target, or asks for its panels: missing.
    const named = await save(b, { groupName: 'Has A', filter: { hasLabels: [aLabel] } });
    expect(named.body.hhtStatus).toBe('fail');
    const countNamed = await b.request('POST', '/platform/group/countFilter', {
      json: { filter: { notLabels: [aLabel] } },
    });
    expect(countNamed.body.hhtStatus).toBe('fail');
    const page = await b.post('/platform/device/selectByTag', {
      tags: String(aLabel),
      start: '1',
      size: '10',
    });
    expect(page.body.hhtStatus).toBe('fail');
    // B's own label of the same machine type has B's panel only, and A's has A's only.
    const bLabel = await dynamicLabel(b, 'A type', { machineTypes: ['PF-A'] });
    expect(await membersOf(b, bLabel)).toEqual(['OTHER-1']);
    expect(await membersOf(a, aLabel)).toEqual(['DL-A1', 'DL-A2']);
    // A notification to A's dynamic label goes to A's enabled panels of the type, none of B's.
    const sent = await a.post('/sendMessage/insert', {
      title: 'Drill',
      text: 'fire drill at ten',
      level: '1',
      position: 'top',
      tags: String(aLabel),
    });
    const { commandIds } = notifications.sendMessage.reply.parse(sent.body).dataObject;
    const targets = await db()
      .selectFrom('commands')
      .innerJoin('devices', 'devices.id', 'commands.device_id')
      .select('devices.device_key')
      .where('commands.id', 'in', commandIds)
      .execute();
    expect(targets.map((t) => t.device_key).sort()).toEqual(['DL-A1', 'DL-A2']);
  });

  it('writes the online column from a real panel connection (the gateway presence)', async () => {
    const secret = await enrollmentSecretOf(a);
    const credentials = await enroll(server.url, 'DL-LIVE', secret);
    const bare = await connectBare(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, credentials);
    try {
      await waitFor('the online column', async () => {
        const row = await db()
          .selectFrom('devices')
          .select('online')
          .where('device_key', '=', 'DL-LIVE')
          .executeTakeFirst();
        return row?.online === 1;
      });
      const label = await dynamicLabel(a, 'Live online', { online: true, serialPattern: 'DL-LIVE' });
      expect(await membersOf(a, label)).toEqual(['DL-LIVE']);
    } finally {
      await bare.close();
    }
    await waitFor('offline in the column', async () => {
      const row = await db()
        .selectFrom('devices')
        .select('online')
        .where('device_key', '=', 'DL-LIVE')
        .executeTakeFirst();
      return row?.online === 0;
    });
  });

  it('a running keep-adding rollout picks up a panel that starts to match; one without the option does not', async () => {
    const label = await dynamicLabel(a, 'Rollout type', { machineTypes: ['PF-R'] });
    await addPanel(orgA, { key: 'DL-R1', machineType: 'PF-R' });
    await addPanel(orgA, { key: 'DL-R2', machineType: 'PF-R' });
    const rollouts = new RolloutRepository(db(), server.app.db.dialect);
    const task = (keepAdding: boolean) =>
      rollouts.createTask(
        {
          orgId: orgA,
          // A kind no module registers: the engine keeps the task but sends nothing.
          kind: 'dyn-test',
          payloadId: keepAdding ? 1 : 2,
          payload: {},
          payloadLabel: 'x',
          labelIds: [label],
          keepAdding,
          skip: [{ reason: 'disabled', disabled: true }],
          timeEnable: false,
          fireAt: server.clock.now(),
          fireBy: null,
          waves: { mode: 'count' },
          successShare: 100,
          failureShare: 0,
          minResults: 1,
          maxDownloads: null,
          createdBy: null,
          createdByName: 'test',
          now: server.clock.now(),
        },
        { first: 1, step: 1 },
      );
    const keeping = await task(true);
    const fixed = await task(false);
    expect(keeping).toMatchObject({ total: 2, waveCount: 2 });
    // A panel starts to match (its machine type changes), another arrives disabled.
    await addPanel(orgA, { key: 'DL-R3', machineType: 'PF-Q' });
    await db().updateTable('devices').set({ machine_type: 'PF-R' }).where('id', '=', ids['DL-R3']!).execute();
    const disabled = await addPanel(orgA, { key: 'DL-R4', machineType: 'PF-R' });
    await db().updateTable('devices').set({ state: 0 }).where('id', '=', disabled).execute();
    server.clock.advance(2 * MINUTE);
    await server.app.ota.engine.tick();
    const targets = async (taskId: number) =>
      (
        await db()
          .selectFrom('rollout_targets')
          .select(['device_id', 'wave', 'state', 'reason'])
          .where('task_id', '=', taskId)
          .orderBy('device_id')
          .execute()
      ).map((t) => ({ ...t, wave: Number(t.wave) }));
    const kept = await targets(keeping.id);
    // The new panel joins the last wave (the health gate of wave 1 still holds it); the disabled one is skipped.
    expect(kept.find((t) => t.device_id === ids['DL-R3'])).toMatchObject({ wave: 1, state: 'queued' });
    expect(kept.find((t) => t.device_id === disabled)).toMatchObject({
      state: 'skipped',
      reason: 'disabled',
    });
    expect(kept).toHaveLength(4);
    const row = await db()
      .selectFrom('rollout_tasks')
      .select('total')
      .where('id', '=', keeping.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.total)).toBe(4);
    expect((await targets(fixed.id)).map((t) => t.device_id)).toEqual([ids['DL-R1'], ids['DL-R2']]);
    // A second look adds nothing twice.
    server.clock.advance(2 * MINUTE);
    await server.app.ota.engine.tick();
    expect(await targets(keeping.id)).toHaveLength(4);
  });
});
