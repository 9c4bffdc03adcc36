import { device, ota } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROLLOUT_SETTINGS } from '../src/modules/rollouts/settings.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  fullState,
  operatorClient,
  waitFor,
  type BareDevice,
} from './device-helpers.js';
import { backends, joinServer, startServer, type TestClient, type TestServer } from './harness.js';
import { hasMosquitto, ThrowawayMosquitto } from './mosquitto-helpers.js';
import { firmwareBytes, tusTarget, tusUpload } from './ota-helpers.js';

// Issue 23, item 4: no row of a rollout waits forever. A row whose step has not moved for
// ROLLOUT_STALL_MS is asked for its state (its command is sent again; the panel answers a
// repeated id with the acknowledgement it stored); a panel that listens and does not answer
// within ROLLOUT_ANSWER_MS fails `timedOut`. The test clock stands in for the minutes.

const { stallMs, answerMs } = DEFAULT_ROLLOUT_SETTINGS;
const RETRY_MS = 15_000;

/**
 * A panel written from the protocol document: it stores each acknowledgement it gives and
 * answers a command id it has seen with the stored one (section 5.6), unless it has gone silent.
 * An acknowledgement can be "lost": stored, never published (the instance that would have
 * received it died).
 */
class ScriptedPanel {
  readonly stored = new Map<string, device.CommandAck>();
  /** How many times each command id arrived. */
  readonly arrivals = new Map<string, number>();
  silent = false;

  constructor(
    readonly key: string,
    private bare: BareDevice,
  ) {
    this.listen();
  }

  private listen() {
    this.bare.client.on('message', (_topic, payload) => {
      const { id } = device.commandEnvelope.parse(JSON.parse(payload.toString()));
      this.arrivals.set(id, (this.arrivals.get(id) ?? 0) + 1);
      const stored = this.stored.get(id);
      if (stored && !this.silent) void this.publish(stored);
    });
  }

  get commands() {
    return this.bare.commands;
  }

  async ack(ack: Omit<device.CommandAck, 'v'>, how: 'sent' | 'lost' = 'sent') {
    const full = { v: 1 as const, ...ack };
    this.stored.set(ack.id, full);
    if (how === 'sent') await this.publish(full);
  }

  /** Sends an acknowledgement without storing it (a late one, after the server gave up). */
  publish(ack: device.CommandAck) {
    return this.bare.client.publishAsync(`pf/v1/d/${this.key}/ack`, JSON.stringify(ack), { qos: 1 });
  }

  /** Switched off: says so (a clean disconnect sends no last will) and disconnects. */
  async leave() {
    await this.bare.client.publishAsync(
      `pf/v1/d/${this.key}/presence`,
      JSON.stringify({ v: 1, online: false }),
      { qos: 1, retain: true },
    );
    await this.bare.close();
  }

  async returnTo(mqttUrl: string, password: string) {
    this.bare = await connectBare(mqttUrl, { deviceKey: this.key, password }, { autoAck: false });
    this.listen();
  }

  close() {
    return this.bare.close();
  }
}

describe.each(backends)('rollout rows that stop moving, on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let otaFileId: number;
  let secret: string;
  const panels: ScriptedPanel[] = [];
  let seq = 0;

  const ok = (reply: { body: Record<string, unknown>; text: string }, what: string) => {
    if (reply.body.hhtStatus !== 'success') throw new Error(`${what}: ${reply.text}`);
    return reply.body;
  };
  const mqttUrl = () => `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
  const isReady = (key: string) => server.app.devices.gateway.isReady(key);

  /** An enrolled, connected panel that has reported its state (so a task may send it the OTA). */
  async function panelOf(key: string) {
    const credentials = await enroll(server.url, key, secret);
    const bare = await connectBare(mqttUrl(), credentials, { autoAck: false });
    await bare.client.publishAsync(
      `pf/v1/d/${key}/state`,
      JSON.stringify({ ...fullState(), ts: Date.now() }),
    );
    await waitFor(`${key} ready and reported`, async () => {
      await server.app.devices.gateway.flushState();
      const row = await server.app.db.kysely
        .selectFrom('devices')
        .select('ota_version')
        .where('device_key', '=', key)
        .executeTakeFirst();
      return isReady(key) && row?.ota_version === '1.4.2';
    });
    const panel = new ScriptedPanel(key, bare);
    panels.push(panel);
    return { panel, password: credentials.password };
  }

  /** A task updating these panels, one per wave in the order they enrolled; one failure pauses it. */
  async function taskFor(panelKeys: string[]) {
    const ids = await server.app.db.kysely
      .selectFrom('devices')
      .select('id')
      .where('device_key', 'in', panelKeys)
      .execute();
    const label = device.insertGroup.reply.parse(
      ok(await operator.post('/platform/group/insert', { groupName: `stall ${++seq}` }), 'label'),
    ).dataObject.groupId;
    ok(
      await operator.post('/platform/group/saveGroupsAndDevices', {
        deviceIds: ids.map((r) => r.id).join(','),
        groupIds: String(label),
      }),
      'label members',
    );
    return ota.forceUpdate.reply.parse(
      ok(
        await operator.post('/otaFile/forceUpdate', {
          tagIds: String(label),
          otaFileId: String(otaFileId),
          waveMode: 'count',
          firstWave: '1',
          waveStep: '1',
          failureShare: '1',
          minResults: '1',
        }),
        'force',
      ),
    ).dataObject.otaTaskId;
  }

  const rowOf = (taskId: number, key: string) =>
    server.app.db.kysely
      .selectFrom('rollout_targets')
      .innerJoin('devices', 'devices.id', 'rollout_targets.device_id')
      .select([
        'rollout_targets.state',
        'rollout_targets.reason',
        'rollout_targets.asked_at',
        'rollout_targets.command_id',
      ])
      .where('rollout_targets.task_id', '=', taskId)
      .where('devices.device_key', '=', key)
      .executeTakeFirstOrThrow();
  const commandOf = (id: string) =>
    server.app.db.kysely
      .selectFrom('commands')
      .select(['status', 'detail'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const taskView = async (taskId: number) =>
    ota.getOtaTask.reply.parse((await operator.get(`/otaTask/selectById?otaTaskId=${taskId}`)).body)
      .dataObject;

  /** The panel got the OTA and said it is downloading; the row shows it. */
  async function downloading(panel: ScriptedPanel, taskId: number) {
    const command = await waitFor(`${panel.key} receives the OTA`, () =>
      panel.commands.find((c) => c.order === 'OTA'),
    );
    await panel.ack({ id: command.id, result: 'received', phase: 'downloading' });
    await waitFor(`${panel.key} downloading`, async () => {
      const row = await rowOf(taskId, panel.key);
      const sent = await commandOf(command.id);
      return row.state === 'downloading' && sent.status === 'delivered';
    });
    return command.id;
  }

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      {
        rollout: { tickMs: 100, jitterMs: 0, leaseMs: 5000 },
        commandTimings: { retryMs: RETRY_MS, tickMs: 100 },
      },
    );
    operator = await operatorClient(server);
    secret = await enrollmentSecretOf(operator);
    const options = ota.listMachineTypeOptions.reply.parse(
      (await operator.get('/otaFile/machineTypeOptions')).body,
    );
    const x9 = options.listObject.find((o) => o.machineType === 'x9_vn')!.machineTypeId;
    const uploadId = await tusUpload(tusTarget(server.url, operator), firmwareBytes(50_000), 'fw-2.0.0.bin');
    otaFileId = ota.insertOtaFile.reply.parse(
      ok(
        await operator.post('/otaFile/insert', {
          uploadId,
          otaVersion: '2.0.0',
          fitMachineTypeId: String(x9),
          remarkFileName: 'release 2.0.0',
        }),
        'publish',
      ),
    ).dataObject.id;
  });
  afterAll(async () => {
    for (const panel of panels) await panel.close();
    await server?.stop();
  });

  it('asks a panel whose final answer was lost, which answers again: the row takes its stored result', async () => {
    const { panel } = await panelOf(`${backend}-LOST-1`);
    const taskId = await taskFor([panel.key]);
    const commandId = await downloading(panel, taskId);
    // The download fails; the acknowledgement never reaches the server.
    await panel.ack({ id: commandId, result: 'failed', detail: 'download' }, 'lost');

    server.clock.advance(stallMs - 1000);
    await server.app.ota.engine.tick();
    expect(await rowOf(taskId, panel.key)).toMatchObject({ state: 'downloading', asked_at: null });

    server.clock.advance(2000);
    await waitFor('the row asked', async () => (await rowOf(taskId, panel.key)).asked_at !== null);
    // The question is the command itself again, once the retry period has passed.
    server.clock.advance(RETRY_MS);
    await waitFor('the panel answers', async () => (await rowOf(taskId, panel.key)).state === 'failed');
    expect(panel.arrivals.get(commandId)).toBe(2);
    expect(await rowOf(taskId, panel.key)).toMatchObject({ reason: 'download', asked_at: null });
    await server.app.devices.commands.settle();
    expect(await commandOf(commandId)).toEqual({ status: 'failed', detail: 'download' });
  });

  it('times out a listening panel that leaves the question unanswered; the failure share counts it; a late result replaces the timeout, a late step does not', async () => {
    const { panel } = await panelOf(`${backend}-SILENT-1`);
    // A second panel in the next wave keeps the task open: one failure in the first pauses it.
    const { panel: next } = await panelOf(`${backend}-SILENT-2`);
    const taskId = await taskFor([panel.key, next.key]);
    const commandId = await downloading(panel, taskId);
    panel.silent = true;

    server.clock.advance(stallMs + 1000);
    await waitFor('the row asked', async () => (await rowOf(taskId, panel.key)).asked_at !== null);
    server.clock.advance(RETRY_MS);
    await waitFor('the question sent', () => panel.arrivals.get(commandId) === 2);
    // Within the time to answer it stays as it was.
    await server.app.ota.engine.tick();
    expect(await rowOf(taskId, panel.key)).toMatchObject({ state: 'downloading' });

    server.clock.advance(answerMs);
    await waitFor('the row timed out', async () => (await rowOf(taskId, panel.key)).state === 'failed');
    expect(await rowOf(taskId, panel.key)).toMatchObject({ reason: 'timedOut' });
    // The command ends with the row, so it is no longer sent.
    expect(await commandOf(commandId)).toEqual({ status: 'failed', detail: 'timedOut' });
    const paused = await waitFor('the failure share pauses the task', async () => {
      const task = await taskView(taskId);
      return task.state === 'paused' ? task : undefined;
    });
    expect(paused.counts).toMatchObject({ failed: 1, queued: 1 });
    expect(paused.stateReason).toMatch(/failed/);
    const log = ota.listOtaLog.reply.parse(
      (await operator.get(`/otaLog/listOtaLog?start=1&size=10&deviceKey=${panel.key}&status=2`)).body,
    );
    expect(log.listObject.map((r) => r.reason)).toEqual(['timedOut']);
    // The panel speaks again: a step changes nothing, its final result is its word.
    server.app.ota.engine.acknowledge({ v: 1, id: commandId, result: 'received', phase: 'installing' });
    await server.app.ota.engine.flushAcks();
    expect(await rowOf(taskId, panel.key)).toMatchObject({ state: 'failed', reason: 'timedOut' });
    await panel.publish({ v: 1, id: commandId, result: 'succeeded' });
    await waitFor(
      'the late result taken',
      async () => (await rowOf(taskId, panel.key)).state === 'succeeded',
    );
    expect((await taskView(taskId)).counts).toMatchObject({ failed: 0, succeeded: 1 });
  });

  it('leaves a panel that is offline when its row stops moving alone, and asks it once it is back', async () => {
    const { panel, password } = await panelOf(`${backend}-OFF-1`);
    const taskId = await taskFor([panel.key]);
    const commandId = await downloading(panel, taskId);
    await panel.leave();
    await waitFor('the panel offline', () => !server.app.devices.gateway.isOnline(panel.key));

    server.clock.advance(stallMs + answerMs + RETRY_MS);
    await server.app.ota.engine.tick();
    await server.app.ota.engine.tick();
    expect(await rowOf(taskId, panel.key)).toMatchObject({ state: 'downloading', asked_at: null });

    await panel.returnTo(mqttUrl(), password);
    await waitFor('the panel ready', () => isReady(panel.key));
    await waitFor('the row asked', async () => (await rowOf(taskId, panel.key)).asked_at !== null);
    server.clock.advance(RETRY_MS);
    // Still downloading: its stored acknowledgement says so, and the row's time starts again.
    await waitFor('the answer heard', async () => (await rowOf(taskId, panel.key)).asked_at === null);
    expect(panel.arrivals.get(commandId)).toBe(2);
    expect(await rowOf(taskId, panel.key)).toMatchObject({ state: 'downloading' });
    server.clock.advance(stallMs - 1000);
    await server.app.ota.engine.tick();
    expect(await rowOf(taskId, panel.key)).toMatchObject({ state: 'downloading', asked_at: null });

    await panel.ack({ id: commandId, result: 'succeeded' });
    await waitFor('the update done', async () => (await rowOf(taskId, panel.key)).state === 'succeeded');
  });
});

describe.runIf(hasMosquitto && backends.includes('postgres'))(
  'rollout rows that stop moving, with two instances on one PostgreSQL database',
  () => {
    let broker: ThrowawayMosquitto;
    let a: TestServer;
    let b: TestServer;
    let operator: TestClient;
    const panels: ScriptedPanel[] = [];
    const options = {
      // Both instances' rounds and retries are run by the test, at once.
      rollout: { tickMs: 3_600_000, jitterMs: 0, leaseMs: 3_600_000 },
      commandTimings: { retryMs: RETRY_MS, tickMs: 3_600_000 },
    };

    beforeAll(async () => {
      broker = await ThrowawayMosquitto.start();
      a = await startServer('postgres', { MQTT_URL: broker.url }, options);
      b = await joinServer(a, { MQTT_URL: broker.url }, options);
      operator = await operatorClient(a);
    });
    afterAll(async () => {
      for (const panel of panels) await panel.close();
      await b?.stop();
      await a?.stop();
      await broker?.dispose();
    });

    const both = <T>(work: (server: TestServer) => Promise<T>) => Promise.all([work(a), work(b)]);
    const advance = (ms: number) => both(async (server) => server.clock.advance(ms));
    const rounds = () => both((server) => server.app.ota.engine.tick());
    const retries = () => both((server) => server.app.devices.commands.tick());

    it('asks once and times out once, whichever instance works the task', async () => {
      const secret = await enrollmentSecretOf(operator);
      const keys = ['TWO-LOST-1', 'TWO-SILENT-1'];
      for (const key of keys) {
        const credentials = await enroll(a.url, key, secret);
        const bare = await connectBare(broker.url, credentials, { autoAck: false });
        await bare.client.publishAsync(
          `pf/v1/d/${key}/state`,
          JSON.stringify({ ...fullState(), ts: Date.now() }),
        );
        panels.push(new ScriptedPanel(key, bare));
      }
      await waitFor('both instances see the panels ready and reported', async () => {
        await both((server) => server.app.devices.gateway.flushState());
        const rows = await a.app.db.kysely
          .selectFrom('devices')
          .select('ota_version')
          .where('device_key', 'in', keys)
          .execute();
        return (
          rows.every((r) => r.ota_version === '1.4.2') &&
          keys.every((k) => a.app.devices.gateway.isReady(k) && b.app.devices.gateway.isReady(k))
        );
      });
      const [lost, silent] = panels as [ScriptedPanel, ScriptedPanel];
      const x9 = ota.listMachineTypeOptions.reply
        .parse((await operator.get('/otaFile/machineTypeOptions')).body)
        .listObject.find((o) => o.machineType === 'x9_vn')!.machineTypeId;
      const uploadId = await tusUpload(tusTarget(a.url, operator), firmwareBytes(50_000), 'fw-2.1.0.bin');
      const fileId = ota.insertOtaFile.reply.parse(
        (
          await operator.post('/otaFile/insert', {
            uploadId,
            otaVersion: '2.1.0',
            fitMachineTypeId: String(x9),
          })
        ).body,
      ).dataObject.id;
      const ids = await a.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', 'in', keys)
        .execute();
      const label = device.insertGroup.reply.parse(
        (await operator.post('/platform/group/insert', { groupName: 'two instances' })).body,
      ).dataObject.groupId;
      await operator.post('/platform/group/saveGroupsAndDevices', {
        deviceIds: ids.map((r) => r.id).join(','),
        groupIds: String(label),
      });
      const taskId = ota.forceUpdate.reply.parse(
        (await operator.post('/otaFile/forceUpdate', { tagIds: String(label), otaFileId: String(fileId) }))
          .body,
      ).dataObject.otaTaskId;
      await rounds();
      const commandIds = new Map<ScriptedPanel, string>();
      for (const panel of [lost, silent]) {
        const command = await waitFor(`${panel.key} receives the OTA`, () =>
          panel.commands.find((c) => c.order === 'OTA'),
        );
        commandIds.set(panel, command.id);
        await panel.ack({ id: command.id, result: 'received', phase: 'downloading' });
      }
      const rows = () =>
        a.app.db.kysely
          .selectFrom('rollout_targets')
          .select(['command_id', 'state', 'reason', 'asked_at'])
          .where('task_id', '=', taskId)
          .execute();
      await waitFor('both downloading', async () => {
        await both((server) => server.app.ota.engine.flushAcks());
        return (await rows()).every((r) => r.state === 'downloading');
      });
      await lost.ack({ id: commandIds.get(lost)!, result: 'failed', detail: 'download' }, 'lost');
      silent.silent = true;

      // Both instances work their rounds at once after the rows stopped moving: one asks.
      await advance(stallMs + 1000);
      await rounds();
      await rounds();
      expect((await rows()).every((r) => r.asked_at !== null)).toBe(true);
      // Both instances' retry timers: each question goes out once, and the lost answer comes again.
      await advance(RETRY_MS);
      await retries();
      await waitFor('the questions arrive', () =>
        [lost, silent].every((p) => p.arrivals.get(commandIds.get(p)!) === 2),
      );
      await waitFor('the lost answer taken', async () => {
        await both((server) => server.app.ota.engine.flushAcks());
        return (await rows()).some((r) => r.state === 'failed' && r.reason === 'download');
      });

      // Past the time to answer, both instances' rounds at once time the silent panel out once.
      await advance(answerMs);
      await rounds();
      await rounds();
      const timedOut = (await rows()).find((r) => r.command_id === commandIds.get(silent));
      expect(timedOut).toMatchObject({ state: 'failed', reason: 'timedOut' });
      const task = ota.getOtaTask.reply.parse(
        (await operator.get(`/otaTask/selectById?otaTaskId=${taskId}`)).body,
      ).dataObject;
      expect(task.counts).toMatchObject({ failed: 2, downloading: 0, succeeded: 0 });
      expect(task.state).toBe('completed');
    });
  },
);
