/**
 * The guard's HTTP hot paths, each against a raw peer doing the same work in this process:
 * - download: the signed-URL firmware endpoint against the plainest Node file server, CPU per GiB
 *   (both write the bytes to the socket, so the kernel's share is alike), with curl processes as
 *   the client (neither side counts them);
 * - device list: a page of the device list (session, validation, SQL, JSON) against the same
 *   rows read by plain SQL and turned into JSON;
 * - export: the app run-time report as .xlsx against the same rows read by plain SQL and written
 *   by exceljs with shared styles.
 * Ours are requests to the server in this process (`inject`, except the download, which needs the
 * socket path); a peer's CPU is this process's around plain code.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { UrlSigner } from '../../apps/server/src/modules/downloads/signing.js';
import { generatorShare, ownCpuSeconds } from '../lib/cpu.js';
import { curlDownloads } from '../lib/curl.js';
import { RAW_ROWS_SQLITE, writeDirectly } from '../lib/excel-peer.js';
import { startBareFileServer } from './peer-servers.js';
import { GUARD_PEPPER, SETTLE_MS, type GuardServer } from './context.js';
import type { HotPath } from './measure.js';
import { sleep } from '../lib/harness.js';

const FILE_MIB = 32;
const DOWNLOADS = 16;
const CLIENTS = 4;
const LIST_REQUESTS = 300;
/**
 * The peer's page costs about a third of ours: it reads four times as many pages so that its round
 * lasts about as long as ours, and a timer or a collection of the process weighs the same in both.
 */
const PEER_PAGES = 4 * LIST_REQUESTS;
const PAGE = 20;
const USAGE_DAYS = 8;
const APPS = ['Whiteboard', 'Chrome', 'VLC', 'Zoom', 'WPS Office'];
const DAY = 86_400_000;
const EPOCH = Date.UTC(2026, 0, 1);

export interface HttpContext {
  server: GuardServer;
  download: { url: string; headers: Record<string, string>; peerUrl: string; size: number };
  exportRows: number;
}

/** A firmware file in the server's file store, a panel's signed URL to it, and the peer file server on the same file. */
export async function prepareDownload(server: GuardServer): Promise<HttpContext['download']> {
  const files = path.join(server.dataDir, 'files');
  const relative = 'firmware/guard.bin';
  fs.mkdirSync(path.join(files, 'firmware'), { recursive: true });
  const content = crypto.randomBytes(FILE_MIB * 2 ** 20);
  fs.writeFileSync(path.join(files, relative), content);
  const serial = 'GRD-DOWNLOAD';
  const enrolled = await fetch(`${server.url}/device/enroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ v: 1, serial, enrollmentSecret: await server.operator.enrollmentSecret() }),
  });
  const { dataObject } = (await enrolled.json()) as { dataObject: { password: string } };
  const token = UrlSigner.fromPepper(GUARD_PEPPER).sign({
    file: relative,
    deviceKey: serial,
    size: content.length,
    sha256: crypto.createHash('sha256').update(content).digest('hex'),
    expiresAt: Date.now() + 3_600_000,
  });
  return {
    url: `${server.url}/device/files/guard.bin?t=${token}`,
    headers: { authorization: `Basic ${Buffer.from(`${serial}:${dataObject.password}`).toString('base64')}` },
    peerUrl: await startBareFileServer(path.join(files, relative)),
    size: content.length,
  };
}

/** App usage of every device of the company: USAGE_DAYS days x 5 apps x 2 records; returns the export's row count. */
export function seedUsage(server: GuardServer): number {
  const db = new SqliteDatabase(server.dbFile);
  db.pragma('busy_timeout = 10000');
  const devices = db.prepare('SELECT id FROM devices WHERE org_id = ?').pluck().all(server.orgId) as number[];
  const insert = db.prepare(
    'INSERT INTO app_usage (org_id, device_id, package_name, app_name, started_at, duration_ms) VALUES (?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const device of devices)
      for (let day = 0; day < USAGE_DAYS; day++)
        for (const [a, app] of APPS.entries())
          for (let k = 0; k < 2; k++)
            insert.run(
              server.orgId,
              device,
              `com.guard.${a}`,
              app,
              EPOCH + day * DAY + (9 + k) * 3_600_000,
              60_000 * (a + k + 1),
            );
  })();
  db.close();
  return devices.length * USAGE_DAYS * APPS.length;
}

const gib = (bytes: number) => bytes / 2 ** 30;

export const downloadPath: HotPath<HttpContext> = {
  name: 'download',
  unit: 'GiB',
  peerName: 'plain Node file server',
  kind: 'cpu',
  budget: Number.NaN,
  async ours({ download }) {
    const round = await curlDownloads({
      url: download.url,
      headers: download.headers,
      downloads: DOWNLOADS,
      processes: CLIENTS,
      size: download.size,
    });
    await sleep(SETTLE_MS);
    return { ops: gib(round.bytes), generator: generatorShare(round.clientCpu, round.wallSeconds) };
  },
  async peer({ download }) {
    const cpu0 = ownCpuSeconds();
    const round = await curlDownloads({
      url: download.peerUrl,
      downloads: DOWNLOADS,
      processes: CLIENTS,
      size: download.size,
    });
    await sleep(SETTLE_MS);
    return {
      ops: gib(round.bytes),
      cost: ownCpuSeconds() - cpu0,
      generator: generatorShare(round.clientCpu, round.wallSeconds),
    };
  },
};

let listRound = 0;

export const deviceListPath: HotPath<HttpContext> = {
  name: 'device list',
  unit: `page of ${PAGE}`,
  peerName: 'plain SQL page + JSON',
  kind: 'cpu',
  budget: Number.NaN,
  async ours({ server }) {
    const cookie = server.operator.cookieHeader();
    for (let i = 0; i < LIST_REQUESTS; i++) {
      const reply = await server.app.http.inject({
        method: 'GET',
        url: `/platform/device/list?start=${1 + ((i + listRound) % 10)}&size=${PAGE}`,
        headers: { cookie, 'accept-language': 'en-US' },
      });
      if (reply.statusCode !== 200)
        throw new Error(`device list answered ${reply.statusCode}: ${reply.body}`);
    }
    listRound++;
    return { ops: LIST_REQUESTS };
  },
  async peer({ server }) {
    const page = server.reader.prepare(
      'SELECT * FROM devices WHERE org_id = ? ORDER BY name_key, id LIMIT ? OFFSET ?',
    );
    const total = server.reader.prepare('SELECT count(*) FROM devices WHERE org_id = ?').pluck();
    const cpu0 = ownCpuSeconds();
    let bytes = 0;
    for (let i = 0; i < PEER_PAGES; i++) {
      const rows = page.all(server.orgId, PAGE, ((i + listRound) % 10) * PAGE);
      bytes += JSON.stringify({
        hhtStatus: 'success',
        totalRecords: total.get(server.orgId),
        listObject: rows,
      }).length;
    }
    if (bytes === 0) throw new Error('the plain SQL page read nothing');
    return { ops: PEER_PAGES, cost: ownCpuSeconds() - cpu0 };
  },
};

const exportQuery = new URLSearchParams({
  report: 'appTime',
  sign: 'day',
  startTime: new Date(EPOCH).toISOString().slice(0, 10),
  endTime: new Date(EPOCH + (USAGE_DAYS - 1) * DAY).toISOString().slice(0, 10),
  timeZone: 'UTC',
});

export const exportPath: HotPath<HttpContext> = {
  name: 'report export',
  unit: '1,000 rows',
  peerName: 'plain SQL + exceljs, shared styles',
  kind: 'cpu',
  budget: Number.NaN,
  async ours({ server, exportRows }) {
    const reply = await server.app.http.inject({
      method: 'GET',
      url: `/report/excel?${exportQuery}`,
      headers: { cookie: server.operator.cookieHeader(), 'accept-language': 'en-US' },
    });
    if (reply.statusCode !== 200 || reply.rawPayload.length < 1000)
      throw new Error(`export answered ${reply.statusCode} with ${reply.rawPayload.length} bytes`);
    return { ops: exportRows / 1000 };
  },
  async peer({ server, exportRows }) {
    const cpu0 = ownCpuSeconds();
    const rows = server.reader
      .prepare(RAW_ROWS_SQLITE)
      .raw()
      .all({ from: EPOCH, to: EPOCH + USAGE_DAYS * DAY, org: server.orgId }) as unknown[][];
    if (rows.length !== exportRows)
      throw new Error(`plain SQL read ${rows.length} rows, expected ${exportRows}`);
    await writeDirectly(rows, true, EPOCH);
    return { ops: exportRows / 1000, cost: ownCpuSeconds() - cpu0 };
  },
};
