import { programs } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from '../../simulator/src/fleet.js';
import { waitFor } from './device-helpers.js';
import { backends, signedIn, type TestClient, type TestServer } from './harness.js';
import type { ForwardingProxy } from './ota-helpers.js';
import { startProgramBench, type ProgramBench } from './program-bench.js';

/** One second of play time lasts this long on the simulated panels (their play clock). */
const PLAY_SECOND_MS = 100;

// The end of a program's play time (`finished`) and stopping a publish task (PROGRAM_STOP), with
// simulated panels whose play clock runs fast.
describe.each(backends)('finishing and stopping published programs on %s', (backend) => {
  let server: TestServer;
  let bench: ProgramBench;
  let proxy: ForwardingProxy;
  let fleet: Fleet;
  let creator: TestClient;
  let level1: TestClient;
  let level2: TestClient;
  let foreign: TestClient;
  let devices: Array<{ id: number; device_key: string }>;
  let imageId: number;

  const ok = (reply: { body: Record<string, unknown>; text: string }, what: string) => {
    if (reply.body.hhtStatus !== 'success') throw new Error(`${what}: ${reply.text}`);
    return reply.body;
  };
  const fail = (message: string) => ({ hhtStatus: 'fail', hhtMsg: message });
  const panelOf = (i: number) => fleet.panels.find((p) => p.serial === devices[i]!.device_key)!;

  /** A program that passed both approvals, published to the panels `indexes`. */
  async function published(name: string, playTime: number, indexes: number[]) {
    const content = JSON.stringify([
      { type: 'image', materialId: imageId, duration: 10 },
      { type: 'web', url: 'https://example.com/menu', duration: 20 },
    ]);
    const { programId } = programs.insertProgram.reply.parse(
      ok(await creator.post('/program/insert', { name, playTime: String(playTime), content }), 'insert'),
    ).dataObject;
    const act = (client: TestClient, reason: string) =>
      client.post('/approval/approvalProcess', { programId: String(programId), status: '1', reason });
    ok(await act(creator, 'submit'), 'submit');
    ok(await act(level1, 'pass 1'), 'pass 1');
    ok(await act(level2, 'pass 2'), 'pass 2');
    const task = programs.publishProgram.reply.parse(
      ok(
        await creator.post('/program/packZip', {
          programId: String(programId),
          deviceIds: indexes.map((i) => devices[i]!.id).join(','),
        }),
        'publish',
      ),
    ).dataObject;
    return { programId, taskId: task.taskId };
  }

  async function targets(taskId: number) {
    return programs.listPublishTargets.reply.parse(
      (await creator.get(`/program/publishTargets?taskId=${taskId}&start=1&size=50`)).body,
    ).listObject;
  }
  const stateOf = async (taskId: number, i: number) =>
    (await targets(taskId)).find((t) => t.deviceId === devices[i]!.id)?.state;
  const commandOf = async (taskId: number, i: number) =>
    (
      await server.app.db.kysely
        .selectFrom('rollout_targets')
        .select('command_id')
        .where('task_id', '=', taskId)
        .where('device_id', '=', devices[i]!.id)
        .executeTakeFirstOrThrow()
    ).command_id!;
  const allIn = async (taskId: number, state: string) => {
    const rows = await targets(taskId);
    return rows.every((r) => r.state === state) ? rows : undefined;
  };
  const stopOrders = (deviceId: number) =>
    server.app.db.kysely
      .selectFrom('commands')
      .select(['status', 'detail', 'value'])
      .where('order_code', '=', 'PROGRAM_STOP')
      .where('device_id', '=', deviceId)
      .execute();

  beforeAll(async () => {
    bench = await startProgramBench(backend, { count: 4, prefix: 'PRGS', playSecondMs: PLAY_SECOND_MS });
    ({ server, proxy, fleet, creator, level1, level2, foreign, devices, imageId } = bench);
  });
  afterAll(() => bench?.stop());

  it('reports finished when the play time is over: the panel stops, the task shows it finished', async () => {
    const { programId, taskId } = await published('Short loop', 3, [0]);
    // Playing first, then finished after 3 s of the panel's play clock.
    await waitFor('playing', () => panelOf(0).playing?.programId === programId);
    const rows = await waitFor('finished', () => allIn(taskId, 'finished'), 20_000);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'finished', reason: '', percent: null });
    const commandId = await commandOf(taskId, 0);
    expect(panelOf(0).finishedPrograms).toContain(commandId);
    expect(panelOf(0).playing).toBeUndefined();
    // The command keeps its one result; only the task's row moved on.
    const command = await server.app.db.kysely
      .selectFrom('commands')
      .select(['status', 'detail'])
      .where('id', '=', commandId)
      .executeTakeFirstOrThrow();
    expect(command).toEqual({ status: 'succeeded', detail: 'playing' });
    const tasks = programs.listPublishTasks.reply.parse(
      (await level1.get(`/program/publishTasks?programId=${programId}`)).body,
    ).listObject;
    expect(tasks[0]).toMatchObject({ taskId, total: 1, counts: { finished: 1 } });
    // Nothing is left to stop.
    expect((await creator.post('/program/cancelTask', { taskId: String(taskId) })).body).toMatchObject(
      fail('No panel of this task is still downloading or playing'),
    );
    expect(
      (
        await creator.post('/program/cancelTaskDevice', {
          taskId: String(taskId),
          deviceId: String(devices[0]!.id),
        })
      ).body,
    ).toMatchObject(fail('This panel has already finished, failed or been cancelled'));
    expect(await stopOrders(devices[0]!.id)).toEqual([]);
  });

  it('a program that replaces another on a panel ends the first one as finished', async () => {
    const first = await published('First', 600, [3]);
    await waitFor('first playing', () => allIn(first.taskId, 'playing'), 20_000);
    const second = await published('Second', 600, [3]);
    await waitFor('second playing', () => allIn(second.taskId, 'playing'), 20_000);
    await waitFor('first finished', () => allIn(first.taskId, 'finished'));
    expect(panelOf(3).playing).toMatchObject({ programId: second.programId });
    // Leave the panel free for the tests below.
    ok(await creator.post('/program/cancelTask', { taskId: String(second.taskId) }), 'cancel');
    await waitFor('stopped', () => panelOf(3).playing === undefined);
  });

  it('cancels one playing panel (it stops, the others play on), then the whole task, by creators only', async () => {
    const { programId, taskId } = await published('Lobby', 600, [0, 1]);
    await waitFor('both playing', () => allIn(taskId, 'playing'), 20_000);
    const cancelOne = (client: TestClient, i: number, task = taskId) =>
      client.post('/program/cancelTaskDevice', { taskId: String(task), deviceId: String(devices[i]!.id) });

    // Refused: another company, an approver, a panel not in the task, an unknown task.
    const before = await targets(taskId);
    expect((await cancelOne(foreign, 0)).body).toMatchObject(fail('No such publish task'));
    const byApprover = await cancelOne(level1, 0);
    expect(byApprover.status).toBe(403);
    expect(byApprover.body).toMatchObject(
      fail('Only program creators (program role 0) may create, edit, delete and publish programs'),
    );
    expect((await cancelOne(creator, 2)).body).toMatchObject(fail('No such device'));
    expect((await cancelOne(creator, 0, 999_999)).body).toMatchObject(fail('No such publish task'));
    expect((await foreign.post('/program/cancelTask', { taskId: String(taskId) })).body).toMatchObject(
      fail('No such publish task'),
    );
    expect((await creator.post('/program/cancelTask', { taskId: 'x' })).body).toMatchObject(
      fail('No such publish task'),
    );
    expect(await targets(taskId)).toEqual(before);
    expect(await stopOrders(devices[0]!.id)).toEqual([]);

    const zh = await signedIn(server, 'creator1', 'creator123', 'zh-CN');
    expect((await cancelOne(zh, 0)).body).toMatchObject({
      hhtStatus: 'success',
      hhtMsg: '已停止该设备的发布',
    });
    expect(await stateOf(taskId, 0)).toBe('cancelled');
    const commandId = await commandOf(taskId, 0);
    await waitFor('panel 0 stopped', () => panelOf(0).playing === undefined);
    expect(panelOf(0).stoppedPrograms).toContain(commandId);
    const [stop] = await waitFor('PROGRAM_STOP acknowledged', async () => {
      const orders = await stopOrders(devices[0]!.id);
      return orders[0]?.status === 'succeeded' ? orders : undefined;
    });
    expect(JSON.parse(stop!.value)).toEqual({ id: commandId });
    expect(panelOf(1).playing).toMatchObject({ programId });
    expect(await stateOf(taskId, 1)).toBe('playing');
    // Once is enough.
    expect((await cancelOne(zh, 0)).body).toMatchObject(fail('该设备已播放结束、失败或已取消'));

    const all = programs.cancelPublishTask.reply.parse(
      ok(await creator.post('/program/cancelTask', { taskId: String(taskId) }), 'cancel all'),
    );
    expect(all).toMatchObject({ hhtMsg: 'Publishing stopped on 1 panels', dataObject: { cancelled: 1 } });
    await waitFor('panel 1 stopped', () => panelOf(1).playing === undefined);
    expect((await targets(taskId)).map((t) => [t.state, t.reason])).toEqual([
      ['cancelled', 'operator'],
      ['cancelled', 'taskCancelled'],
    ]);
    const tasks = programs.listPublishTasks.reply.parse(
      (await creator.get(`/program/publishTasks?programId=${programId}`)).body,
    ).listObject;
    expect(tasks[0]).toMatchObject({ taskId, state: 'cancelled', counts: { cancelled: 2 } });
    expect((await creator.post('/program/cancelTask', { taskId: String(taskId) })).body).toMatchObject(
      fail('No panel of this task is still downloading or playing'),
    );
    // A stopped panel never reports finished for it.
    expect(panelOf(0).finishedPrograms).not.toContain(commandId);
  });

  it('cancelling a panel mid-download stops the download there: it never plays', async () => {
    proxy.slow.add(devices[2]!.device_key);
    try {
      const { taskId } = await published('Slow', 600, [2]);
      await waitFor('the download to run', async () => (await stateOf(taskId, 2)) === 'downloading');
      ok(
        await creator.post('/program/cancelTaskDevice', {
          taskId: String(taskId),
          deviceId: String(devices[2]!.id),
        }),
        'cancel',
      );
      const commandId = await commandOf(taskId, 2);
      await waitFor('the stopped download reported', () =>
        panelOf(2).programFailures.some((f) => f.id === commandId && f.detail === 'cancelled'),
      );
      await waitFor('PROGRAM_STOP acknowledged', async () =>
        (await stopOrders(devices[2]!.id)).some((o) => o.status === 'succeeded'),
      );
      expect(panelOf(2).playing).toBeUndefined();
      expect(await targets(taskId)).toMatchObject([{ state: 'cancelled', reason: 'operator' }]);
      const command = await server.app.db.kysely
        .selectFrom('commands')
        .select(['status', 'detail'])
        .where('id', '=', commandId)
        .executeTakeFirstOrThrow();
      expect(command).toEqual({ status: 'failed', detail: 'cancelled' });
    } finally {
      proxy.slow.clear();
    }
  });

  it('a cancel and a finished report racing: whichever is stored first holds, the other changes nothing', async () => {
    const { taskId } = await published('Race', 600, [0, 1]);
    await waitFor('both playing', () => allIn(taskId, 'playing'), 20_000);
    const engine = server.app.ota.engine;
    const finishedAck = async (i: number) => {
      engine.acknowledge({ v: 1, id: await commandOf(taskId, i), result: 'succeeded', detail: 'finished' });
      await engine.flushAcks();
    };
    const cancelOne = (i: number) =>
      creator.post('/program/cancelTaskDevice', { taskId: String(taskId), deviceId: String(devices[i]!.id) });

    // Finished first: the cancel is refused and the row stays finished.
    await finishedAck(0);
    expect((await cancelOne(0)).body).toMatchObject(
      fail('This panel has already finished, failed or been cancelled'),
    );
    expect(await stateOf(taskId, 0)).toBe('finished');
    // Cancelled first: a late finished leaves it cancelled.
    ok(await cancelOne(1), 'cancel 1');
    await finishedAck(1);
    expect(await stateOf(taskId, 1)).toBe('cancelled');

    // At once, on a task of four panels: every row ends in exactly one of the two, and the
    // replies agree with the rows.
    const race = await published('Race all', 600, [0, 1, 2, 3]);
    await waitFor('all playing', () => allIn(race.taskId, 'playing'), 20_000);
    const ids = await Promise.all([0, 1, 2, 3].map((i) => commandOf(race.taskId, i)));
    const [replies] = await Promise.all([
      Promise.all(
        [0, 1, 2, 3].map((i) =>
          creator.post('/program/cancelTaskDevice', {
            taskId: String(race.taskId),
            deviceId: String(devices[i]!.id),
          }),
        ),
      ),
      (async () => {
        for (const id of ids) engine.acknowledge({ v: 1, id, result: 'succeeded', detail: 'finished' });
        await engine.flushAcks();
      })(),
    ]);
    const rows = await targets(race.taskId);
    for (const [i, reply] of replies.entries()) {
      const row = rows.find((r) => r.deviceId === devices[i]!.id)!;
      if (reply.body.hhtStatus === 'success') expect(row.state).toBe('cancelled');
      else {
        expect(reply.body).toMatchObject(fail('This panel has already finished, failed or been cancelled'));
        expect(row.state).toBe('finished');
      }
    }
    // Once settled, nothing moves any more.
    await engine.flushAcks();
    expect(await targets(race.taskId)).toEqual(rows);
  });
});
