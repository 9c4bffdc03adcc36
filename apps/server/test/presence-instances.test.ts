import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { device } from '@panelfleet/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../src/security/passwords.js';
import { connectBare, enroll, enrollmentSecretOf, waitFor, type BareDevice } from './device-helpers.js';
import { backends, TestClient } from './harness.js';
import { freePort, processDatabase, startServerProcess } from './server-process.js';

// Issue 28 item 3: a dynamic label "online" stays true when an instance dies. Two server
// processes on one database, each with its embedded broker; A is killed with SIGKILL while it
// holds two panels. One of them reconnects to B at once (the race with B's sweep); B marks the
// other offline within a few of A's beats, and a label "online" no longer counts it. Then B is
// killed too and a restarted instance marks what B held offline.

const BEAT_MS = 300;

interface Row {
  device_key: string;
  online: number;
  online_at: number | string | null;
  online_by: string | null;
}

describe.each(backends)('presence when an instance dies, two instances on %s', (backend) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-presence-'));
  const children: ChildProcess[] = [];
  const panels: BareDevice[] = [];
  let database: Awaited<ReturnType<typeof processDatabase>> | undefined;
  afterAll(async () => {
    // A panel of a killed instance has no broker left to say goodbye to: its close may fail.
    await Promise.all(panels.map((p) => p.close().catch(() => undefined)));
    for (const child of children) child.kill('SIGKILL');
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'the survivor marks the dead instance’s panels offline, a panel that reconnected to it stays online, and a restarted instance does the same',
    { timeout: 240_000 },
    async () => {
      database = await processDatabase(backend, dataDir);
      const start = async () => {
        const mqttPort = await freePort();
        const server = await startServerProcess({
          ...database!.env,
          DATA_DIR: dataDir,
          HOST: '127.0.0.1',
          PORT: String(await freePort()),
          MQTT_PORT: String(mqttPort),
          CAPTCHA: 'off',
          PASSWORD_PEPPER: 'presence-instances-pepper-0123456789',
          ADMIN_PASSWORD: 'admin123',
          LOG_LEVEL: 'silent',
          PRESENCE_BEAT_MS: String(BEAT_MS),
        });
        children.push(server.child);
        return { ...server, mqttUrl: `mqtt://127.0.0.1:${mqttPort}` };
      };
      const rows = async () => {
        const found = await database!.query<Row>(
          `SELECT device_key, online, online_at, online_by FROM devices WHERE device_key LIKE 'PRES-%' ORDER BY device_key`,
        );
        return new Map(found.map((r) => [r.device_key, { ...r, online_at: Number(r.online_at) }]));
      };
      const signIn = async (url: string) => {
        const client = new TestClient(url);
        const login = await client.post('/platform/login', {
          username: 'operator1',
          password: md5Hex('operator123'),
          tryCode: 'none',
        });
        expect(login.body.hhtStatus).toBe('success');
        return client;
      };
      const onlineCount = async (client: TestClient) => {
        const reply = await client.request('POST', '/platform/group/countFilter', {
          json: { filter: { online: true } },
        });
        return device.countGroupFilter.reply.parse(reply.body).dataObject.count;
      };

      const a = await start();
      const b = await start();
      const operator = await signIn(b.url);
      const secret = await enrollmentSecretOf(operator);
      const creds = [];
      for (const serial of ['PRES-0', 'PRES-1', 'PRES-2']) creds.push(await enroll(a.url, serial, secret));
      panels.push(await connectBare(a.mqttUrl, creds[0]!), await connectBare(a.mqttUrl, creds[1]!));
      panels.push(await connectBare(b.mqttUrl, creds[2]!));
      const before = await waitFor('three panels online', async () => {
        const r = await rows();
        return [...r.values()].every((row) => row.online === 1) && r.size === 3 && r;
      });
      const ownerA = before.get('PRES-0')!.online_by;
      const ownerB = before.get('PRES-2')!.online_by;
      expect(ownerA).toBeTruthy();
      expect(ownerB).toBeTruthy();
      expect(ownerA).not.toBe(ownerB);
      expect(before.get('PRES-1')!.online_by).toBe(ownerA);
      expect(await onlineCount(operator)).toBe(3);

      // A dies. PRES-1 reconnects to B at once, PRES-0 does not come back.
      a.child.kill('SIGKILL');
      // Its broker was killed: the close can only fail, and the panel reconnects below.
      await panels[1]!.close().catch(() => undefined);
      panels.push(await connectBare(b.mqttUrl, creds[1]!));
      const after = await waitFor(
        'PRES-0 marked offline by B',
        async () => {
          const r = await rows();
          return r.get('PRES-0')!.online === 0 && r;
        },
        60_000,
      );
      expect(after.get('PRES-0')).toMatchObject({ online: 0, online_by: null });
      expect(after.get('PRES-0')!.online_at).toBeGreaterThanOrEqual(before.get('PRES-0')!.online_at);
      // Written by B whether its connection reached the database before or after the sweep.
      const reconnected = await waitFor('PRES-1 online through B', async () => {
        const row = (await rows()).get('PRES-1')!;
        return row.online_by === ownerB && row;
      });
      expect(reconnected.online).toBe(1);
      expect(after.get('PRES-2')).toMatchObject({ online: 1, online_by: ownerB });
      expect(await onlineCount(operator)).toBe(2);
      // A few beats later nothing has changed back.
      await new Promise((resolve) => setTimeout(resolve, 4 * BEAT_MS));
      const settled = await rows();
      expect([...settled.values()].map((r) => [r.device_key, r.online])).toEqual([
        ['PRES-0', 0],
        ['PRES-1', 1],
        ['PRES-2', 1],
      ]);

      // B dies too; an instance started again marks what B held offline.
      b.child.kill('SIGKILL');
      const restarted = await start();
      await waitFor(
        'every panel offline after the restart',
        async () => [...(await rows()).values()].every((row) => row.online === 0 && row.online_by === null),
        60_000,
      );
      expect(await onlineCount(await signIn(restarted.url))).toBe(0);
    },
  );
});
