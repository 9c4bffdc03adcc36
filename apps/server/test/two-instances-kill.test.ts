import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { device, ota } from '@panelfleet/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import { md5Hex } from '../src/security/passwords.js';
import { TestBalancer } from './balancer.js';
import { connectCountingPanel, type CountingPanel } from './counting-panel.js';
import { waitFor } from './device-helpers.js';
import { backends, TestClient } from './harness.js';
import { hasMosquitto, ThrowawayMosquitto } from './mosquitto-helpers.js';
import { firmwareBytes, tusCreate, tusPatch, tusTarget } from './ota-helpers.js';
import { freePort, processDatabase, startServerProcess } from './server-process.js';

// Issue 18, done-when: two server processes on one PostgreSQL database, one Mosquitto and one
// shared DATA_DIR, behind a round-robin balancer (BASE_URL), with simulated panels through the
// broker. A is killed with SIGKILL in the middle of a 1,000-panel label command and of a staged
// OTA task it holds; B finishes both. A timed task fires once while both run. Everything is
// counted on the panels' side.

const FANOUT = 1000;
const STAGED = 30;
const WAVE = 10;
const TIMED = 5;
const FIRMWARE = 256 * 1024;

describe.runIf(hasMosquitto && backends.includes('postgres'))(
  'two instances, one killed with SIGKILL mid label command and mid staged OTA task',
  () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-two-kill-'));
    const children: ChildProcess[] = [];
    const countingPanels: CountingPanel[] = [];
    const fleets: Fleet[] = [];
    let broker: ThrowawayMosquitto | undefined;
    let balancer: TestBalancer | undefined;
    let database: Awaited<ReturnType<typeof processDatabase>> | undefined;
    afterAll(async () => {
      balancer?.release();
      for (const fleet of fleets) await fleet.stop();
      await Promise.all(countingPanels.map((p) => p.client.endAsync(true)));
      for (const child of children) child.kill('SIGKILL');
      await balancer?.stop();
      await broker?.dispose();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('B finishes both with no command run twice and none lost; a timed task fires once', async () => {
      broker = await ThrowawayMosquitto.start();
      balancer = await TestBalancer.start();
      database = await processDatabase('postgres', dataDir);
      const shared = {
        ...database.env,
        DATA_DIR: dataDir,
        BASE_URL: balancer.url,
        HOST: '127.0.0.1',
        MQTT_URL: broker.url,
        MQTT_PUBLIC_URL: broker.url,
        CAPTCHA: 'off',
        PASSWORD_PEPPER: 'two-instances-kill-pepper-0123456789',
        ADMIN_PASSWORD: 'admin123',
        LOG_LEVEL: 'silent',
        ROLLOUT_JITTER_MS: '0',
        COMMAND_PUBLISH_BATCH: '25',
        COMMAND_RETRY_MS: '3000',
        ROLLOUT_LEASE_MS: '3000',
      };
      const start = async () => {
        const server = await startServerProcess({ ...shared, PORT: String(await freePort()) });
        children.push(server.child);
        return server;
      };
      const a = await start();
      balancer.setBackends([a.url]);

      const operator = new TestClient(balancer.url);
      const login = await operator.post('/platform/login', {
        username: 'operator1',
        password: md5Hex('operator123'),
        tryCode: 'none',
      });
      expect(login.body.hhtStatus).toBe('success');
      const secret = device.getEnrollmentSecret.reply.parse(
        (await operator.get('/platform/device/enrollmentSecret')).body,
      ).dataObject.enrollmentSecret;

      // The firmware, uploaded through the balancer into the shared DATA_DIR.
      const target = tusTarget(balancer.url, operator);
      const uploadId = (await tusCreate(target, FIRMWARE, 'two-instances.bin')).uploadId!;
      expect((await tusPatch(target, uploadId, 0, firmwareBytes(FIRMWARE, 18))).offset).toBe(FIRMWARE);
      const fit = ota.listMachineTypeOptions.reply
        .parse((await operator.get('/otaFile/machineTypeOptions')).body)
        .listObject.map((m) => m.machineTypeId)
        .join(',');
      const file = ota.insertOtaFile.reply.parse(
        (await operator.post('/otaFile/insert', { uploadId, otaVersion: '2.0.0', fitMachineTypeId: fit }))
          .body,
      ).dataObject;

      // Panels: simulated ones for the OTA tasks, counting ones for the label command.
      const fleetOptions = {
        url: balancer.url,
        mqttUrl: broker.url,
        enrollmentSecret: secret,
        telemetryMs: 3_600_000,
        abnormalLogChance: 0,
        log: () => undefined,
      };
      const staged = await startFleet({ ...fleetOptions, count: STAGED, prefix: 'STAGED' });
      fleets.push(staged);
      const timed = await startFleet({ ...fleetOptions, count: TIMED, prefix: 'TIMED' });
      fleets.push(timed);
      let killed = false;
      let executedBeforeKill = 0;
      let otaBeforeKill = { sent: 0, installed: 0 };
      const kill = () => {
        if (killed) return;
        killed = true;
        a.child.kill('SIGKILL');
        executedBeforeKill = countingPanels.reduce((n, p) => n + p.executions, 0);
        otaBeforeKill = {
          sent: staged.panels.filter((p) => p.executed.some((c) => c.order === 'OTA')).length,
          installed: staged.panels.reduce((n, p) => n + p.otaInstalls, 0),
        };
      };
      const serials = Array.from({ length: FANOUT }, (_, i) => `FANOUT-${String(i).padStart(4, '0')}`);
      for (let i = 0; i < serials.length; i += 50)
        await Promise.all(
          serials.slice(i, i + 50).map(async (serial) => {
            const response = await fetch(`${balancer!.url}/device/enroll`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ v: 1, serial, enrollmentSecret: secret }),
            });
            const text = await response.text();
            const reply = device.enroll.reply.safeParse(JSON.parse(text));
            if (!reply.success) throw new Error(`enrollment of ${serial}: ${response.status} ${text}`);
            const creds = reply.data.dataObject;
            countingPanels.push(
              await connectCountingPanel(broker!.url, creds, (p) => {
                if (
                  p.executions + p.duplicates === 1 &&
                  countingPanels.reduce((n, q) => n + q.executions, 0) >= 100
                )
                  kill();
              }),
            );
          }),
        );

      // The panels' ids, once the simulated ones reported their firmware (the OTA checks it).
      const idsOf = async (prefix: string, count: number) =>
        waitFor(
          `the ${prefix} panels known`,
          async () => {
            const rows = await database!.query<{ id: number; ota_version: string }>(
              `SELECT id, ota_version FROM devices WHERE name LIKE '${prefix}-%' ORDER BY id`,
            );
            const reported = prefix === 'FANOUT' || rows.every((r) => r.ota_version === '1.4.2');
            return rows.length === count && reported ? rows.map((r) => r.id) : undefined;
          },
          30_000,
        );
      const labelOf = async (name: string, ids: number[]) => {
        const label = device.insertGroup.reply.parse(
          (await operator.post('/platform/group/insert', { groupName: name })).body,
        ).dataObject.groupId;
        await operator.post('/platform/group/saveGroupsAndDevices', {
          deviceIds: ids.join(','),
          groupIds: String(label),
        });
        return label;
      };
      const fanoutLabel = await labelOf('fanout', await idsOf('FANOUT', FANOUT));
      const stagedLabel = await labelOf('staged', await idsOf('STAGED', STAGED));
      const timedLabel = await labelOf('timed', await idsOf('TIMED', TIMED));

      // The staged task starts on A alone, so A holds it; its first wave's downloads are held at
      // the balancer, so the wave is still running when A dies.
      balancer.hold((url) => url.startsWith('/device/files/'));
      const onA = new TestClient(a.url);
      onA.setCookie('pf_session', operator.cookie('pf_session')!);
      const stagedReply = await onA.post('/otaFile/forceUpdate', {
        tagIds: String(stagedLabel),
        otaFileId: String(file.id),
        waveMode: 'count',
        firstWave: String(WAVE),
        waveStep: String(WAVE),
      });
      expect(stagedReply.body, stagedReply.text).toMatchObject({ hhtStatus: 'success' });
      const stagedTask = ota.forceUpdate.reply.parse(stagedReply.body).dataObject;
      expect(stagedTask.waveCount).toBe(STAGED / WAVE);
      await waitFor('the first wave downloading', () => balancer!.waiting === WAVE);

      const b = await start();
      balancer.setBackends([a.url, b.url]);
      const onB = new TestClient(b.url);
      onB.setCookie('pf_session', operator.cookie('pf_session')!);

      // A timed task, made through B, fires while both instances run.
      const at = Math.ceil((Date.now() + 8000) / 1000) * 1000;
      const timedReply = await onB.post('/otaFile/forceUpdate', {
        tagIds: String(timedLabel),
        otaFileId: String(file.id),
        timeEnable: '1',
        upgradeTime: new Date(at).toISOString().slice(0, 19).replace('T', ' '),
        utcOffset: '0',
      });
      expect(timedReply.body, timedReply.text).toMatchObject({ hhtStatus: 'success' });
      const timedTask = ota.forceUpdate.reply.parse(timedReply.body).dataObject;
      await waitFor(
        'the timed task to reach its panels',
        () => timed.panels.every((p) => p.executed.some((c) => c.order === 'OTA')),
        20_000,
      );

      // The label command through A; A dies after 100 panels ran it.
      const sent = await onA.post('/sendData/sendCommandByTagIds', {
        tagIds: String(fanoutLabel),
        order: '00',
        value: '40',
      });
      expect(sent.body).toMatchObject({ hhtStatus: 'success', dataObject: { count: FANOUT } });
      await waitFor('the kill during the fan-out', () => killed, 30_000);
      expect(executedBeforeKill).toBeLessThan(FANOUT);
      expect(otaBeforeKill).toEqual({ sent: WAVE, installed: 0 });
      balancer.release();

      await waitFor(
        'every panel to run the label command',
        () => countingPanels.every((p) => p.executions === 1),
        60_000,
      ).catch(async (err: unknown) => {
        const rows = await database!.query(
          "SELECT status, attempts, count(*) AS n FROM commands WHERE order_code = '00' GROUP BY status, attempts",
        );
        const ran = countingPanels.filter((p) => p.executions === 1).length;
        throw new Error(`${String(err)}: ${ran} ran it; rows ${JSON.stringify(rows)}`);
      });
      await waitFor(
        'every staged and timed panel on 2.0.0',
        () => [...staged.panels, ...timed.panels].every((p) => p.state.otaVersion === '2.0.0'),
        90_000,
      );
      const taskState = async (id: number) =>
        ota.getOtaTask.reply.parse((await onB.get(`/otaTask/selectById?otaTaskId=${id}`)).body).dataObject;
      await waitFor('both tasks completed', async () =>
        (await taskState(stagedTask.otaTaskId)).state === 'completed' &&
        (await taskState(timedTask.otaTaskId)).state === 'completed'
          ? true
          : undefined,
      );
      const labelRows = await waitFor('every label command row to succeed', async () => {
        const rows = await database!.query<{ status: string; n: string }>(
          "SELECT status, count(*) AS n FROM commands WHERE order_code = '00' GROUP BY status",
        );
        return rows.length === 1 && rows[0]!.status === 'succeeded' && Number(rows[0]!.n) === FANOUT
          ? rows
          : undefined;
      });
      const otaRows = await database.query<{ serial: string; n: string }>(
        "SELECT d.device_key AS serial, count(*) AS n FROM commands c JOIN devices d ON d.id = c.device_id WHERE c.order_code = 'OTA' GROUP BY d.device_key",
      );
      const simulated = [...staged.panels, ...timed.panels];
      const otaExecutions = simulated.map((p) => p.executed.filter((c) => c.order === 'OTA').length);
      const installs = simulated.map((p) => p.otaInstalls);
      const timedView = await taskState(timedTask.otaTaskId);

      const labelDuplicates = countingPanels.reduce((n, p) => n + p.duplicates, 0);
      const otaDuplicates = simulated.reduce((n, p) => n + p.duplicates, 0);
      console.log(
        `two instances, A killed with SIGKILL: label command ${executedBeforeKill}/${FANOUT} run before the kill, ` +
          `${FANOUT - executedBeforeKill} after (by B), executions per panel all 1, ${labelDuplicates} repeated deliveries ignored by id, rows ${JSON.stringify(labelRows)}; ` +
          `staged OTA ${STAGED} panels in ${stagedTask.waveCount} waves, wave 1 (${otaBeforeKill.sent} panels) downloading at the kill, ` +
          `installs ${installs.slice(0, STAGED).reduce((n, i) => n + i, 0)} (each panel 1), OTA commands ${otaRows.length} rows for ${simulated.length} panels, ${otaDuplicates} repeated deliveries ignored; ` +
          `timed task fired once at T+${((timedView.firedAt! - at) / 1000).toFixed(1)} s, installs ${installs.slice(STAGED).join('/')}; ` +
          `balancer requests A ${balancer.served.get(a.url) ?? 0}, B ${balancer.served.get(b.url) ?? 0}`,
      );
      expect(countingPanels.every((p) => p.executions === 1)).toBe(true);
      expect(otaRows.map((r) => Number(r.n))).toEqual(simulated.map(() => 1));
      expect(otaExecutions).toEqual(simulated.map(() => 1));
      expect(installs).toEqual(simulated.map(() => 1));
      expect(timedView.firedAt).toBeGreaterThanOrEqual(at);
    }, 240_000);
  },
);
