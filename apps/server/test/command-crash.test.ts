import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { device } from '@panelfleet/contract';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../src/security/passwords.js';
import { backends, TestClient } from './harness.js';
import { connectCountingPanel, type CountingPanel } from './counting-panel.js';
import { waitFor } from './device-helpers.js';
import { freePort, startServerProcess } from './server-process.js';

const DEVICES = 1000;

type StatusCounts = Array<{ status: string; n: number }>;

/** The server's database for this run: a SQLite file in DATA_DIR, or a fresh PostgreSQL database. */
async function crashDatabase(backend: 'sqlite' | 'postgres', dataDir: string) {
  const query = "SELECT status, count(*) AS n FROM commands WHERE order_code = '00' GROUP BY status";
  if (backend === 'sqlite') {
    return {
      env: {} as Record<string, string>,
      counts: async (): Promise<StatusCounts> => {
        const db = new SqliteDatabase(path.join(dataDir, 'panelfleet.db'), { readonly: true });
        try {
          return db.prepare(query).all() as StatusCounts;
        } finally {
          db.close();
        }
      },
      drop: async () => undefined,
    };
  }
  const admin = new URL(process.env.TEST_DATABASE_URL!);
  const name = `crash_${crypto.randomBytes(5).toString('hex')}`;
  const run = async (url: URL, sql: string) => {
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query(sql)).rows as StatusCounts;
    } finally {
      await client.end();
    }
  };
  await run(admin, `CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() } as Record<string, string>,
    counts: async () => (await run(url, query)).map((r) => ({ status: r.status, n: Number(r.n) })),
    drop: () => run(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined),
  };
}

describe.each(backends)(
  'a server killed with SIGKILL in the middle of a 1,000-device label command on %s',
  (backend) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-crash-'));
    const panels: CountingPanel[] = [];
    let child: ChildProcess | undefined;
    let database: Awaited<ReturnType<typeof crashDatabase>> | undefined;
    afterAll(async () => {
      child?.kill('SIGKILL');
      await Promise.all(panels.map((p) => p.client.endAsync(true)));
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('resumes after restart with no command lost or run twice', async () => {
      const [httpPort, mqttPort] = [await freePort(), await freePort()];
      database = await crashDatabase(backend, dataDir);
      const env = {
        ...database.env,
        DATA_DIR: dataDir,
        PORT: String(httpPort),
        BASE_URL: `http://127.0.0.1:${httpPort}`,
        HOST: '127.0.0.1',
        MQTT_PORT: String(mqttPort),
        CAPTCHA: 'off',
        PASSWORD_PEPPER: 'crash-test-pepper-0123456789',
        ADMIN_PASSWORD: 'admin123',
        LOG_LEVEL: 'silent',
        COMMAND_PUBLISH_BATCH: '25',
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

      let killed = false;
      let executedBeforeKill = 0;
      const kill = () => {
        if (killed) return;
        killed = true;
        child!.kill('SIGKILL');
        executedBeforeKill = panels.reduce((n, p) => n + p.executions, 0);
      };
      const serials = Array.from({ length: DEVICES }, (_, i) => `CRASH-${String(i).padStart(4, '0')}`);
      for (let i = 0; i < serials.length; i += 50) {
        await Promise.all(
          serials.slice(i, i + 50).map(async (serial) => {
            const response = await fetch(`${server.url}/device/enroll`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ v: 1, serial, enrollmentSecret: secret }),
            });
            const creds = device.enroll.reply.parse(await response.json()).dataObject;
            const panel = await connectCountingPanel(`mqtt://127.0.0.1:${mqttPort}`, creds, (p) => {
              if (p.executions + p.duplicates === 1 && panels.reduce((n, q) => n + q.executions, 0) >= 100)
                kill();
            });
            panels.push(panel);
          }),
        );
      }

      const ids: number[] = [];
      for (let page = 1; ids.length < DEVICES; page++) {
        const list = device.listDevices.reply.parse(
          (await operator.get(`/platform/device/list?start=${page}&size=100`)).body,
        );
        if (!list.listObject.length) break;
        ids.push(...list.listObject.map((d) => d.deviceId));
      }
      expect(ids).toHaveLength(DEVICES);
      const label = device.insertGroup.reply.parse(
        (await operator.post('/platform/group/insert', { groupName: 'all panels' })).body,
      ).dataObject;
      await operator.post('/platform/group/saveGroupsAndDevices', {
        deviceIds: ids.join(','),
        groupIds: String(label.groupId),
      });

      // The kill comes when 100 panels have run the command: usually after the reply, but on a
      // busy machine the fan-out can get there first, and then the reply never comes. Either way
      // the command is stored before anything is published, so the restart must finish it.
      const sent = await operator
        .post('/sendData/sendCommandByTagIds', { tagIds: String(label.groupId), order: '00', value: '40' })
        .catch((error: unknown) => {
          if (!killed) throw error;
          return undefined;
        });
      if (sent) expect(sent.body).toMatchObject({ hhtStatus: 'success', dataObject: { count: DEVICES } });
      await waitFor('the kill during fan-out', () => killed, 30_000);
      expect(executedBeforeKill).toBeLessThan(DEVICES);

      server = await startServerProcess(env);
      child = server.child;
      await waitFor('every panel to run the command', () => panels.every((p) => p.executions === 1), 90_000);
      const statuses = await waitFor(
        'every command row to succeed',
        async () => {
          const rows = await database!.counts();
          return rows.length === 1 && rows[0]!.status === 'succeeded' && rows[0]!.n === DEVICES
            ? rows
            : undefined;
        },
        30_000,
      );
      const duplicates = panels.reduce((n, p) => n + p.duplicates, 0);
      console.log(
        `SIGKILL fan-out on ${backend}: ${executedBeforeKill}/${DEVICES} run before the kill, ${DEVICES - executedBeforeKill} delivered after restart, ${duplicates} repeated deliveries ignored by id, rows ${JSON.stringify(statuses)}; executions per panel all 1`,
      );
      expect(panels.every((p) => p.executions === 1)).toBe(true);
    }, 180_000);
  },
);
