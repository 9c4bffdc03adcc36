import { ota } from '@panelfleet/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backends } from './harness.js';
import { otaRig } from './ota-rig.js';
import { RolloutRepository } from '../src/modules/rollouts/repository.js';
import { settleWaves } from '../src/modules/rollouts/wave-cut-repository.js';

/**
 * Staged tasks whose waves are guessed from the label's members before the insert and corrected
 * after it (SQLite; PostgreSQL numbers its rows, and must give the same waves): where the skipped
 * panels lie decides how wrong the guess is, never the waves a panel ends in.
 */
describe.each(backends)('OTA staged waves when the skipped panels are bunched on %s', (backend) => {
  const rig = otaRig(backend);
  const { ok, publish, fleetOf, labelOf, targets } = rig;
  const db = () => rig.server.app.db.kysely;
  const HOUR = 3_600_000;

  /** 300 panels made straight in the database; `oldType(i)`: the i-th is an x9_vn the file does not fit. */
  async function panels(prefix: string, oldType: (i: number) => boolean) {
    const { rows } = await fleetOf(prefix, 1);
    const { org_id: orgId } = await db()
      .selectFrom('devices')
      .select('org_id')
      .where('id', '=', rows[0]!.id)
      .executeTakeFirstOrThrow();
    const made = await db()
      .insertInto('devices')
      .values(
        Array.from({ length: 300 }, (_, i) => ({
          org_id: orgId,
          device_key: `${prefix}-X${String(i).padStart(4, '0')}`,
          name: `${prefix} ${i}`,
          secret_hash: 'x'.repeat(64),
          machine_type: oldType(i) ? 'x9_vn' : i % 2 ? 'oem' : 'rs',
          ota_version: '1.4.2',
          enrolled_at: rig.server.clock.now(),
          utc_offset: 480,
        })),
      )
      .returning(['id', 'device_key', 'machine_type'])
      .execute();
    return { orgId, made: made.sort((a, b) => a.id - b.id) };
  }

  const at = () => new Date(rig.server.clock.now() + 24 * HOUR).toISOString().slice(0, 19).replace('T', ' ');

  /** Each panel's state and wave as the rule says: eligible ones by device id, `first`, then `step` a wave. */
  const expected = (
    made: Array<{ device_key: string; machine_type: string }>,
    first: number,
    step: number,
  ) => {
    const eligible = made.filter((d) => d.machine_type !== 'x9_vn').map((d) => d.device_key);
    return made.map((d) => {
      const rank = eligible.indexOf(d.device_key) + 1;
      if (rank === 0) return [d.device_key, 'skipped', -1];
      return [d.device_key, 'queued', rank <= first ? 0 : 1 + Math.floor((rank - first - 1) / step)];
    });
  };

  async function checkWaves(taskId: number, want: Array<Array<string | number>>, waves: number) {
    const got = await targets(taskId);
    expect(got.map((t) => [t.device_key, t.state, Number(t.wave)])).toEqual(want);
    const sizes = await db()
      .selectFrom('rollout_waves')
      .select(['wave', 'size'])
      .where('task_id', '=', taskId)
      .orderBy('wave')
      .execute();
    expect(sizes.map((w) => [Number(w.wave), Number(w.size)])).toEqual(
      Array.from({ length: waves }, (_, w) => [w, want.filter((t) => t[2] === w).length]),
    );
  }

  const layouts = [
    { name: 'none skipped', prefix: 'CUTA', oldType: () => false },
    { name: 'the first 120 skipped', prefix: 'CUTB', oldType: (i: number) => i < 120 },
    { name: 'the last 150 skipped', prefix: 'CUTC', oldType: (i: number) => i >= 150 },
    {
      name: 'every other of the middle skipped',
      prefix: 'CUTD',
      oldType: (i: number) => i >= 100 && i < 200 && i % 2 === 0,
    },
  ];
  for (const layout of layouts)
    it(`force upgrade in waves, ${layout.name}: every panel in the wave of its rank`, async () => {
      const { made } = await panels(layout.prefix, layout.oldType);
      const label = await labelOf(
        layout.prefix.toLowerCase(),
        made.map((d) => d.id),
      );
      const fileId = await publish(`8.${layouts.indexOf(layout)}.0`, { types: ['oem', 'rs'] });
      const eligible = made.filter((d) => d.machine_type !== 'x9_vn').length;
      const share = (pct: number) => Math.max(1, Math.ceil((eligible * pct) / 100));
      const cases = [
        {
          params: { waveMode: 'percent', firstWave: '10', waveStep: '30' },
          first: share(10),
          step: share(30),
        },
        { params: { waveMode: 'count', firstWave: '7', waveStep: '40' }, first: 7, step: 40 },
      ];
      for (const c of cases) {
        const task = ota.forceUpdate.reply.parse(
          ok(
            await rig.operator.post('/otaFile/forceUpdate', {
              tagIds: String(label),
              otaFileId: String(fileId),
              timeEnable: '1',
              upgradeTime: at(),
              utcOffset: '0',
              ...c.params,
            }),
            `force ${JSON.stringify(c.params)}`,
          ),
        ).dataObject;
        const waves = 1 + Math.ceil(Math.max(0, eligible - c.first) / c.step);
        expect(task).toMatchObject({ deviceCount: 300, skippedCount: 300 - eligible, waveCount: waves });
        await checkWaves(task.otaTaskId, expected(made, c.first, c.step), waves);
        ok(await rig.operator.post(ota.cancelOtaTask.path, { otaTaskId: String(task.otaTaskId) }), 'cancel');
      }
    });

  it('a staged task to chosen panels takes its waves from their ids, the skipped ones left out', async () => {
    const { orgId, made } = await panels('CUTE', (i) => i < 90 || i % 7 === 0);
    const rollouts = new RolloutRepository(db(), rig.server.app.db.dialect);
    const created = await rollouts.createTask(
      {
        orgId,
        // A kind no module registers: the engine keeps the task but sends nothing.
        kind: 'cut-test',
        payloadId: 1,
        payload: {},
        payloadLabel: 'x',
        labelIds: [],
        // Listed out of order and one twice: the waves follow the device ids.
        deviceIds: [...made.map((d) => d.id).reverse(), made[0]!.id],
        skip: [{ reason: 'machineType', column: 'machine_type', notIn: ['oem', 'rs'] }],
        timeEnable: true,
        fireAt: rig.server.clock.now() + 24 * HOUR,
        fireBy: null,
        waves: { mode: 'count' },
        successShare: 100,
        failureShare: 0,
        minResults: 1,
        maxDownloads: null,
        createdBy: null,
        createdByName: 'test',
        now: rig.server.clock.now(),
      },
      { first: 11, step: 50 },
    );
    const eligible = made.filter((d) => d.machine_type !== 'x9_vn').length;
    const waves = 1 + Math.ceil((eligible - 11) / 50);
    expect(created).toMatchObject({ total: 300, skipped: 300 - eligible, waveCount: waves });
    await checkWaves(created.id, expected(made, 11, 50), waves);
    await db().deleteFrom('rollout_tasks').where('id', '=', created.id).execute();
  });

  it('a chosen id that is no panel of the company shifts the guess; the waves still follow the panels', async () => {
    const { orgId, made } = await panels('CUTG', () => false);
    const rollouts = new RolloutRepository(db(), rig.server.app.db.dialect);
    const created = await rollouts.createTask(
      {
        orgId,
        kind: 'cut-test',
        payloadId: 3,
        payload: {},
        payloadLabel: 'x',
        labelIds: [],
        // Nothing is skipped, but id 0 is no panel: one member fewer than the ids listed.
        deviceIds: [0, ...made.map((d) => d.id)],
        skip: [],
        timeEnable: true,
        fireAt: rig.server.clock.now() + 24 * HOUR,
        fireBy: null,
        waves: { mode: 'count' },
        successShare: 100,
        failureShare: 0,
        minResults: 1,
        maxDownloads: null,
        createdBy: null,
        createdByName: 'test',
        now: rig.server.clock.now(),
      },
      { first: 25, step: 100 },
    );
    expect(created).toMatchObject({ total: 300, skipped: 0, waveCount: 4 });
    await checkWaves(created.id, expected(made, 25, 100), 4);
    await db().deleteFrom('rollout_tasks').where('id', '=', created.id).execute();
  });

  it('settling moves only the rows whose wave is wrong, and none when every wave is right', async () => {
    const { orgId, made } = await panels('CUTF', () => false);
    const now = rig.server.clock.now();
    const { id: taskId } = await db()
      .insertInto('rollout_tasks')
      .values({
        org_id: orgId,
        kind: 'cut-test',
        payload_id: 2,
        payload: '{}',
        payload_label: 'x',
        state: 'scheduled',
        time_enable: 1,
        fire_at: now + 24 * HOUR,
        fire_by: null,
        fired_at: null,
        wave_mode: 'count',
        success_share: 100,
        failure_share: 0,
        min_results: 1,
        wave_count: 3,
        total: 300,
        max_downloads: null,
        created_by: null,
        created_by_name: 'test',
        created_at: now,
        updated_at: now,
        finished_at: null,
        lease_owner: null,
        lease_until: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Waves of 100 guessed as 90 / 120 / 90: 10 rows of the guessed wave 1 belong to wave 0, 10 to wave 2.
    await db()
      .insertInto('rollout_targets')
      .values(
        made.map((d, i) => ({
          task_id: taskId,
          org_id: orgId,
          device_id: d.id,
          wave: i < 90 ? 0 : i < 210 ? 1 : 2,
          state: 'queued',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const waveOf = async () =>
      (
        await db()
          .selectFrom('rollout_targets')
          .select('wave')
          .where('task_id', '=', taskId)
          .orderBy('device_id')
          .execute()
      ).map((t) => Number(t.wave));
    const right = made.map((_, i) => Math.floor(i / 100));
    // Wave 0 must take the first 10 of guessed wave 1; wave 1 the first 10 of guessed wave 2.
    expect(
      await db()
        .transaction()
        .execute((trx) => settleWaves(trx, taskId, [100, 100, 100])),
    ).toBe(20);
    expect(await waveOf()).toEqual(right);
    expect(
      await db()
        .transaction()
        .execute((trx) => settleWaves(trx, taskId, [100, 100, 100])),
    ).toBe(0);
    expect(await waveOf()).toEqual(right);
    // Skipped rows stay out of every wave.
    await sql`UPDATE rollout_targets SET state = 'skipped', wave = -1 WHERE task_id = ${taskId} AND device_id <= ${made[49]!.id}`.execute(
      db(),
    );
    expect(
      await db()
        .transaction()
        .execute((trx) => settleWaves(trx, taskId, [125, 125])),
    ).toBe(175);
    expect(await waveOf()).toEqual(made.map((_, i) => (i < 50 ? -1 : i < 175 ? 0 : 1)));
    await db().deleteFrom('rollout_tasks').where('id', '=', taskId).execute();
  });
});
