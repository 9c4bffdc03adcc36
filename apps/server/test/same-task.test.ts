import { device, ota, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enroll, enrollmentSecretOf, operatorClient } from './device-helpers.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';
import { firmwareBytes, tusTarget, tusUpload } from './ota-helpers.js';

/**
 * Issue 25 item 5: a force upgrade identical to one still open (same file, same labels) is
 * refused in the envelope, in the caller's language, naming the open task; parallel requests
 * make one task, never two.
 */
describe.each(backends)('a force upgrade identical to an open one on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let fileId: number;
  let labels: number[];

  const ok = (reply: { body: Record<string, unknown>; text: string }, what: string) => {
    if (reply.body.hhtStatus !== 'success') throw new Error(`${what}: ${reply.text}`);
    return reply.body;
  };
  const force = (client: TestClient, tagIds: string) =>
    client.post('/otaFile/forceUpdate', { tagIds, otaFileId: String(fileId) });
  const openTasks = () =>
    server.app.db.kysely
      .selectFrom('rollout_tasks')
      .select(['id', 'state'])
      .where('kind', '=', 'ota')
      .where('state', 'in', ['scheduled', 'running', 'paused'])
      .execute();

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    operator = await operatorClient(server);
    const admin = await signedIn(server, 'admin', 'admin123');
    ok(await admin.post('/otaVersion/insert', { otaVersion: '1.4.2', enable: '1' }), 'version');
    const secret = await enrollmentSecretOf(operator);
    // Enrolled panels that never connect: the task stays open (running) as long as the test needs.
    for (const serial of ['SAME-1', 'SAME-2', 'SAME-3']) await enroll(server.url, serial, secret);
    const rows = await server.app.db.kysely
      .selectFrom('devices')
      .select('id')
      .where('device_key', 'like', 'SAME-%')
      .orderBy('id')
      .execute();
    labels = [];
    for (const [name, members] of [
      ['Hall', [rows[0]!.id, rows[1]!.id]],
      ['Lab', [rows[2]!.id]],
    ] as const) {
      const id = device.insertGroup.reply.parse(
        ok(await operator.post('/platform/group/insert', { groupName: name }), 'label'),
      ).dataObject.groupId;
      ok(
        await operator.post('/platform/group/saveGroupsAndDevices', {
          deviceIds: members.join(','),
          groupIds: String(id),
        }),
        'members',
      );
      labels.push(id);
    }
    const options = ota.listMachineTypeOptions.reply.parse(
      (await operator.get('/otaFile/machineTypeOptions')).body,
    );
    const uploadId = await tusUpload(tusTarget(server.url, operator), firmwareBytes(100_000, 7), 'fw.bin');
    fileId = ota.insertOtaFile.reply.parse(
      ok(
        await operator.post('/otaFile/insert', {
          uploadId,
          otaVersion: '5.0.0',
          fitMachineTypeId: options.listObject.map((o) => o.machineTypeId).join(','),
          fitOtaVersionId: '',
          remarkFileName: 'release 5.0.0',
        }),
        'file',
      ),
    ).dataObject.id;
  });
  afterAll(() => server?.stop());

  it('parallel identical requests make one task; the others are refused naming it, in both languages', async () => {
    const zh = await signedIn(server, 'operator1', 'operator123', 'zh-CN');
    const both = `${labels[0]},${labels[1]}`;
    // A double click and retries, at once; the label order does not make it another request.
    const replies = await Promise.all([
      force(operator, both),
      force(operator, both),
      force(zh, `${labels[1]},${labels[0]}`),
      force(operator, both),
      force(zh, both),
    ]);
    const made = replies.filter((r) => r.body.hhtStatus === 'success');
    expect(made).toHaveLength(1);
    const taskId = ota.forceUpdate.reply.parse(made[0]!.body).dataObject.otaTaskId;
    expect(await openTasks()).toEqual([{ id: taskId, state: 'running' }]);
    for (const reply of replies.filter((r) => r.body.hhtStatus !== 'success')) {
      const language = reply === replies[2] || reply === replies[4] ? 'zh-CN' : 'en-US';
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({
        hhtStatus: 'fail',
        hhtMsg: translate(language, 'ota.sameTaskOpen', { task: taskId }),
      });
    }
    expect(translate('zh-CN', 'ota.sameTaskOpen', { task: taskId })).toContain(String(taskId));

    // Other targets are another task; once the first is cancelled, the same one may go again.
    ok(await force(operator, String(labels[0])), 'one label');
    ok(await operator.post('/otaTask/cancel', { otaTaskId: String(taskId) }), 'cancel');
    const again = ota.forceUpdate.reply.parse(ok(await force(operator, both), 'again')).dataObject;
    expect(again.otaTaskId).not.toBe(taskId);
  });
});
