import { device, ota, otaRules, translate } from '@panelfleet/contract';
import { describe, expect, it } from 'vitest';
import { backends } from './harness.js';
import { waitFor } from './device-helpers.js';
import { firmwareBytes, tusTarget, tusUpload } from './ota-helpers.js';
import { otaRig } from './ota-rig.js';

describe.each(backends)('OTA dispatch: policies, the device picker and reminders on %s', (backend) => {
  const rig = otaRig(backend);
  const { ok, publish, fleetOf, labelOf, targets } = rig;

  it('applies policies at dispatch: IP whitelist (CIDR), serial list, time-zone windows; skipped and waiting panels say why', async () => {
    const { rows } = await fleetOf('POL', 4);
    const rule = otaRules.insertOtaRule.reply.parse(
      ok(
        await rig.operator.post('/otaRule/insert', {
          name: 'office',
          remark: 'r',
          enableIp: '1',
          enableSn: '1',
          enableTimezone: '1',
        }),
        'rule',
      ),
    ).dataObject.otaRuleId;
    ok(
      await rig.operator.post('/otaRule/addOtaRuleWhite', { otaRuleId: String(rule), ip: '203.0.113.0/24' }),
      'ip',
    );
    ok(
      await rig.operator.post('/otaRule/addOtaRuleSn', {
        otaRuleId: String(rule),
        deviceKeys: `${rows[0]!.device_key}\n${rows[1]!.device_key}, ${rows[2]!.device_key}`,
      }),
      'sn',
    );
    const db = rig.server.app.db.kysely;
    // Panel 0: allowed, its zone (GMT+08:00) opens in the past; panel 1: zone GMT+05:30 opens tomorrow;
    // panel 2: address outside the whitelist; panel 3: not on the serial list.
    await db.updateTable('devices').set({ utc_offset: 330 }).where('id', '=', rows[1]!.id).execute();
    await db
      .updateTable('devices')
      .set({ public_ip: '198.51.100.7' })
      .where('id', '=', rows[2]!.id)
      .execute();
    const local = (offset: number, deltaMs: number) => {
      const d = new Date(rig.server.clock.now() + deltaMs + offset * 60_000).toISOString();
      return `${d.slice(0, 10)} ${d.slice(11, 19)}`;
    };
    ok(
      await rig.operator.post('/otaRule/addOtaRuleList', {
        otaRuleId: String(rule),
        timeZone: 'GMT+08:00',
        startTime: local(480, -60_000),
        remark: '',
      }),
      'zone',
    );
    ok(
      await rig.operator.post('/otaRule/addOtaRuleList', {
        otaRuleId: String(rule),
        timeZone: 'GMT+05:30',
        startTime: local(330, 86_400_000),
        remark: '',
      }),
      'zone 2',
    );
    const fileId = await publish('4.0.0', { ruleId: rule });
    const label = await labelOf(
      'policy',
      rows.map((r) => r.id),
    );
    const task = ota.forceUpdate.reply.parse(
      ok(
        await rig.operator.post('/otaFile/forceUpdate', { tagIds: String(label), otaFileId: String(fileId) }),
        'force',
      ),
    ).dataObject;
    const ts = await waitFor(
      'policy decisions',
      async () => {
        const all = await targets(task.otaTaskId);
        return all[0]!.state === 'succeeded' &&
          all.slice(1).every((t) => ['waiting', 'skipped'].includes(t.state))
          ? all
          : undefined;
      },
      30_000,
    );
    expect(ts.map((t) => [t.state, t.reason])).toEqual([
      ['succeeded', ''],
      ['waiting', ''],
      ['skipped', 'ipNotAllowed'],
      ['skipped', 'serialNotListed'],
    ]);
    const devices = ota.listOtaTaskDevices.reply.parse(
      (await rig.operator.get(`/otaTask/listDevice?otaTaskId=${task.otaTaskId}&start=1&size=10`)).body,
    );
    const waiting = devices.listObject.find((d) => d.deviceId === rows[1]!.id)!;
    expect(waiting).toMatchObject({ state: 'waiting', reason: '' });
    expect(waiting.notBefore).toBeGreaterThan(rig.server.clock.now() + 80_000_000);
    // Cancel the waiting one; the task then has nothing open and completes.
    ok(
      await rig.operator.post('/otaTask/cancelDevice', {
        otaTaskId: String(task.otaTaskId),
        deviceId: String(rows[1]!.id),
      }),
      'cancel one',
    );
    await waitFor('completion', async () => {
      const t = ota.getOtaTask.reply.parse(
        (await rig.operator.get(`/otaTask/selectById?otaTaskId=${task.otaTaskId}`)).body,
      ).dataObject;
      return t.state === 'completed' ? t : undefined;
    });
    const again = await rig.operator.post(
      '/otaTask/cancel',
      { otaTaskId: String(task.otaTaskId) },
      { 'accept-language': 'zh-CN' },
    );
    expect(again.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('zh-CN', 'ota.taskFinished') });
  });

  it('the device picker lists the panels a file fits; files lock the machine types and versions they name', async () => {
    const { rows } = await fleetOf('PICK', 4);
    const label = await labelOf(
      'picker',
      rows.map((r) => r.id),
    );
    const oem = rows.filter((r) => r.machine_type === 'oem');
    const fileId = await publish('6.1.0', { types: ['oem'], from: [] });
    const page = device.selectByTag.reply.parse(
      ok(
        await rig.operator.post('/platform/device/selectByTag', {
          tags: String(label),
          otaFileId: String(fileId),
          start: '1',
          size: '5',
        }),
        'picker',
      ),
    );
    expect(page.listObject.map((d) => d.deviceKey).sort()).toEqual(oem.map((r) => r.device_key).sort());
    const byType = device.selectByTag.reply.parse(
      ok(
        await rig.operator.post('/platform/device/selectByTag', {
          tags: String(label),
          machineTypeId: String(rig.machineTypeIds.get('rs')),
          start: '1',
          size: '5',
        }),
        'picker by type',
      ),
    );
    expect(byType.listObject.every((d) => d.machineType === 'rs')).toBe(true);
    // A machine type only a file names is locked by it; a disabled one is not offered.
    const lab = ok(
      await rig.admin.post('/platform/machineType/insert', {
        machineType: 'lab',
        enable: '1',
        inputSourceIds: '',
      }),
      'type',
    ) as {
      dataObject: { machineTypeId: number };
    };
    rig.machineTypeIds.set('lab', lab.dataObject.machineTypeId);
    await publish('6.2.0', { types: ['lab'] });
    const refused = await rig.admin.post('/platform/machineType/delete', {
      machineTypeId: String(lab.dataObject.machineTypeId),
    });
    expect(refused.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'machineType.inUse', { count: 1 }),
    });
    const spare = ok(
      await rig.admin.post('/platform/machineType/insert', {
        machineType: 'spare',
        enable: '0',
        inputSourceIds: '',
      }),
      'type',
    ) as {
      dataObject: { machineTypeId: number };
    };
    const offered = ota.listMachineTypeOptions.reply.parse(
      (await rig.operator.get('/otaFile/machineTypeOptions')).body,
    ).listObject;
    expect(offered.map((o) => o.machineType)).not.toContain('spare');
    const t = tusTarget(rig.server.url, rig.operator);
    const uploadId = await tusUpload(t, firmwareBytes(1000, 4343), 'spare.bin');
    expect(
      (
        await rig.operator.post('/otaFile/insert', {
          uploadId,
          otaVersion: '6.3.0',
          fitMachineTypeId: String(spare.dataObject.machineTypeId),
        })
      ).body,
    ).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', 'ota.machineTypeUnknown') });
  });

  it("carries the reminder of the panel's machine type and version in its language, which the panel shows before installing", async () => {
    const { rows, panel } = await fleetOf('REMIND', 1);
    const warning = ok(
      await rig.admin.post('/warning/addWarning', {
        machineType: rows[0]!.machine_type!,
        otaVersion: '6.8.0',
        remark: 'probe',
      }),
      'reminder',
    ) as { dataObject: { warningId: number } };
    ok(
      await rig.admin.post('/warningMessage/addWarningMessage', {
        warningId: String(warning.dataObject.warningId),
        language: 'en_US',
        message: 'Keep the panel powered during the update.',
      }),
      'reminder message',
    );
    const fileId = await publish('6.8.0', { types: [rows[0]!.machine_type!] });
    const progress: Array<{ taskId: string; done: number; total: number; finished: boolean }> = [];
    const unsubscribe = rig.server.app.events.subscribe((message) => {
      if (message.kind === 'live' && message.event.type === 'taskProgress') progress.push(message.event);
    });
    const label = await labelOf('reminder', [rows[0]!.id]);
    const task = ota.forceUpdate.reply.parse(
      ok(
        await rig.operator.post('/otaFile/forceUpdate', { tagIds: String(label), otaFileId: String(fileId) }),
        'force',
      ),
    ).dataObject.otaTaskId;
    await waitFor('the install', async () => (await targets(task))[0]!.state === 'succeeded');
    expect(panel(rows[0]!.device_key).shownReminders).toEqual([
      { version: '6.8.0', reminder: 'Keep the panel powered during the update.' },
    ]);
    const ack = await rig.server.app.db.kysely
      .selectFrom('commands')
      .select('value')
      .where('order_code', '=', 'OTA')
      .where('device_id', '=', rows[0]!.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(ack.value)).toMatchObject({ reminder: 'Keep the panel powered during the update.' });
    // The live console hears the task's progress, ending with the finished count.
    await waitFor('the finished progress event', () =>
      progress.find((p) => p.taskId === String(task) && p.finished),
    );
    unsubscribe();
    expect(progress.filter((p) => p.taskId === String(task)).at(-1)).toMatchObject({ done: 1, total: 1 });
  });
});
