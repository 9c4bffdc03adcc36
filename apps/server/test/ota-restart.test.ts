import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { device, ota, translate } from '@panelfleet/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import { md5Hex } from '../src/security/passwords.js';
import { backends, TestClient } from './harness.js';
import { waitFor } from './device-helpers.js';
import { firmwareBytes, tusCreate, tusOffset, tusPatch, tusTarget } from './ota-helpers.js';
import { freePort, processDatabase, startServerProcess } from './server-process.js';

const SIZE = 8 * 1024 * 1024;

/**
 * A real server process killed with SIGKILL: an upload cut at half its bytes resumes after the
 * restart and is never offered before it is complete (R5); a timed task whose time passes while
 * the server is dead fires exactly once when it is back (R2).
 */
describe.each(backends)('OTA across a server killed with SIGKILL on %s', (backend) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-ota-kill-'));
  let child: ChildProcess | undefined;
  let fleet: Fleet | undefined;
  let database: Awaited<ReturnType<typeof processDatabase>> | undefined;
  afterAll(async () => {
    // The panels say goodbye to a live broker first; then the server goes.
    await fleet?.stop();
    child?.kill('SIGKILL');
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('R5: an upload killed at 50% resumes, never offered before it is whole; R2: a timed task fires exactly once after the outage', async () => {
    const [httpPort, mqttPort] = [await freePort(), await freePort()];
    database = await processDatabase(backend, dataDir);
    const env = {
      ...database.env,
      DATA_DIR: dataDir,
      PORT: String(httpPort),
      BASE_URL: `http://127.0.0.1:${httpPort}`,
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      CAPTCHA: 'off',
      PASSWORD_PEPPER: 'ota-kill-test-pepper-0123456789',
      ADMIN_PASSWORD: 'admin123',
      LOG_LEVEL: 'silent',
      ROLLOUT_JITTER_MS: '0',
    };
    const start = async () => {
      const server = await startServerProcess(env);
      child = server.child;
      const operator = new TestClient(server.url);
      const login = await operator.post('/platform/login', {
        username: 'operator1',
        password: md5Hex('operator123'),
        tryCode: 'none',
      });
      if (login.body.hhtStatus !== 'success') throw new Error(login.text);
      return { url: server.url, operator };
    };
    const kill = async () => {
      const dying = child!;
      const exited = new Promise((resolve) => dying.once('exit', resolve));
      dying.kill('SIGKILL');
      await exited;
    };

    // ---- R5 ----
    let { url, operator } = await start();
    const content = firmwareBytes(SIZE, 5);
    const created = await tusCreate(tusTarget(url, operator), SIZE, 'killed.bin');
    const uploadId = created.uploadId!;
    const half = SIZE / 2;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= half) return new Promise<void>(() => undefined); // the rest never comes: the server dies first
        const chunk = content.subarray(sent, Math.min(sent + 64 * 1024, half));
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const patch = fetch(`${url}/upload/tus/${uploadId}`, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        cookie: `pf_session=${operator.cookie('pf_session')}`,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body,
      duplex: 'half',
    } as RequestInit).catch((err: unknown) => err);
    const partial = path.join(dataDir, 'uploads', uploadId);
    await waitFor(
      'half of the bytes on disk',
      () => fs.existsSync(partial) && fs.statSync(partial).size >= half - 512 * 1024,
    );
    await kill();
    await patch;

    ({ url, operator } = await start());
    const t = tusTarget(url, operator);
    const resumedAt = (await tusOffset(t, uploadId)).offset;
    expect(resumedAt).toBeGreaterThan(SIZE * 0.4);
    expect(resumedAt).toBeLessThanOrEqual(half);
    const types = ota.listMachineTypeOptions.reply.parse(
      (await operator.get('/otaFile/machineTypeOptions')).body,
    ).listObject;
    const fit = types.map((m) => m.machineTypeId).join(',');
    const early = await operator.post('/otaFile/insert', {
      uploadId,
      otaVersion: '2.0.0',
      fitMachineTypeId: fit,
    });
    expect(early.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', 'upload.incomplete') });
    const offered = ota.listOtaFiles.reply.parse(
      (await operator.get('/otaFile/list?start=1&size=50')).body,
    ).totalRecords;
    expect(offered).toBe(0);
    let offset = resumedAt;
    while (offset < SIZE)
      offset = (await tusPatch(t, uploadId, offset, content.subarray(offset, offset + 1024 * 1024))).offset;
    const file = ota.insertOtaFile.reply.parse(
      (await operator.post('/otaFile/insert', { uploadId, otaVersion: '2.0.0', fitMachineTypeId: fit })).body,
    ).dataObject;
    const stored = ota.getOtaFile.reply.parse(
      (await operator.get(`/otaFile/selectById?otaFileId=${file.id}`)).body,
    ).dataObject;
    expect(stored.sha256).toBe(crypto.createHash('sha256').update(content).digest('hex'));
    console.log(
      `R5: upload of ${SIZE} bytes killed with the server at ${resumedAt} (${((resumedAt * 100) / SIZE).toFixed(1)}%), resumed there after the restart; offered while partial: ${offered} times; SHA-256 of the whole file matches`,
    );

    // ---- R2 ----
    const secret = device.getEnrollmentSecret.reply.parse(
      (await operator.get('/platform/device/enrollmentSecret')).body,
    ).dataObject.enrollmentSecret;
    fleet = await startFleet({
      url,
      mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
      enrollmentSecret: secret,
      count: 3,
      prefix: 'TIMED',
      telemetryMs: 3_600_000,
      abnormalLogChance: 0,
      log: () => undefined,
    });
    const ids = await waitFor('the panels listed', async () => {
      const list = device.listDevices.reply.parse(
        (await operator.get('/platform/device/list?start=1&size=10&deviceName=TIMED')).body,
      );
      return list.listObject.length === 3 && list.listObject.every((d) => d.otaVersion === '1.4.2')
        ? list.listObject.map((d) => d.deviceId)
        : undefined;
    });
    const label = device.insertGroup.reply.parse(
      (await operator.post('/platform/group/insert', { groupName: 'timed' })).body,
    ).dataObject.groupId;
    await operator.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: ids.join(','),
      groupIds: String(label),
    });
    const at = Math.ceil((Date.now() + 8000) / 1000) * 1000;
    const upgradeTime = new Date(at).toISOString().slice(0, 19).replace('T', ' ');
    const task = ota.forceUpdate.reply.parse(
      (
        await operator.post('/otaFile/forceUpdate', {
          tagIds: String(label),
          otaFileId: String(file.id),
          timeEnable: '1',
          upgradeTime,
          utcOffset: '0',
        })
      ).body,
    ).dataObject;
    await new Promise((r) => setTimeout(r, Math.max(0, at - 4000 - Date.now())));
    await kill();
    const killedBefore = at - Date.now();
    await new Promise((r) => setTimeout(r, Math.max(0, at + 2000 - Date.now())));
    ({ url, operator } = await start());
    const restartedAfter = Date.now() - at;
    await waitFor(
      'the timed update to install',
      () => fleet!.panels.every((p) => p.state.otaVersion === '2.0.0'),
      60_000,
    );
    const view = ota.getOtaTask.reply.parse(
      (await operator.get(`/otaTask/selectById?otaTaskId=${task.otaTaskId}`)).body,
    ).dataObject;
    await waitFor('the task to complete', async () => {
      const v = ota.getOtaTask.reply.parse(
        (await operator.get(`/otaTask/selectById?otaTaskId=${task.otaTaskId}`)).body,
      ).dataObject;
      return v.state === 'completed' ? v : undefined;
    });
    const commands = await database.query<{ device_id: number; n: number }>(
      "SELECT device_id, count(*) AS n FROM commands WHERE order_code = 'OTA' GROUP BY device_id",
    );
    const executions = fleet.panels.map((p) => p.executed.filter((c) => c.order === 'OTA').length);
    expect(commands.map((c) => Number(c.n))).toEqual([1, 1, 1]);
    expect(executions).toEqual([1, 1, 1]);
    expect(view.firedAt).toBeGreaterThanOrEqual(at);
    expect(view.fireBy).toBe(at + 24 * 60 * 60_000);
    console.log(
      `R2: timed task at T, server killed ${(killedBefore / 1000).toFixed(1)} s before T and started ${(restartedAfter / 1000).toFixed(1)} s after T; fired once at T+${((view.firedAt! - at) / 1000).toFixed(1)} s: ${commands.length} OTA commands for 3 panels, each executed ${executions.join('/')} time(s)`,
    );
  }, 180_000);
});
