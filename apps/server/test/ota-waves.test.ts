import { ota, translate } from '@panelfleet/contract';
import { describe, expect, it } from 'vitest';
import { backends } from './harness.js';
import { waitFor } from './device-helpers.js';
import { otaRig } from './ota-rig.js';

describe.each(backends)(
  'OTA rollouts: waves, the health gate, cancelling and timed tasks on %s',
  (backend) => {
    const rig = otaRig(backend);
    const { ok, publish, fleetOf, labelOf, targets, otaCommandsOf } = rig;

    it('R8: a wave where 30% of panels fail pauses the task; no panel outside the tripped wave is updated', async () => {
      const { rows, panel } = await fleetOf('R8', 20);
      const fileId = await publish('3.0.0');
      const label = await labelOf(
        'r8 all',
        rows.map((r) => r.id),
      );
      // Wave 1 is the 10 panels with the lowest ids; 3 of them receive a corrupted image.
      const wave1 = rows.slice(0, 10);
      const outside = rows.slice(10);
      for (const r of wave1.slice(0, 3)) panel(r.device_key).corruptNextOta = true;
      const task = ota.forceUpdate.reply.parse(
        ok(
          await rig.operator.post('/otaFile/forceUpdate', {
            tagIds: String(label),
            otaFileId: String(fileId),
            waveMode: 'count',
            firstWave: '10',
            waveStep: '10',
            successShare: '90',
            failureShare: '20',
            minResults: '5',
          }),
          'force',
        ),
      ).dataObject;
      expect(task).toMatchObject({ deviceCount: 20, skippedCount: 0, waveCount: 2 });
      const paused = await waitFor(
        'the task to pause itself',
        async () => {
          const t = ota.getOtaTask.reply.parse(
            (await rig.operator.get(`/otaTask/selectById?otaTaskId=${task.otaTaskId}`)).body,
          ).dataObject;
          return t.state === 'paused' ? t : undefined;
        },
        30_000,
      );
      expect(paused.stateReason).toMatch(/failed/);
      // It started at once: fired when made, its first wave started, the second not yet.
      expect(paused.firedAt).not.toBeNull();
      expect(paused.waves.map((w) => [w.state === 'pending', w.startedAt === null])).toEqual([
        [false, false],
        [true, true],
      ]);
      // Panels of the wave still running finish; give them the time, then nothing outside moved.
      await waitFor(
        'wave 1 to settle',
        async () => {
          const ts = await targets(task.otaTaskId);
          return ts.slice(0, 10).every((t) => ['succeeded', 'failed'].includes(t.state)) ? ts : undefined;
        },
        30_000,
      );
      await new Promise((r) => setTimeout(r, 500));
      const after = await targets(task.otaTaskId);
      const failed = after.slice(0, 10).filter((t) => t.state === 'failed').length;
      const outsideUpdated = outside.filter((r) => panel(r.device_key).state.otaVersion !== '1.4.2').length;
      expect(failed).toBe(3);
      expect(outsideUpdated).toBe(0);
      expect(after.slice(10).every((t) => t.state === 'queued')).toBe(true);
      expect(await otaCommandsOf(outside.map((r) => r.id))).toEqual([]);
      console.log(
        `R8: wave 1 of 10 panels, ${failed} failed (${failed * 10}%) -> paused ("${paused.stateReason}"); panels outside the wave updated: ${outsideUpdated}`,
      );

      // The operator accepts the wave: the next one runs.
      ok(await rig.operator.post('/otaTask/resume', { otaTaskId: String(task.otaTaskId) }), 'resume');
      await waitFor(
        'wave 2 to install',
        async () => {
          const ts = await targets(task.otaTaskId);
          return ts.slice(10).every((t) => t.state === 'succeeded') ? ts : undefined;
        },
        30_000,
      );
      const done = await waitFor('the task to complete', async () => {
        const t = ota.getOtaTask.reply.parse(
          (await rig.operator.get(`/otaTask/selectById?otaTaskId=${task.otaTaskId}`)).body,
        ).dataObject;
        return t.state === 'completed' ? t : undefined;
      });
      expect(done).toMatchObject({ deviceUpgradeState: '1', canManage: '0' });
      expect(done.counts).toMatchObject({ succeeded: 17, failed: 3 });
      const log = ota.listOtaLog.reply.parse(
        (await rig.operator.get('/otaLog/listOtaLog?start=1&size=50&deviceKey=R8-&status=2')).body,
      );
      expect(log.totalRecords).toBe(3);
      expect(log.listObject.every((r) => r.reason === 'checksum' && r.otaNewVersion === '3.0.0')).toBe(true);
      const file = ota.getOtaFile.reply.parse(
        (await rig.operator.get(`/otaFile/selectById?otaFileId=${fileId}`)).body,
      ).dataObject;
      expect(file.finishUpgradeDeviceCount).toBe(17);
    });

    it('cancelling a panel mid-download stops its download; --ota-fail-rate fails installs; an install takes the panel offline and back', async () => {
      const { rows, panel } = await fleetOf('CANC', 1);
      const fileId = await publish('6.7.0', { size: 3_000_000 });
      rig.proxy.slow.add(rows[0]!.device_key);
      const label = await labelOf('cancel', [rows[0]!.id]);
      const task = ota.forceUpdate.reply.parse(
        ok(
          await rig.operator.post('/otaFile/forceUpdate', {
            tagIds: String(label),
            otaFileId: String(fileId),
          }),
          'force',
        ),
      ).dataObject.otaTaskId;
      await waitFor('the download to run', async () => {
        await rig.server.app.devices.gateway.flushState();
        const [t] = await targets(task);
        const d = await rig.server.app.db.kysely
          .selectFrom('devices')
          .select('ota_current')
          .where('id', '=', rows[0]!.id)
          .executeTakeFirstOrThrow();
        return t!.state === 'downloading' && (d.ota_current ?? 0) > 0;
      });
      ok(
        await rig.operator.post('/otaTask/cancelDevice', {
          otaTaskId: String(task),
          deviceId: String(rows[0]!.id),
        }),
        'cancel',
      );
      const stopped = await waitFor('the panel to stop', () =>
        panel(rows[0]!.device_key).otaFailures.find((f) => f.detail === 'cancelled'),
      );
      expect(stopped).toBeTruthy();
      expect((await targets(task))[0]).toMatchObject({ state: 'cancelled', reason: 'operator' });
      expect(panel(rows[0]!.device_key).state.otaVersion).toBe('1.4.2');
      const cancelOrder = await waitFor('OTA_CANCEL acknowledged', async () => {
        const c = await rig.server.app.db.kysely
          .selectFrom('commands')
          .select('status')
          .where('order_code', '=', 'OTA_CANCEL')
          .where('device_id', '=', rows[0]!.id)
          .executeTakeFirst();
        return c?.status === 'succeeded' ? c : undefined;
      });
      expect(cancelOrder.status).toBe('succeeded');
      rig.proxy.slow.clear();

      const failing = await fleetOf('FAILR', 1, { otaFailRate: 1 });
      const rebooting = await fleetOf('REBOOT', 1, { installMs: 300 });
      const both = await labelOf('fail and reboot', [failing.rows[0]!.id, rebooting.rows[0]!.id]);
      const second = ota.forceUpdate.reply.parse(
        ok(
          await rig.operator.post('/otaFile/forceUpdate', {
            tagIds: String(both),
            otaFileId: String(fileId),
          }),
          'force',
        ),
      ).dataObject.otaTaskId;
      const done = await waitFor('both to finish', async () => {
        const ts = await targets(second);
        return ts.every((t) => ['succeeded', 'failed'].includes(t.state)) ? ts : undefined;
      });
      expect(done.map((t) => [t.device_key.split('-')[0], t.state, t.reason])).toEqual([
        ['FAILR', 'failed', 'install'],
        ['REBOOT', 'succeeded', ''],
      ]);
      expect(rebooting.panel(rebooting.rows[0]!.device_key).state.otaVersion).toBe('6.7.0');
      expect(failing.panel(failing.rows[0]!.device_key).state.otaVersion).toBe('1.4.2');
    });

    it('a timed task whose server comes back after the late window is missed, its panels skipped with the reason', async () => {
      const fileId = await publish('6.0.0');
      const label = await labelOf('late', [(await fleetOf('LATE', 1)).rows[0]!.id]);
      const at = new Date(rig.server.clock.now() + 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
      const task = ota.forceUpdate.reply.parse(
        ok(
          await rig.operator.post('/otaFile/forceUpdate', {
            tagIds: String(label),
            otaFileId: String(fileId),
            timeEnable: '1',
            upgradeTime: at,
            utcOffset: '0',
          }),
          'timed',
        ),
      ).dataObject.otaTaskId;
      // The server's clock jumps past the time and the 24 h late window, as after a long outage.
      const frozen = rig.server.clock.time;
      rig.server.clock.advance(3_600_000 + 24 * 3_600_000 + 1000);
      // A round of the engine's own timer may be under way with the old time: tick() then returns
      // that round, so a second tick runs one that reads the advanced clock.
      await rig.server.app.ota.engine.tick();
      await rig.server.app.ota.engine.tick();
      rig.server.clock.time = frozen;
      const view = ota.getOtaTask.reply.parse(
        (await rig.operator.get(`/otaTask/selectById?otaTaskId=${task}`)).body,
      ).dataObject;
      expect(view).toMatchObject({
        state: 'missed',
        deviceUpgradeState: '1',
        firedAt: null,
        stateReason: translate('en-US', 'ota.missed'),
      });
      expect((await targets(task)).map((t) => [t.state, t.reason])).toEqual([
        ['skipped', 'lateWindowPassed'],
      ]);
    });

    it('staged waves take the panels that pass the skip rules in device order, in panels or percent, however many waves', async () => {
      const { rows } = await fleetOf('WAVES', 1);
      const db = rig.server.app.db.kysely;
      const { org_id: orgId } = await db
        .selectFrom('devices')
        .select('org_id')
        .where('id', '=', rows[0]!.id)
        .executeTakeFirstOrThrow();
      // 300 panels written straight to the database (the tasks are timed: nothing is sent to them),
      // over several of the buckets of ids in which SQLite finds where waves end; every third is an
      // x9_vn that the file does not fit, so skipped rows lie between the others.
      const now = rig.server.clock.now();
      const made = await db
        .insertInto('devices')
        .values(
          Array.from({ length: 300 }, (_, i) => ({
            org_id: orgId,
            device_key: `WAVES-${String(i).padStart(4, '0')}`,
            name: `Waves ${i}`,
            secret_hash: 'x'.repeat(64),
            machine_type: ['x9_vn', 'oem', 'rs'][i % 3]!,
            ota_version: '1.4.2',
            enrolled_at: now,
            utc_offset: 480,
          })),
        )
        .returning(['id', 'device_key', 'machine_type'])
        .execute();
      const label = await labelOf(
        'waves',
        made.map((d) => d.id),
      );
      const fileId = await publish('7.5.0', { types: ['oem', 'rs'] });
      const eligible = made
        .filter((d) => d.machine_type !== 'x9_vn')
        .sort((a, b) => a.id - b.id)
        .map((d) => d.device_key);
      expect(eligible).toHaveLength(200);
      const at = new Date(rig.server.clock.now() + 24 * 3_600_000)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' ');
      const cases = [
        // 10% then 30% of the 200 eligible: 20, then 60 a wave.
        { params: { waveMode: 'percent', firstWave: '10', waveStep: '30' }, first: 20, step: 60, waves: 4 },
        { params: { waveMode: 'count', firstWave: '5', waveStep: '20' }, first: 5, step: 20, waves: 11 },
        // 198 waves: more than the CASE over ids takes, so the rows are numbered instead.
        { params: { waveMode: 'count', firstWave: '3', waveStep: '1' }, first: 3, step: 1, waves: 198 },
      ];
      for (const c of cases) {
        const task = ota.forceUpdate.reply.parse(
          ok(
            await rig.operator.post('/otaFile/forceUpdate', {
              tagIds: String(label),
              otaFileId: String(fileId),
              timeEnable: '1',
              upgradeTime: at,
              utcOffset: '0',
              ...c.params,
            }),
            `force ${JSON.stringify(c.params)}`,
          ),
        ).dataObject;
        expect(task).toMatchObject({ deviceCount: 300, skippedCount: 100, waveCount: c.waves });
        const waveOf = (key: string) => {
          const rank = eligible.indexOf(key) + 1;
          if (rank === 0) return -1;
          return rank <= c.first ? 0 : 1 + Math.floor((rank - c.first - 1) / c.step);
        };
        const got = await targets(task.otaTaskId);
        expect(got.map((t) => [t.device_key, t.state, t.wave])).toEqual(
          made
            .sort((a, b) => a.id - b.id)
            .map((d) => [
              d.device_key,
              waveOf(d.device_key) < 0 ? 'skipped' : 'queued',
              waveOf(d.device_key),
            ]),
        );
        const sizes = await db
          .selectFrom('rollout_waves')
          .select(['wave', 'size'])
          .where('task_id', '=', task.otaTaskId)
          .orderBy('wave')
          .execute();
        expect(sizes.map((w) => w.size)).toEqual(
          Array.from({ length: c.waves }, (_, w) => got.filter((t) => t.wave === w).length),
        );
        expect(sizes.reduce((n, w) => n + w.size, 0)).toBe(200);
        // The manage dialog: a panel skipped when the task was made is in no wave.
        const listed = async (state: string) =>
          ota.listOtaTaskDevices.reply.parse(
            (
              await rig.operator.get(
                `/otaTask/listDevice?otaTaskId=${task.otaTaskId}&start=1&size=100&state=${state}`,
              )
            ).body,
          ).listObject;
        expect((await listed('skipped')).map((d) => d.wave)).toEqual(Array(100).fill(null));
        expect((await listed('queued')).every((d) => d.wave !== null && d.wave >= 0)).toBe(true);
        ok(await rig.operator.post(ota.cancelOtaTask.path, { otaTaskId: String(task.otaTaskId) }), 'cancel');
      }
    });
  },
);
