import { device, settings, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { bearer, makeToken } from './api-token-helpers.js';
import { connectBare, enroll, enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

/**
 * "All N matching" (issue 28 item 4): a setting pushed to every panel matching the device list's
 * filter reaches exactly the enabled matching panels of the caller's organisation (and of its
 * token's labels) on every page, resolved by the server; nothing else.
 * Company A: 250 enabled "Lab" panels, 3 disabled ones, 30 "Office" panels, a "Mixed" pair of two
 * series. Company B: 40 "Lab" panels.
 */
describe.each(backends)('all matching on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let operatorB: TestClient;
  let orgA: number;
  let orgB: number;
  let template: number;
  let templateB: number;

  const db = () => server.app.db.kysely;
  const insert = async (
    orgId: number,
    rows: Array<{ name: string; machineType?: string; state?: number }>,
  ) => {
    const values = rows.map((r, i) => ({
      org_id: orgId,
      device_key: `AM-${orgId}-${String(i).padStart(4, '0')}-${r.name.replace(/\W/g, '')}`,
      name: r.name,
      machine_type: r.machineType ?? 'x9_vn',
      state: r.state ?? 1,
      secret_hash: 'x',
      enrolled_at: 0,
    }));
    for (let i = 0; i < values.length; i += 100)
      await db()
        .insertInto('devices')
        .values(values.slice(i, i + 100))
        .execute();
  };
  /** What should be reached: enabled panels of the company whose name holds `text`. */
  const truth = async (orgId: number, text: string) =>
    (await db().selectFrom('devices').select(['id', 'name', 'state']).where('org_id', '=', orgId).execute())
      .filter((d) => d.state === 1 && d.name.toLowerCase().includes(text.toLowerCase()))
      .map((d) => d.id)
      .sort((a, b) => a - b);
  const totals = async () => {
    const count = async (table: 'commands' | 'setting_pushes' | 'setting_push_targets') =>
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
      targets: await count('setting_push_targets'),
    };
  };
  const pushMatching = (
    client: TestClient,
    id: number,
    matching: unknown,
    headers?: Record<string, string>,
  ) => client.request('POST', '/sendData/sendSetting', { json: { id: String(id), matching }, headers });
  const pushed = (reply: { body: Record<string, unknown>; text: string }) => {
    expect(reply.body.hhtStatus, reply.text).toBe('success');
    return settings.sendSetting.reply.parse(reply.body).dataObject;
  };
  /** Every panel of a push's results, read a page of 20 at a time. */
  const resultPanels = async (client: TestClient, pushId: number) => {
    const ids: number[] = [];
    for (let start = 1; ; start++) {
      const page = settings.selectSettingPush.reply.parse(
        (await client.get(`/sendData/selectSettingPush?pushId=${pushId}&start=${start}&size=20`)).body,
      );
      ids.push(...page.listObject.map((r) => r.deviceId));
      if (page.listObject.length < 20) return { ids: ids.sort((a, b) => a - b), counts: page.counts };
    }
  };
  const commandsOf = async (pushId: number) =>
    db()
      .selectFrom('setting_push_targets as t')
      .innerJoin('commands as c', 'c.id', 't.command_id')
      .select(['c.device_id', 'c.org_id', 'c.id'])
      .where('t.push_id', '=', pushId)
      .execute();
  const addTemplate = async (client: TestClient) => {
    const reply = await client.post('/deviceSetting/addSetting', { type: '0', series: 'x9_vn' });
    return settings.addSetting.reply.parse(reply.body).id;
  };

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    operator = await operatorClient(server);
    const b = await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'am-operator', password: 'amoperator123', userType: '4' },
    ]);
    operatorB = await signedIn(server, 'am-operator', 'amoperator123');
    orgA = server.accounts.customerId;
    orgB = b.customerId;
    await insert(orgA, [
      ...Array.from({ length: 250 }, (_, i) => ({ name: `Lab ${String(i + 1).padStart(3, '0')}` })),
      ...Array.from({ length: 3 }, (_, i) => ({ name: `Lab D${i}`, state: 0 })),
      ...Array.from({ length: 30 }, (_, i) => ({ name: `Office ${i}` })),
      { name: 'Mixed 1' },
      { name: 'Mixed 2', machineType: 'rs' },
    ]);
    await insert(
      orgB,
      Array.from({ length: 40 }, (_, i) => ({ name: `Lab B${i}` })),
    );
    template = await addTemplate(operator);
    templateB = await addTemplate(operatorB);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('counts the enabled panels matching the filter exactly, and the disabled ones it leaves out', async () => {
    const count = async (client: TestClient, deviceName: string) =>
      device.countMatchingDevices.reply.parse(
        (await client.get(`/platform/device/countMatching?deviceName=${encodeURIComponent(deviceName)}`))
          .body,
      ).dataObject;
    expect(await count(operator, 'lab')).toEqual({ count: 250, disabled: 3 });
    expect(await count(operator, 'La')).toEqual({ count: 250, disabled: 3 });
    expect(await count(operator, '')).toEqual({ count: 282, disabled: 3 });
    expect(await count(operatorB, 'lab')).toEqual({ count: 40, disabled: 0 });
    expect(await count(operator, 'nothing-like-this')).toEqual({ count: 0, disabled: 0 });
  });

  it('pushes to exactly the matching panels on every page, never to another company nor a disabled panel', async () => {
    for (const deviceName of ['lab', 'LA']) {
      const want = await truth(orgA, deviceName);
      expect(want).toHaveLength(250);
      const { pushId, count } = pushed(await pushMatching(operator, template, { deviceName }));
      expect(count).toBe(250);
      const commands = await commandsOf(pushId);
      expect(commands.every((c) => c.org_id === orgA)).toBe(true);
      expect(commands.map((c) => c.device_id).sort((a, b) => a - b)).toEqual(want);
      expect(new Set(commands.map((c) => c.id)).size).toBe(250);
      // The result page lists them all, page after page of 20, each as offline (no panel listens).
      const results = await resultPanels(operator, pushId);
      expect(results.ids).toEqual(want);
      expect(results.counts.offline).toBe(250);
    }
    const disabled = await db()
      .selectFrom('devices')
      .select('id')
      .where('org_id', '=', orgA)
      .where('state', '=', 0)
      .execute();
    const toDisabled = await db()
      .selectFrom('commands')
      .select('id')
      .where(
        'device_id',
        'in',
        disabled.map((d) => d.id),
      )
      .execute();
    expect(toDisabled).toEqual([]);
    const inB = await db().selectFrom('commands').select('id').where('org_id', '=', orgB).execute();
    expect(inB).toEqual([]);
  });

  it("reaches only the caller's own company: the same filter from company B reaches B's panels", async () => {
    const { pushId, count } = pushed(await pushMatching(operatorB, templateB, { deviceName: 'lab' }));
    expect(count).toBe(40);
    expect((await commandsOf(pushId)).every((c) => c.org_id === orgB)).toBe(true);
    // Company A's template is not B's: refused as unknown, nothing recorded.
    const before = await totals();
    const reply = await pushMatching(operatorB, template, { deviceName: 'lab' });
    expect(reply.body).toMatchObject({ hhtStatus: 'fail' });
    expect(await totals()).toEqual(before);
    // And A's results of B's push are not found.
    expect(
      (await operator.get(`/sendData/selectSettingPush?pushId=${pushId}&start=1&size=20`)).body,
    ).toMatchObject({ hhtStatus: 'fail' });
  });

  it('refuses a filter that matches nothing, a mixed series, and a malformed selection, changing nothing', async () => {
    const before = await totals();
    const none = await pushMatching(operator, template, { deviceName: 'nothing-like-this' });
    expect(none.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'allMatching.noneMatching'),
    });
    const zh = await operator.request('POST', '/sendData/sendSetting', {
      json: { id: String(template), matching: { deviceName: 'D0' } },
      headers: { 'accept-language': 'zh-CN' },
    });
    // Only a disabled panel matches "D0": nothing to send.
    expect(zh.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('zh-CN', 'allMatching.noneMatching'),
    });
    const mixed = await pushMatching(operator, template, { deviceName: 'mixed' });
    expect(mixed.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'allMatching.seriesMismatch', { series: 'x9_vn', names: 'Mixed 2 (rs)' }),
    });
    for (const json of [
      { id: String(template) },
      { id: String(template), deviceIds: '1', matching: { deviceName: 'lab' } },
      { id: String(template), matching: { deviceName: 'lab', state: 0 } },
      { id: String(template), matching: 'lab' },
    ]) {
      const reply = await operator.request('POST', '/sendData/sendSetting', { json });
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body).toMatchObject({ hhtStatus: 'fail' });
    }
    expect(await totals()).toEqual(before);
  });

  it('keeps the disabled-panel rule for chosen ids', async () => {
    const [off] = await db()
      .selectFrom('devices')
      .select('id')
      .where('org_id', '=', orgA)
      .where('state', '=', 0)
      .execute();
    const before = await totals();
    const reply = await operator.post('/sendData/sendSetting', {
      id: String(template),
      deviceIds: String(off!.id),
    });
    expect(reply.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', 'device.disabled') });
    expect(await totals()).toEqual(before);
  });

  it('makes one command per panel and push when pushes to the same filter run at the same time', async () => {
    const before = await totals();
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => pushMatching(operator, template, { deviceName: 'office' })),
    );
    const pushes = replies.map(pushed);
    expect(pushes.map((p) => p.count)).toEqual([30, 30, 30, 30]);
    expect(new Set(pushes.map((p) => p.pushId)).size).toBe(4);
    const want = await truth(orgA, 'office');
    for (const { pushId } of pushes) {
      const commands = await commandsOf(pushId);
      expect(commands.map((c) => c.device_id).sort((a, b) => a - b)).toEqual(want);
    }
    expect(await totals()).toEqual({
      commands: before.commands + 120,
      pushes: before.pushes + 4,
      targets: before.targets + 120,
    });
  });

  it("reaches only a token's labels when the token is restricted to them", async () => {
    const [label] = await db()
      .insertInto('labels')
      .values({ org_id: orgA, name: 'AM five', created_at: 0 })
      .returning('id')
      .execute();
    const five = (await truth(orgA, 'lab')).slice(0, 5);
    await db()
      .insertInto('label_devices')
      .values(five.map((id) => ({ label_id: label!.id, device_id: id, org_id: orgA })))
      .execute();
    const token = await makeToken(operator, 'manage', { labelIds: [label!.id] });
    const { pushId, count } = pushed(
      await pushMatching(
        new (operator.constructor as typeof TestClient)(server.url),
        template,
        {
          deviceName: 'lab',
        },
        bearer(token.token),
      ),
    );
    expect(count).toBe(5);
    expect((await commandsOf(pushId)).map((c) => c.device_id).sort((a, b) => a - b)).toEqual(five);
  });

  it('sends an order to every matching panel once per idempotency key, even when the requests race', async () => {
    const send = (json: Record<string, unknown>) =>
      operator.request('POST', '/sendData/sendCommandToMatching', { json });
    const restarts = async () =>
      (
        await db()
          .selectFrom('commands')
          .select(['device_id', 'org_id'])
          .where('order_code', '=', '03')
          .execute()
      )
        .map((c) => c.device_id)
        .sort((a, b) => a - b);
    const key = '0b6f7c1e-8d2a-4f5b-9c3d-2e1f0a9b8c7d';
    const replies = await Promise.all(
      Array.from({ length: 3 }, () =>
        send({ order: '03', matching: { deviceName: 'lab' }, idempotencyKey: key }),
      ),
    );
    for (const reply of replies)
      expect(reply.body, reply.text).toMatchObject({ hhtStatus: 'success', dataObject: { count: 250 } });
    expect(await restarts()).toEqual(await truth(orgA, 'lab'));
    // The same key for another order is refused; no key and no match is refused in the caller's language.
    const before = await totals();
    const reused = await send({
      order: '07',
      value: 'true',
      matching: { deviceName: 'lab' },
      idempotencyKey: key,
    });
    expect(reused.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'command.idempotencyKeyReused'),
    });
    const none = await send({ order: '03', matching: { deviceName: 'nothing-like-this' } });
    expect(none.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'allMatching.noneMatching'),
    });
    const powerUp = await send({ order: '04', matching: { deviceName: 'lab' } });
    expect(powerUp.status).toBe(400);
    expect(await totals()).toEqual(before);
    // Company B's operator with the same filter reaches B's forty.
    const b = await operatorB.request('POST', '/sendData/sendCommandToMatching', {
      json: { order: '03', matching: { deviceName: 'lab' } },
    });
    expect(b.body).toMatchObject({ hhtStatus: 'success', dataObject: { count: 40 } });
    expect((await restarts()).length).toBe(290);
    const feedback = device.listFeedback.reply.parse(
      (await operator.get('/platform/feedback/listFeedbackInfo?start=1&size=20')).body,
    );
    expect(feedback.totalRecords).toBeGreaterThanOrEqual(250);
  });

  it('publishes at once to the matching panels that listen; the others wait as offline', async () => {
    const secret = await enrollmentSecretOf(operator);
    const listening = await enroll(server.url, 'LIVE-AM-1', secret);
    await enroll(server.url, 'LIVE-AM-2', secret);
    const bare = await connectBare(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, listening);
    try {
      await waitFor('the panel listens', async () =>
        server.app.devices.gateway.isReady(listening.deviceKey) ? true : undefined,
      );
      const { pushId, count } = pushed(await pushMatching(operator, template, { deviceName: 'live-am' }));
      expect(count).toBe(2);
      await waitFor('the listening panel applied it', async () => {
        const { counts } = await resultPanels(operator, pushId);
        return counts.applied === 1 && counts.offline === 1 ? true : undefined;
      });
      const sent = await operator.request('POST', '/sendData/sendCommandToMatching', {
        json: { order: '03', matching: { deviceName: 'live-am' } },
      });
      expect(sent.body).toMatchObject({ hhtStatus: 'success', dataObject: { count: 2 } });
      await waitFor('the restart reached the listening panel', async () =>
        bare.commands.some((c) => c.order === '03') ? true : undefined,
      );
      // A panel may hear a command twice (its return claims what is pending too); it de-duplicates by id.
      expect([...new Set(bare.commands.map((c) => `${c.order}`))].sort()).toEqual(['03', 'SETTINGS']);
      expect(new Set(bare.commands.map((c) => c.id)).size).toBe(2);
    } finally {
      await bare.close();
    }
  });
});
