import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { device, ota } from '@panelfleet/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import type { SimulatedPanel } from '../../simulator/src/panel.js';
import { md5Hex } from '../src/security/passwords.js';
import { TestBalancer } from './balancer.js';
import { waitFor } from './device-helpers.js';
import { backends, TestClient } from './harness.js';
import { hasMosquitto, ThrowawayMosquitto } from './mosquitto-helpers.js';
import { firmwareBytes, tusCreate, tusPatch, tusTarget } from './ota-helpers.js';
import { freePort, processDatabase, startServerProcess } from './server-process.js';

// Issue 23, item 3: what a panel reports is acknowledged only once it is stored. Simulated panels
// send final acknowledgements (label commands, a failed OTA), usage reports and abnormal logs in a
// steady stream; the server process that holds them in memory is killed with SIGKILL the moment a
// panel reports its OTA failure. After a restart (SQLite) or through the other instance
// (PostgreSQL, two instances on one Mosquitto), every one of them is stored exactly once, because
// the panels send again whatever no receipt named (docs/device-protocol.md 5.9).

const PANELS = 16;
const FAILING = 3;
const FIRMWARE = 64 * 1024;

type Database = Awaited<ReturnType<typeof processDatabase>>;

interface Sent {
  usage: Map<string, string[]>;
  logs: Map<string, string[]>;
}

/** Reports from every panel every 40 ms and a label command every 300 ms, until stopped. */
function startReporting(panels: SimulatedPanel[], operator: TestClient, labelId: number) {
  const sent: Sent = { usage: new Map(), logs: new Map() };
  const record = (into: Map<string, string[]>, serial: string, id: string) =>
    into.set(serial, [...(into.get(serial) ?? []), id]);
  const usage = (panel: SimulatedPanel) => {
    const { report, sent: published } = panel.reportUsage();
    record(sent.usage, panel.serial, report.id);
    return published;
  };
  const log = async (panel: SimulatedPanel, round: number) => {
    const id = await panel.reportLog({
      fileName: `anr-${round}.txt`,
      appName: 'Browser',
      occurredAt: panel.now(),
      text: `ANR in com.panel.browser, round ${round}`,
    });
    record(sent.logs, panel.serial, id);
  };
  let running = true;
  let round = 0;
  const done = (async () => {
    while (running) {
      round++;
      for (const panel of panels) {
        void usage(panel).catch(() => undefined);
        if (round % 3 === 0) await log(panel, round);
      }
      // The instance answering may be dead: the label command of that round is simply not made.
      if (round % 8 === 0)
        void operator
          .post('/sendData/sendCommandByTagIds', {
            tagIds: String(labelId),
            order: '00',
            value: String(round % 100),
          })
          .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  })();
  return {
    sent,
    /** Five usage reports and two logs from every panel at once; resolves when the broker took them all (PUBACK). */
    burst: () =>
      Promise.all(
        panels.flatMap((panel) => [
          ...Array.from({ length: 5 }, () => usage(panel)),
          log(panel, -1),
          log(panel, -2),
        ]),
      ),
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** Everything the panels sent is in the database once, and every final result they gave is the command's. */
async function expectStoredOnce(
  database: Database,
  panels: SimulatedPanel[],
  sent: Sent,
  failing: Set<string>,
) {
  const keys = panels.map((p) => `'${p.serial}'`).join(',');
  const counted = async (table: 'screen_time' | 'abnormal_logs') => {
    const rows = await database.query<{ serial: string; report_id: string; n: string | number }>(
      `SELECT d.device_key AS serial, t.report_id, count(*) AS n FROM ${table} t JOIN devices d ON d.id = t.device_id
       WHERE d.device_key IN (${keys}) GROUP BY d.device_key, t.report_id`,
    );
    return rows;
  };
  const usage = await counted('screen_time');
  const logs = await counted('abnormal_logs');
  const byPanel = (rows: Awaited<ReturnType<typeof counted>>) => {
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.serial, [...(out.get(r.serial) ?? []), r.report_id].sort());
    return out;
  };
  const sorted = (m: Map<string, string[]>) => new Map([...m].map(([k, v]) => [k, [...v].sort()]));
  expect(usage.filter((r) => Number(r.n) !== 1)).toEqual([]);
  expect(logs.filter((r) => Number(r.n) !== 1)).toEqual([]);
  expect(byPanel(usage)).toEqual(sorted(sent.usage));
  expect(byPanel(logs)).toEqual(sorted(sent.logs));

  const finals = panels.flatMap((p) =>
    [...p.handled.values()]
      .filter((a) => a.result !== 'received')
      .map((a) => ({ id: a.id, result: a.result })),
  );
  const rows = await database.query<{ id: string; status: string }>(
    `SELECT id, status FROM commands WHERE id IN (${finals.map((f) => `'${f.id}'`).join(',')})`,
  );
  const status = new Map(rows.map((r) => [r.id, r.status]));
  expect(
    finals.filter((f) => status.get(f.id) !== f.result).map((f) => ({ ...f, stored: status.get(f.id) })),
  ).toEqual([]);

  const targets = await database.query<{ serial: string; state: string; reason: string }>(
    `SELECT d.device_key AS serial, t.state, t.reason FROM rollout_targets t JOIN devices d ON d.id = t.device_id
     WHERE d.device_key IN (${keys}) ORDER BY d.device_key`,
  );
  // Each failing panel's row ends with the reason the panel gave (the kill may cut a download short).
  const reasons = new Map(panels.map((p) => [p.serial, p.otaFailures[0]?.detail]));
  expect(targets.filter((t) => failing.has(t.serial)).map((t) => [t.serial, t.state, t.reason])).toEqual(
    [...failing].sort().map((serial) => [serial, 'failed', reasons.get(serial)]),
  );
  return { usage: usage.length, logs: logs.length, finals: finals.length };
}

/** Signs in, uploads a firmware, and labels the panels: all, and those whose OTA download arrives corrupted. */
async function prepare(url: string, database: Database, fleet: Fleet) {
  const operator = new TestClient(url);
  const login = await operator.post('/platform/login', {
    username: 'operator1',
    password: md5Hex('operator123'),
    tryCode: 'none',
  });
  expect(login.body.hhtStatus).toBe('success');
  const target = tusTarget(url, operator);
  const uploadId = (await tusCreate(target, FIRMWARE, 'receipts.bin')).uploadId!;
  expect((await tusPatch(target, uploadId, 0, firmwareBytes(FIRMWARE, 23))).offset).toBe(FIRMWARE);
  const fit = ota.listMachineTypeOptions.reply
    .parse((await operator.get('/otaFile/machineTypeOptions')).body)
    .listObject.map((m) => m.machineTypeId)
    .join(',');
  const file = ota.insertOtaFile.reply.parse(
    (await operator.post('/otaFile/insert', { uploadId, otaVersion: '2.0.0', fitMachineTypeId: fit })).body,
  ).dataObject;
  const ids = await waitFor('the panels known with their firmware', async () => {
    const rows = await database.query<{ id: number; device_key: string; ota_version: string }>(
      "SELECT id, device_key, ota_version FROM devices WHERE device_key LIKE 'RCPT-%' ORDER BY device_key",
    );
    return rows.length === PANELS && rows.every((r) => r.ota_version === '1.4.2') ? rows : undefined;
  });
  const labelOf = async (name: string, deviceIds: number[]) => {
    const label = device.insertGroup.reply.parse(
      (await operator.post('/platform/group/insert', { groupName: name })).body,
    ).dataObject.groupId;
    await operator.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: deviceIds.join(','),
      groupIds: String(label),
    });
    return label;
  };
  const failingPanels = fleet.panels.slice(0, FAILING);
  for (const panel of failingPanels) panel.corruptNextOta = true;
  return {
    operator,
    file,
    failing: new Set(failingPanels.map((p) => p.serial)),
    allLabel: await labelOf(
      'all',
      ids.map((r) => r.id),
    ),
    failingLabel: await labelOf(
      'failing OTA',
      ids.slice(0, FAILING).map((r) => r.id),
    ),
  };
}

/**
 * Kills the server right after the first panel sent its OTA failure, and after a burst of usage
 * reports and logs that the broker took: all of it is then in the server's hands, some in memory.
 */
function killOnFirstOtaFailure(panels: SimulatedPanel[], burst: () => Promise<unknown>, kill: () => void) {
  let killing = false;
  for (const panel of panels) {
    const ack = panel.ack.bind(panel);
    panel.ack = async (message) => {
      await ack(message);
      if (killing || message.result !== 'failed' || message.detail !== 'checksum') return;
      killing = true;
      await burst();
      kill();
    };
  }
}

const fleetOptions = (url: string, mqttUrl: string, enrollmentSecret: string) => ({
  url,
  mqttUrl,
  enrollmentSecret,
  count: PANELS,
  prefix: 'RCPT',
  telemetryMs: 3_600_000,
  abnormalLogChance: 0,
  resendFirstMs: 500,
  log: () => undefined,
});

const secretOf = async (url: string) => {
  const operator = new TestClient(url);
  await operator.post('/platform/login', {
    username: 'operator1',
    password: md5Hex('operator123'),
    tryCode: 'none',
  });
  return device.getEnrollmentSecret.reply.parse(
    (await operator.get('/platform/device/enrollmentSecret')).body,
  ).dataObject.enrollmentSecret;
};

const common = {
  HOST: '127.0.0.1',
  CAPTCHA: 'off',
  PASSWORD_PEPPER: 'receipts-kill-pepper-0123456789',
  ADMIN_PASSWORD: 'admin123',
  LOG_LEVEL: 'silent',
  ROLLOUT_JITTER_MS: '0',
  COMMAND_RETRY_MS: '2000',
  ROLLOUT_LEASE_MS: '3000',
};

describe.runIf(backends.includes('sqlite'))(
  'reports of panels across a SIGKILL and a restart on SQLite',
  () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-receipts-'));
    let child: ChildProcess | undefined;
    let fleet: Fleet | undefined;
    afterAll(async () => {
      await fleet?.stop();
      child?.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('stores every final result, usage report and log exactly once, and the failed OTA row ends failed', async () => {
      const [httpPort, mqttPort] = [await freePort(), await freePort()];
      const database = await processDatabase('sqlite', dataDir);
      const url = `http://127.0.0.1:${httpPort}`;
      const env = {
        ...common,
        DATA_DIR: dataDir,
        PORT: String(httpPort),
        BASE_URL: url,
        MQTT_PORT: String(mqttPort),
      };
      child = (await startServerProcess(env)).child;
      fleet = await startFleet(fleetOptions(url, `mqtt://127.0.0.1:${mqttPort}`, await secretOf(url)));
      const { operator, file, failing, allLabel, failingLabel } = await prepare(url, database, fleet);

      let killedAt: number | undefined;
      let unconfirmedAtKill = 0;
      const reporting = startReporting(fleet.panels, operator, allLabel);
      killOnFirstOtaFailure(fleet.panels, reporting.burst, () => {
        killedAt = Date.now();
        child!.kill('SIGKILL');
        unconfirmedAtKill = fleet!.panels.reduce((n, p) => n + p.outbox.size, 0);
      });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const task = await operator.post('/otaFile/forceUpdate', {
        tagIds: String(failingLabel),
        otaFileId: String(file.id),
      });
      expect(task.body).toMatchObject({ hhtStatus: 'success' });
      await waitFor('the kill at the first OTA failure', () => killedAt !== undefined, 30_000);
      await new Promise<void>((resolve) =>
        child!.exitCode !== null ? resolve() : child!.once('exit', () => resolve()),
      );
      child = (await startServerProcess(env)).child;
      await waitFor('every panel back', () => fleet!.panels.every((p) => p.connected), 30_000);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await reporting.stop();
      await waitFor(
        'every panel without unconfirmed reports',
        () => fleet!.panels.every((p) => p.outbox.size === 0),
        60_000,
      );
      await waitFor(
        'the failing panels all failed',
        () => fleet!.panels.slice(0, FAILING).every((p) => p.otaFailures.length === 1),
        30_000,
      );
      const counts = await waitFor(
        'the OTA rows settled',
        async () => {
          try {
            return await expectStoredOnce(database, fleet!.panels, reporting.sent, failing);
          } catch {
            return undefined;
          }
        },
        30_000,
      ).catch(() => expectStoredOnce(database, fleet!.panels, reporting.sent, failing));
      console.log(
        `receipts across a SIGKILL and a restart (SQLite): ${counts.usage} usage reports, ${counts.logs} logs and ` +
          `${counts.finals} final acknowledgements of ${PANELS} panels stored once each; ${unconfirmedAtKill} were unconfirmed at the kill`,
      );
    }, 180_000);
  },
);

describe.runIf(hasMosquitto && backends.includes('postgres'))(
  'reports of panels across a SIGKILL of one of two instances on PostgreSQL',
  () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-receipts-two-'));
    const children: ChildProcess[] = [];
    let fleet: Fleet | undefined;
    let broker: ThrowawayMosquitto | undefined;
    let balancer: TestBalancer | undefined;
    let database: Database | undefined;
    afterAll(async () => {
      await fleet?.stop();
      for (const child of children) child.kill('SIGKILL');
      await balancer?.stop();
      await broker?.dispose();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('B stores every final result, usage report and log that A held, exactly once', async () => {
      broker = await ThrowawayMosquitto.start();
      balancer = await TestBalancer.start();
      database = await processDatabase('postgres', dataDir);
      const env = {
        ...common,
        ...database.env,
        DATA_DIR: dataDir,
        BASE_URL: balancer.url,
        MQTT_URL: broker.url,
        MQTT_PUBLIC_URL: broker.url,
      };
      const start = async () => {
        const server = await startServerProcess({ ...env, PORT: String(await freePort()) });
        children.push(server.child);
        return server;
      };
      const a = await start();
      const b = await start();
      balancer.setBackends([a.url, b.url]);
      fleet = await startFleet(fleetOptions(balancer.url, broker.url, await secretOf(balancer.url)));
      const { operator, file, failing, allLabel, failingLabel } = await prepare(
        balancer.url,
        database,
        fleet,
      );

      let killedAt: number | undefined;
      let unconfirmedAtKill = 0;
      const reporting = startReporting(fleet.panels, operator, allLabel);
      killOnFirstOtaFailure(fleet.panels, reporting.burst, () => {
        killedAt = Date.now();
        a.child.kill('SIGKILL');
        unconfirmedAtKill = fleet!.panels.reduce((n, p) => n + p.outbox.size, 0);
      });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const task = await operator.post('/otaFile/forceUpdate', {
        tagIds: String(failingLabel),
        otaFileId: String(file.id),
      });
      expect(task.body).toMatchObject({ hhtStatus: 'success' });
      await waitFor('the kill at the first OTA failure', () => killedAt !== undefined, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await reporting.stop();
      await waitFor(
        'every panel without unconfirmed reports',
        () => fleet!.panels.every((p) => p.outbox.size === 0),
        60_000,
      );
      const counts = await waitFor(
        'the OTA rows settled',
        async () => {
          try {
            return await expectStoredOnce(database!, fleet!.panels, reporting.sent, failing);
          } catch {
            return undefined;
          }
        },
        30_000,
      ).catch(() => expectStoredOnce(database!, fleet!.panels, reporting.sent, failing));
      console.log(
        `receipts across a SIGKILL of instance A (PostgreSQL, B on): ${counts.usage} usage reports, ${counts.logs} logs and ` +
          `${counts.finals} final acknowledgements of ${PANELS} panels stored once each; ${unconfirmedAtKill} were unconfirmed at the kill`,
      );
    }, 180_000);
  },
);
