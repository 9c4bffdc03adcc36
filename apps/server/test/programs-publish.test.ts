import fs from 'node:fs';
import path from 'node:path';
import { device, programs, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from '../../simulator/src/fleet.js';
import { waitFor } from './device-helpers.js';
import { backends, signedIn, type TestClient, type TestServer } from './harness.js';
import { startProgramBench, type ProgramBench } from './program-bench.js';

describe.each(backends)('publishing programs to simulated panels on %s', (backend) => {
  let server: TestServer;
  let bench: ProgramBench;
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

  async function approvedProgram(name: string) {
    const content = JSON.stringify([
      { type: 'image', materialId: imageId, duration: 10 },
      { type: 'web', url: 'https://example.com/menu', duration: 20 },
    ]);
    const { programId } = programs.insertProgram.reply.parse(
      ok(await creator.post('/program/insert', { name, playTime: '600', content }), 'insert'),
    ).dataObject;
    const act = (client: TestClient, reason: string) =>
      client.post('/approval/approvalProcess', { programId: String(programId), status: '1', reason });
    ok(await act(creator, 'submit'), 'submit');
    ok(await act(level1, 'pass 1'), 'pass 1');
    return {
      programId,
      pass2: async () => ok(await act(level2, 'pass 2'), 'pass 2'),
    };
  }

  beforeAll(async () => {
    bench = await startProgramBench(backend, { count: 3, prefix: 'PRGP' });
    ({ server, fleet, creator, level1, level2, foreign, devices, imageId } = bench);
  });
  afterAll(() => bench?.stop());

  it('publishes only an approved program, to panels or labels of the company, by a creator', async () => {
    const { programId, pass2 } = await approvedProgram('Not yet');
    const publish = (client: TestClient, fields: Record<string, string>) =>
      client.post('/program/packZip', { programId: String(programId), ...fields });
    const before = await server.app.db.kysely.selectFrom('rollout_tasks').selectAll().execute();
    expect((await publish(creator, { deviceIds: String(devices[0]!.id) })).body).toMatchObject(
      fail('Only a program that passed both approvals may be published'),
    );
    await pass2();
    expect((await publish(creator, {})).body).toMatchObject(fail('Please choose the devices to publish to'));
    expect((await publish(creator, { deviceIds: '' })).body).toMatchObject(
      fail('Please choose the devices to publish to'),
    );
    const zh = await signedIn(server, 'creator1', 'creator123', 'zh-CN');
    expect((await publish(zh, {})).body).toMatchObject(fail('请选择需要发布的设备'));
    const foreignLabel = device.insertGroup.reply.parse(
      ok(await foreign.post('/platform/group/insert', { groupName: 'Theirs' }), 'label'),
    ).dataObject.groupId;
    expect((await publish(creator, { tagIds: String(foreignLabel) })).body).toMatchObject(
      fail('No such label'),
    );
    expect((await publish(creator, { deviceIds: `${devices[0]!.id},999999` })).body).toMatchObject(
      fail('No such device'),
    );
    const refused = await publish(level1, { deviceIds: String(devices[0]!.id) });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject(
      fail('Only program creators (program role 0) may create, edit, delete and publish programs'),
    );
    expect((await publish(foreign, { deviceIds: String(devices[0]!.id) })).body).toMatchObject(
      fail('No such program'),
    );
    expect(await server.app.db.kysely.selectFrom('rollout_tasks').selectAll().execute()).toHaveLength(
      before.length,
    );
  });

  it('sends the playlist to the panels of a label: they fetch, verify and report playing', async () => {
    const { programId, pass2 } = await approvedProgram('Lobby');
    await pass2();
    const label = device.insertGroup.reply.parse(
      ok(await creator.post('/platform/group/insert', { groupName: 'Lobby screens' }), 'label'),
    ).dataObject.groupId;
    ok(
      await creator.post('/platform/group/saveGroupsAndDevices', {
        deviceIds: `${devices[0]!.id},${devices[1]!.id}`,
        groupIds: String(label),
      }),
      'assign',
    );
    const published = programs.publishProgram.reply.parse(
      ok(
        await creator.post('/program/packZip', { programId: String(programId), tagIds: String(label) }),
        'publish',
      ),
    ).dataObject;
    expect(published).toMatchObject({ deviceCount: 2, skippedCount: 0 });

    const rows = await waitFor(
      'both panels playing',
      async () => {
        const page = programs.listPublishTargets.reply.parse(
          (await creator.get(`/program/publishTargets?taskId=${published.taskId}&start=1&size=10`)).body,
        ).listObject;
        return page.every((r) => r.state === 'playing') ? page : undefined;
      },
      20_000,
    );
    expect(rows.map((r) => r.deviceKey).sort()).toEqual(
      [devices[0]!.device_key, devices[1]!.device_key].sort(),
    );
    for (const key of [devices[0]!.device_key, devices[1]!.device_key]) {
      const panel = fleet.panels.find((p) => p.serial === key)!;
      expect(panel.playing).toMatchObject({ programId, name: 'Lobby', items: 2 });
    }
    expect(fleet.panels.find((p) => p.serial === devices[2]!.device_key)!.playing).toBeUndefined();
    // Each panel reported the share it had fetched; the last report was the whole.
    const shares = await waitFor('download shares stored', async () => {
      const rows = await server.app.db.kysely.selectFrom('program_download_progress').selectAll().execute();
      return rows.filter((s) => s.percent === 100).length === 2 ? rows : undefined;
    });
    expect(shares).toHaveLength(2);

    const tasks = programs.listPublishTasks.reply.parse(
      (await level2.get(`/program/publishTasks?programId=${programId}`)).body,
    ).listObject;
    expect(tasks[0]).toMatchObject({ taskId: published.taskId, total: 2, counts: { playing: 2 } });
    expect((await foreign.get(`/program/publishTargets?taskId=${published.taskId}`)).body).toMatchObject(
      fail('No such publish task'),
    );
  });

  it('publishing the same revision to the same panels at once makes one task; the rest are refused naming it', async () => {
    const { programId, pass2 } = await approvedProgram('Twice');
    await pass2();
    const zh = await signedIn(server, 'creator1', 'creator123', 'zh-CN');
    const publish = (client: TestClient) =>
      client.post('/program/packZip', { programId: String(programId), deviceIds: String(devices[2]!.id) });
    const replies = await Promise.all([publish(creator), publish(creator), publish(zh), publish(creator)]);
    const made = replies.filter((r) => r.body.hhtStatus === 'success');
    expect(made).toHaveLength(1);
    const { taskId } = programs.publishProgram.reply.parse(made[0]!.body).dataObject;
    for (const reply of replies.filter((r) => r.body.hhtStatus !== 'success'))
      expect(reply.body).toMatchObject(
        fail(
          translate(reply === replies[2] ? 'zh-CN' : 'en-US', 'program.samePublishOpen', { task: taskId }),
        ),
      );
    const tasks = await server.app.db.kysely
      .selectFrom('rollout_tasks')
      .select('id')
      .where('kind', '=', 'program')
      .where('payload_id', '=', programId)
      .execute();
    expect(tasks).toEqual([{ id: taskId }]);
  });

  it('refuses to publish a program whose file changed on the server, sending nothing', async () => {
    const { programId, pass2 } = await approvedProgram('Tampered');
    await pass2();
    const row = await server.app.db.kysely
      .selectFrom('materials')
      .select('stored_name')
      .where('id', '=', imageId)
      .executeTakeFirstOrThrow();
    const file = path.join(server.dataDir, 'files', 'materials', row.stored_name);
    const original = fs.readFileSync(file);
    const tampered = Buffer.from(original);
    tampered[tampered.length - 1] = tampered[tampered.length - 1]! ^ 0xff;
    fs.writeFileSync(file, tampered);
    try {
      const before = (await server.app.db.kysely.selectFrom('rollout_tasks').selectAll().execute()).length;
      expect(
        (
          await creator.post('/program/packZip', {
            programId: String(programId),
            deviceIds: String(devices[2]!.id),
          })
        ).body,
      ).toMatchObject(fail('A material of the program is damaged on the server; upload it again'));
      expect((await server.app.db.kysely.selectFrom('rollout_tasks').selectAll().execute()).length).toBe(
        before,
      );
    } finally {
      fs.writeFileSync(file, original);
    }
  });

  it('publishes to every panel matching a filter ("all matching"), resolved by the server', async () => {
    const { programId, pass2 } = await approvedProgram('Matching');
    await pass2();
    const label = device.insertGroup.reply.parse(
      ok(await creator.post('/platform/group/insert', { groupName: 'Matching screens' }), 'label'),
    ).dataObject.groupId;
    ok(
      await creator.post('/platform/group/saveGroupsAndDevices', {
        deviceIds: `${devices[1]!.id},${devices[2]!.id}`,
        groupIds: String(label),
      }),
      'assign',
    );
    const publish = (client: TestClient, json: Record<string, unknown>) =>
      client.request('POST', '/program/packZip', { json: { programId: String(programId), ...json } });
    const published = programs.publishProgram.reply.parse(
      ok(await publish(creator, { matching: { tagIds: [label] } }), 'publish'),
    ).dataObject;
    expect(published).toMatchObject({ deviceCount: 2, skippedCount: 0 });
    const panels = await server.app.db.kysely
      .selectFrom('rollout_targets')
      .select('device_id')
      .where('task_id', '=', published.taskId)
      .orderBy('device_id')
      .execute();
    expect(panels.map((p) => p.device_id)).toEqual([devices[1]!.id, devices[2]!.id].sort((a, b) => a - b));
    await creator.post('/program/cancelPublishTask', { taskId: String(published.taskId) });
    const before = await server.app.db.kysely.selectFrom('rollout_tasks').selectAll().execute();
    // A filter that matches nothing, and two forms at once, are refused, making no task.
    expect(
      (await publish(creator, { matching: { deviceName: 'no-such-panel-anywhere' } })).body,
    ).toMatchObject(fail(translate('en-US', 'allMatching.noneMatching')));
    expect(
      (await publish(creator, { tagIds: String(label), matching: { tagIds: [label] } })).body,
    ).toMatchObject(fail('Please choose the devices to publish to'));
    expect(await server.app.db.kysely.selectFrom('rollout_tasks').selectAll().execute()).toHaveLength(
      before.length,
    );
  });
});
