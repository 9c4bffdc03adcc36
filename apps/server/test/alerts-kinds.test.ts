import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countAlerts, insertPanels, listAlerts, onlinePanel, ruleOf } from './alerts-helpers.js';
import { operatorClient } from './device-helpers.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Each rule kind raises its alert when the condition has held for the rule's duration and clears
 * it when the condition ends; the data each kind reads is written as the modules write it.
 */
describe.each(backends)('alert rule kinds on %s', (backend) => {
  let server: TestServer;
  let customer: TestClient;
  let orgId: number;
  const now = () => server.clock.now();
  const db = () => server.app.db.kysely;
  /** The open alerts of a rule, by subject name. */
  const openOf = async (ruleId: number) =>
    (await listAlerts(customer, `&ruleIds=${ruleId}`)).listObject.map((a) => a.subject.name).sort();
  const evaluate = () => server.app.alerts.evaluate();

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      {
        throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
        alerts: { evaluateEveryMs: HOUR, mailWindowMs: HOUR },
      },
    );
    customer = await signedIn(server, 'customer1', 'customer123');
    orgId = server.accounts.customerId;
  });
  afterAll(() => server.stop());

  it('offline: raised after minutes plus duration, cleared when the panel is seen again', async () => {
    const [a, b] = await insertPanels(server, orgId, 2, 'OFF', {
      last_seen_at: now() - 10 * MINUTE - 30_000,
    });
    await insertPanels(server, orgId, 1, 'NEVER');
    const rule = await ruleOf(customer, { condition: { kind: 'offline', minutes: 10 }, durationSeconds: 60 });
    await evaluate();
    expect(await openOf(rule.id)).toEqual([]);
    server.clock.advance(31_000);
    await evaluate();
    expect(await openOf(rule.id)).toEqual(['OFF panel 0', 'OFF panel 1']);
    const [alert] = (await listAlerts(customer, `&ruleIds=${rule.id}`)).listObject;
    expect(alert).toMatchObject({
      kind: 'offline',
      severity: 'major',
      state: 'active',
      companyId: orgId,
      companyName: 'Riverside School',
      detailKey: 'alert.detail.offline',
      detailVars: { minutes: 10 },
      subject: { type: 'device' },
    });
    await db().updateTable('devices').set({ last_seen_at: now() }).where('id', '=', a!).execute();
    await evaluate();
    expect(await openOf(rule.id)).toEqual(['OFF panel 1']);
    const history = await listAlerts(customer, `&ruleIds=${rule.id}&states=cleared`);
    expect(history.listObject).toMatchObject([
      { state: 'cleared', clearedBy: null, subject: { id: String(a) } },
    ]);
    await db().updateTable('devices').set({ last_seen_at: now() }).where('id', '=', b!).execute();
    await evaluate();
    await customer.request('POST', '/alerts/rules/delete', { json: { id: rule.id } });
  });

  it('offline: a panel that just went away is not judged by a last-seen time its disconnect has not moved yet', async () => {
    const panel = await onlinePanel(server, await operatorClient(server), 'GONE-0');
    const rule = await ruleOf(customer, { condition: { kind: 'offline', minutes: 10 }, durationSeconds: 0 });
    try {
      await panel.disconnect();
      // As between the disconnect and its batched last-seen write: the row holds a report of long ago.
      await db()
        .updateTable('devices')
        .set({ last_seen_at: now() - HOUR })
        .where('id', '=', panel.id)
        .execute();
      const keys = async () =>
        (await listAlerts(customer, `&ruleIds=${rule.id}`)).listObject.map((a) => a.subject.deviceKey);
      await evaluate();
      expect(await keys()).not.toContain(panel.key);
      server.clock.advance(10 * MINUTE);
      await evaluate();
      expect(await keys()).toContain(panel.key);
    } finally {
      await customer.request('POST', '/alerts/rules/delete', { json: { id: rule.id } });
    }
  });

  it('threshold: a reported value past its threshold on an online panel', async () => {
    const operator = await operatorClient(server);
    const hot = await onlinePanel(server, operator, 'TEMP-0', {
      cpuTemperature: 91,
      ramTotal: 100,
      ramUsed: 95,
    });
    const cool = await onlinePanel(server, operator, 'TEMP-1', {
      cpuTemperature: 40,
      ramTotal: 100,
      ramUsed: 95,
    });
    // Written straight into the database without a connection: offline, never judged by value.
    await insertPanels(server, orgId, 1, 'TEMP-X', { cpu_temperature: 99 });
    try {
      const rule = await ruleOf(customer, {
        condition: { kind: 'threshold', metric: 'cpuTemperature', direction: 'above', value: 80 },
        durationSeconds: 120,
      });
      const ram = await ruleOf(customer, {
        condition: { kind: 'threshold', metric: 'ramUsedPercent', direction: 'above', value: 90 },
      });
      await evaluate();
      expect(await openOf(rule.id)).toEqual([]);
      expect(await openOf(ram.id)).toEqual(['TEMP-0', 'TEMP-1']);
      server.clock.advance(121_000);
      await evaluate();
      expect(await openOf(rule.id)).toEqual(['TEMP-0']);
      const [alert] = (await listAlerts(customer, `&ruleIds=${rule.id}`)).listObject;
      expect(alert).toMatchObject({
        detailKey: 'alert.detail.above',
        detailVars: { metric: 'cpuTemperature', value: 91, threshold: 80 },
        subject: { deviceKey: 'TEMP-0' },
      });
      await hot.report({ cpuTemperature: 50 });
      await evaluate();
      expect(await openOf(rule.id)).toEqual([]);
      // A blip shorter than the duration raises nothing: its start is forgotten when it ends.
      await hot.report({ cpuTemperature: 95 });
      await evaluate();
      server.clock.advance(60_000);
      await hot.report({ cpuTemperature: 50 });
      await evaluate();
      await hot.report({ cpuTemperature: 95 });
      server.clock.advance(70_000);
      await evaluate();
      expect(await openOf(rule.id)).toEqual([]);
      for (const r of [rule, ram])
        await customer.request('POST', '/alerts/rules/delete', { json: { id: r.id } });
    } finally {
      await hot.close();
      await cool.close();
    }
  });

  it('silent, then offline: a real panel that stops reporting, then goes away and comes back', async () => {
    const operator = await operatorClient(server);
    const panel = await onlinePanel(server, operator, 'QUIET-0');
    // Rules narrowed to a label of this panel: the other tests' panels are not theirs.
    const [label] = await db()
      .insertInto('labels')
      .values({ org_id: orgId, name: 'Quiet', created_at: 0 })
      .returning('id')
      .execute();
    await db()
      .insertInto('label_devices')
      .values({ label_id: label!.id, device_id: panel.id, org_id: orgId })
      .execute();
    const labelIds = [label!.id];
    const silent = await ruleOf(customer, { condition: { kind: 'silent', minutes: 5 }, labelIds });
    const offline = await ruleOf(customer, {
      condition: { kind: 'offline', minutes: 2 },
      durationSeconds: 30,
      labelIds,
    });
    try {
      await evaluate();
      expect(await openOf(silent.id)).toEqual([]);
      server.clock.advance(5 * MINUTE);
      await evaluate();
      expect(await openOf(silent.id)).toEqual(['QUIET-0']);
      await panel.report({ brightness: 10 });
      await evaluate();
      expect(await openOf(silent.id)).toEqual([]);
      await panel.disconnect();
      server.clock.advance(2 * MINUTE);
      await evaluate();
      expect(await openOf(offline.id)).toEqual([]);
      server.clock.advance(30_000);
      await evaluate();
      expect(await openOf(offline.id)).toEqual(['QUIET-0']);
      expect(await openOf(silent.id)).toEqual([]); // offline is not silent
      await panel.reconnect();
      await evaluate();
      expect(await openOf(offline.id)).toEqual([]);
      for (const r of [silent, offline])
        await customer.request('POST', '/alerts/rules/delete', { json: { id: r.id } });
    } finally {
      await panel.close();
    }
  });

  it('abnormal logs: more than K within M minutes, of the chosen apps', async () => {
    const [noisy, calm] = await insertPanels(server, orgId, 2, 'LOGS');
    const log = (device: number, app: string) => ({
      org_id: orgId,
      device_id: device,
      device_key: 'k',
      file_name: 'f.txt',
      app_name: app,
      model: 'PF-86',
      occurred_at: now(),
      upload_date: now(),
      text: 'crash',
    });
    await db()
      .insertInto('abnormal_logs')
      .values([
        ...Array.from({ length: 4 }, () => log(noisy!, 'player')),
        log(calm!, 'player'),
        log(calm!, 'other'),
        log(calm!, 'other'),
      ])
      .execute();
    const rule = await ruleOf(customer, {
      condition: { kind: 'abnormalLogs', count: 3, minutes: 10, apps: ['player'] },
    });
    await evaluate();
    expect(await openOf(rule.id)).toEqual(['LOGS panel 0']);
    server.clock.advance(11 * MINUTE);
    await evaluate();
    expect(await openOf(rule.id)).toEqual([]);
    await customer.request('POST', '/alerts/rules/delete', { json: { id: rule.id } });
  });

  it('command failed: raised by a failed or expired command, cleared by the next success', async () => {
    const rule = await ruleOf(customer, { condition: { kind: 'commandFailed' } });
    const [panel] = await insertPanels(server, orgId, 1, 'CMD');
    const command = (id: string, status: 'failed' | 'succeeded' | 'expired', at: number) => ({
      id,
      org_id: orgId,
      device_id: panel!,
      order_code: 'brightness',
      value: '50',
      status,
      expires_at: at + HOUR,
      created_by: null,
      relay_for: null,
      created_at: at,
      updated_at: at,
    });
    await db()
      .insertInto('commands')
      .values(command('c-old', 'failed', now() - DAY))
      .execute();
    await evaluate();
    expect(await openOf(rule.id)).toEqual([]); // failed before the rule existed
    server.clock.advance(1000);
    await db()
      .insertInto('commands')
      .values(command('c-1', 'expired', now()))
      .execute();
    await evaluate();
    expect(await openOf(rule.id)).toEqual(['CMD panel 0']);
    server.clock.advance(1000);
    await db()
      .insertInto('commands')
      .values(command('c-2', 'succeeded', now()))
      .execute();
    await evaluate();
    expect(await openOf(rule.id)).toEqual([]);
    await customer.request('POST', '/alerts/rules/delete', { json: { id: rule.id } });
  });

  it('tasks: failure share, paused by the health gate, finished', async () => {
    // The tasks are written as the engine leaves them; the engine itself does not move them here.
    await server.app.ota.engine.stop();
    const panels = await insertPanels(server, orgId, 4, 'TASK');
    const task = async (kind: string, state: string, reason = '', finishedAt: number | null = null) => {
      const [row] = await db()
        .insertInto('rollout_tasks')
        .values({
          org_id: orgId,
          kind,
          payload_id: 1,
          payload: '{}',
          payload_label: '2.0.1',
          state: state as never,
          state_reason: reason,
          time_enable: 0,
          fire_at: now(),
          fire_by: null,
          fired_at: now(),
          wave_mode: 'none',
          success_share: 0,
          failure_share: 0,
          min_results: 0,
          wave_count: 1,
          total: 4,
          max_downloads: null,
          created_by: null,
          created_by_name: 'customer1',
          created_at: now(),
          updated_at: now(),
          finished_at: finishedAt,
          lease_owner: null,
          lease_until: null,
        })
        .returning('id')
        .execute();
      return row!.id;
    };
    const failures = await ruleOf(customer, {
      condition: { kind: 'taskFailures', taskKinds: ['ota', 'apk'], percent: 30 },
    });
    const paused = await ruleOf(customer, { condition: { kind: 'taskPaused', taskKinds: ['ota'] } });
    const finished = await ruleOf(customer, { condition: { kind: 'taskFinished', taskKinds: ['program'] } });
    const running = await task('ota', 'running');
    const gated = await task('ota', 'paused', 'ota.pause.failureShare');
    await task('ota', 'paused', 'ota.notRunning');
    server.clock.advance(1000);
    const done = await task('program', 'completed', '', now());
    await db()
      .insertInto('rollout_targets')
      .values(
        panels.map((device, i) => ({
          task_id: running,
          org_id: orgId,
          device_id: device,
          wave: 0,
          state: i < 1 ? 'failed' : 'pending',
          created_at: now(),
          updated_at: now(),
        })),
      )
      .execute();
    await evaluate();
    expect(await openOf(failures.id)).toEqual([]); // 25 %
    await db()
      .updateTable('rollout_targets')
      .set({ state: 'failed' })
      .where('device_id', '=', panels[1]!)
      .execute();
    await evaluate();
    expect(await openOf(failures.id)).toEqual([`OTA #${running} 2.0.1`]);
    const [share] = (await listAlerts(customer, `&ruleIds=${failures.id}`)).listObject;
    expect(share).toMatchObject({
      subject: { type: 'task', id: `ota:${running}`, taskKind: 'ota' },
      detailVars: { failed: 2, total: 4, percent: 50 },
    });
    expect(await openOf(paused.id)).toEqual([`OTA #${gated} 2.0.1`]);
    expect(await openOf(finished.id)).toEqual([`PROGRAM #${done} 2.0.1`]);
    await db()
      .updateTable('rollout_tasks')
      .set({ state: 'running', updated_at: now() })
      .where('id', '=', gated)
      .execute();
    server.clock.advance(DAY + 1000);
    customer = await signedIn(server, 'customer1', 'customer123');
    await evaluate();
    expect(await openOf(paused.id)).toEqual([]);
    expect(await openOf(finished.id)).toEqual([]); // a finished task's alert lasts a day
    expect(await openOf(failures.id)).toEqual([`OTA #${running} 2.0.1`]); // still running with 50 % failed
    for (const r of [failures, paused, finished])
      await customer.request('POST', '/alerts/rules/delete', { json: { id: r.id } });
  });

  it('expiring: a licence of the company and a certificate of its distributor within N days', async () => {
    const [sales] = await db()
      .insertInto('salespeople')
      .values({
        work_number: 'A1',
        name: 'Alert Sales',
        company_name: 'x',
        phone: '1',
        job_state: 1,
        created_at: 0,
      })
      .returning('id')
      .execute();
    const [licence] = await db()
      .insertInto('licenses')
      .values({
        license_key: 'LIC-ALERT',
        company_name: 'Riverside School',
        salesperson_id: sales!.id,
        state: 0,
        type: 0,
        valid_begin: 0,
        valid_end: now() + 5 * DAY,
        used_by_org_id: orgId,
        created_at: 0,
      })
      .returning('id')
      .execute();
    await db()
      .insertInto('certificates')
      .values({
        org_id: server.accounts.distributorId,
        name: 'North CA',
        pem: '',
        sha256: 'ab'.repeat(32),
        subject: 'CN=North',
        issuer: 'CN=North',
        valid_from: 0,
        valid_to: now() + 20 * DAY,
        chain_length: 1,
        uploaded_by: null,
        uploaded_by_name: 'sales1',
        uploaded_at: 0,
      })
      .execute();
    const licences = await ruleOf(customer, { condition: { kind: 'expiring', what: 'licence', days: 10 } });
    const certificates = await ruleOf(customer, {
      condition: { kind: 'expiring', what: 'certificate', days: 30 },
    });
    await evaluate();
    expect(await openOf(licences.id)).toEqual(['Riverside School LIC-ALERT']);
    expect(await openOf(certificates.id)).toEqual(['North CA']);
    await db()
      .updateTable('licenses')
      .set({ valid_end: now() + 365 * DAY })
      .where('id', '=', licence!.id)
      .execute();
    await evaluate();
    expect(await openOf(licences.id)).toEqual([]);
    expect((await countAlerts(customer)).active).toBeGreaterThanOrEqual(1);
    for (const r of [licences, certificates])
      await customer.request('POST', '/alerts/rules/delete', { json: { id: r.id } });
  });
});
