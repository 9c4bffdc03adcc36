import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { device } from '@panelfleet/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../src/security/passwords.js';
import { connectCountingPanel, type CountingPanel } from './counting-panel.js';
import { waitFor } from './device-helpers.js';
import { backends, TestClient } from './harness.js';
import { hasMosquitto, ThrowawayMosquitto } from './mosquitto-helpers.js';
import { freePort, processDatabase, startServerProcess } from './server-process.js';
import { accepts, labelCommandInTwoParts } from './shutdown-helpers.js';

// Issue 23, item 7: a server process sent SIGTERM in the middle of a label command's fan-out to
// 500 panels, with another label command in flight on a kept-alive connection, closes by itself
// (exit code 0: its own 5 s deadline, SHUTDOWN_DEADLINE_MS, would exit 1) and leaves nothing
// behind: what it had not published goes out once when an instance runs again.

const PANELS = 500;

describe.each(backends)('SIGTERM in the middle of a 500-panel label command on %s', (backend) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-sigterm-'));
  const panels: CountingPanel[] = [];
  let child: ChildProcess | undefined;
  let broker: ThrowawayMosquitto | undefined;
  let database: Awaited<ReturnType<typeof processDatabase>> | undefined;
  afterAll(async () => {
    child?.kill('SIGKILL');
    await Promise.all(panels.map((p) => p.client.endAsync(true)));
    await broker?.dispose();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits by itself with code 0, and every panel runs each command once after the restart', async () => {
    database = await processDatabase(backend, dataDir);
    // PostgreSQL with an external Mosquitto, as in the trial; SQLite with the embedded broker.
    if (backend === 'postgres' && hasMosquitto) broker = await ThrowawayMosquitto.start();
    const [httpPort, mqttPort] = [await freePort(), await freePort()];
    const mqttUrl = broker?.url ?? `mqtt://127.0.0.1:${mqttPort}`;
    const env = {
      ...database.env,
      DATA_DIR: dataDir,
      PORT: String(httpPort),
      BASE_URL: `http://127.0.0.1:${httpPort}`,
      HOST: '127.0.0.1',
      ...(broker ? { MQTT_URL: broker.url } : { MQTT_PORT: String(mqttPort) }),
      CAPTCHA: 'off',
      PASSWORD_PEPPER: 'sigterm-test-pepper-0123456789',
      ADMIN_PASSWORD: 'admin123',
      LOG_LEVEL: 'silent',
      // Small batches: the fan-out is still publishing when the signal comes.
      COMMAND_PUBLISH_BATCH: '10',
    };
    let server = await startServerProcess(env);
    child = server.child;
    const operator = new TestClient(server.url);
    await operator.post('/platform/login', {
      username: 'operator1',
      password: md5Hex('operator123'),
      tryCode: 'none',
    });
    const secret = device.getEnrollmentSecret.reply.parse(
      (await operator.get('/platform/device/enrollmentSecret')).body,
    ).dataObject.enrollmentSecret;

    let signalled: number | undefined;
    // Each panel's command has its own id; before the second command exists, one execution is the first's.
    const ranFirst = () => panels.filter((p) => p.executions >= 1).length;
    const serials = Array.from({ length: PANELS }, (_, i) => `TERM-${String(i).padStart(4, '0')}`);
    for (let i = 0; i < serials.length; i += 50)
      await Promise.all(
        serials.slice(i, i + 50).map(async (serial) => {
          const creds = device.enroll.reply.parse(
            await (
              await fetch(`${server.url}/device/enroll`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ v: 1, serial, enrollmentSecret: secret }),
              })
            ).json(),
          ).dataObject;
          panels.push(
            await connectCountingPanel(mqttUrl, creds, () => {
              if (signalled === undefined && ranFirst() >= 50) {
                signalled = Date.now();
                child!.kill('SIGTERM');
              }
            }),
          );
        }),
      );
    const ids: number[] = [];
    for (let page = 1; ids.length < PANELS; page++) {
      const list = device.listDevices.reply.parse(
        (await operator.get(`/platform/device/list?start=${page}&size=100`)).body,
      );
      if (!list.listObject.length) break;
      ids.push(...list.listObject.map((d) => d.deviceId));
    }
    const label = device.insertGroup.reply.parse(
      (await operator.post('/platform/group/insert', { groupName: 'all panels' })).body,
    ).dataObject;
    await operator.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: ids.join(','),
      groupIds: String(label.groupId),
    });

    let exit: { code: number | null; at: number } | undefined;
    child.once('exit', (code) => (exit = { code, at: Date.now() }));
    // The second command's request is under way (its body half sent) on a kept-alive connection.
    const second = labelCommandInTwoParts(
      server.url,
      `pf_session=${operator.cookie('pf_session')}`,
      label.groupId,
      '41',
    );
    const first = await operator.post('/sendData/sendCommandByTagIds', {
      tagIds: String(label.groupId),
      order: '00',
      value: '40',
    });
    expect(first.body).toMatchObject({ hhtStatus: 'success', dataObject: { count: PANELS } });
    await waitFor('the signal during the fan-out', () => signalled !== undefined, 30_000);
    const ranBeforeExit = ranFirst();
    // The rest of the second request's body comes once the server took the signal (it listens no more).
    await waitFor('the server to stop listening', async () => !(await accepts(httpPort)));
    second.finish();
    const secondReply = await second.reply;
    // The client keeps its connection for the next request, as browsers and balancers do: the old
    // close waited for it (72 s of keep-alive). 20 s is generous for a loaded machine.
    await waitFor('the process to exit by itself', () => exit, 20_000).finally(() => second.close());
    console.log(
      `SIGTERM mid fan-out on ${backend}: exit code ${exit!.code} after ${exit!.at - signalled!} ms; ` +
        `${ranBeforeExit}/${PANELS} panels had run the first command at the signal`,
    );
    expect(exit!.code).toBe(0);
    // In flight when the signal came: answered, on a connection that then closed.
    expect(secondReply.status).toBe(200);
    expect(secondReply.connection).toBe('close');
    expect(JSON.parse(secondReply.body)).toMatchObject({
      hhtStatus: 'success',
      dataObject: { count: PANELS },
    });

    server = await startServerProcess(env);
    child = server.child;
    await waitFor('every panel to run both commands', () => panels.every((p) => p.executions === 2), 60_000);
    const duplicates = panels.reduce((n, p) => n + p.duplicates, 0);
    console.log(
      `after the restart on ${backend}: executions per panel all 2, ${duplicates} repeated deliveries`,
    );
    expect(panels.map((p) => p.executions)).toEqual(panels.map(() => 2));
  }, 180_000);
});
