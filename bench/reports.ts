/**
 * `npm run bench:reports`: the app run-time report over 1,000,000 app-usage records of one
 * company, on SQLite and (with REPORTS_PG=postgres://...) on PostgreSQL, and its .xlsx export of
 * 100,000 rows, each beside a baseline measured in the same run.
 *
 * The server is the real one (apps/server/src/dev/serve.ts in its own process: sessions, the
 * contract's validation, the report service, its SQL, the JSON reply or the streamed workbook);
 * requests are sequential over HTTP on 127.0.0.1 and timed by the client. Records are inserted
 * with SQL: DEVICES panels (1,000) x 5 apps x DAYS (30) days, 1,000,000 records spread evenly,
 * so every device, app and day has some (150,000 groups by day).
 *
 * Measured per engine:
 * - a page (50 rows) of the report by day over the 30 days (150,000 groups), first page and
 *   random pages, REQUESTS each (p50, p99), beside the raw aggregate: the same records summed per
 *   day, device and app by one plain GROUP BY on the same database (no periods, clipping, names,
 *   order or paging), REQUESTS times;
 * - the export of 20 days (100,000 rows) over HTTP, read to its end by the client, beside
 *   exceljs's WorkbookWriter writing the same 100,000 rows (read beforehand) to a null stream in
 *   this process, once as exceljs's documentation uses it and once with the cell styles shared
 *   per column as the export does; and the server's resident memory (VmRSS, sampled every 20 ms) before and at its
 *   peak during the export.
 *
 * Environment: USAGE (1000000), DEVICES (1000), REQUESTS (30), EXPORTS (3), REPORTS_PG,
 * PARTS (pages,export: either alone measures only that half), ENGINES (sqlite,postgres: either alone
 * runs only that engine).
 */
import fs from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { reports } from '@panelfleet/contract';
import { ownCpuSeconds } from './lib/cpu.js';
import {
  cpuSeconds,
  freshPostgres,
  fmt,
  loadAverage,
  machineDescription,
  printTable,
  runBenchmark,
  startServer,
} from './lib/harness.js';
import { Operator } from './lib/operator.js';
import { RAW_ROWS, writeDirectly } from './lib/excel-peer.js';

const USAGE = Number(process.env.USAGE ?? 1_000_000);
const DEVICES = Number(process.env.DEVICES ?? 1000);
const REQUESTS = Number(process.env.REQUESTS ?? 30);
const EXPORTS = Number(process.env.EXPORTS ?? 3);
const DAYS = 30;
const EXPORT_DAYS = 20;
const APPS = [
  ['com.panel.whiteboard', 'Whiteboard'],
  ['com.android.chrome', 'Chrome'],
  ['org.videolan.vlc', 'VLC'],
  ['us.zoom.videomeetings', 'Zoom'],
  ['cn.wps.moffice_eng', 'WPS Office'],
] as const;
const DAY = 86_400_000;
/** 2026-01-01 00:00 UTC: the reports ask in UTC. */
const EPOCH = Date.UTC(2026, 0, 1);
const day = (d: number) => new Date(EPOCH + d * DAY).toISOString().slice(0, 10);

interface Stats {
  p50: number;
  p99: number;
}
function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99) };
}
async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}
async function sample(count: number, fn: (i: number) => Promise<unknown> | unknown): Promise<Stats> {
  await fn(0); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await time(() => fn(i)));
  return stats(samples);
}

/** Record i: device i mod DEVICES, app, day, and a start within the school day; 1 to 30 minutes. */
function record(i: number) {
  const device = i % DEVICES;
  const app = Math.floor(i / DEVICES) % APPS.length;
  const d = Math.floor(i / (DEVICES * APPS.length)) % DAYS;
  const h = (i * 2654435761) >>> 0;
  const startedAt = EPOCH + d * DAY + 8 * 3_600_000 + (h % (9 * 3_600_000));
  return { device, app, startedAt, durationMs: 60_000 + (h % (29 * 60_000)) };
}

interface Raw {
  aggregate(from: number, to: number): Promise<number>;
  rows(from: number, to: number): Promise<unknown[][]>;
  close(): Promise<void>;
}

const RAW_AGGREGATE = `SELECT CAST((u.started_at - $1) / 86400000 AS INTEGER) AS d, u.device_id, u.package_name, sum(u.duration_ms) AS total
  FROM app_usage u WHERE u.org_id = $3 AND u.started_at >= $1 AND u.started_at < $2
  GROUP BY 1, 2, 3`;

function sqliteRaw(file: string, orgId: number): Raw {
  const db = new SqliteDatabase(file, { readonly: true });
  const names = ['', 'from', 'to', 'org'];
  const numbered = (text: string) => text.replace(/\$(\d)/g, (_, n: string) => `@${names[Number(n)]}`);
  const aggregate = db.prepare(numbered(RAW_AGGREGATE)).raw();
  const rows = db.prepare(numbered(RAW_ROWS)).raw();
  return {
    async aggregate(from, to) {
      return aggregate.all({ from, to, org: orgId }).length;
    },
    async rows(from, to) {
      return rows.all({ from, to, org: orgId }) as unknown[][];
    },
    async close() {
      db.close();
    },
  };
}

async function postgresRaw(url: string, orgId: number): Promise<Raw> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async aggregate(from, to) {
      return (
        (await client.query({ name: 'a', text: RAW_AGGREGATE, values: [from, to, orgId] })).rowCount ?? 0
      );
    },
    async rows(from, to) {
      return (await client.query({ name: 'r', text: RAW_ROWS, values: [from, to, orgId], rowMode: 'array' }))
        .rows;
    },
    async close() {
      await client.end();
    },
  };
}

async function seedSqlite(file: string, orgId: number) {
  const db = new SqliteDatabase(file);
  db.pragma('busy_timeout = 10000');
  const device = db.prepare(
    "INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at) VALUES (?, ?, ?, 'x', 0) RETURNING id",
  );
  const ids = db.transaction(() =>
    Array.from(
      { length: DEVICES },
      (_, i) =>
        (
          device.get(orgId, `RP-${String(i).padStart(6, '0')}`, `Room ${String(i).padStart(4, '0')}`) as {
            id: number;
          }
        ).id,
    ),
  )();
  const usage = db.prepare(
    'INSERT INTO app_usage (org_id, device_id, package_name, app_name, started_at, duration_ms) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const r = record(i);
      usage.run(orgId, ids[r.device], APPS[r.app]![0], APPS[r.app]![1], r.startedAt, r.durationMs);
    }
  });
  for (let i = 0; i < USAGE; i += 100_000) batch(i, Math.min(USAGE, i + 100_000));
  db.exec('ANALYZE');
  db.close();
}

async function seedPostgres(url: string, orgId: number) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at)
     SELECT $1, 'RP-' || lpad(i::text, 6, '0'), 'Room ' || lpad(i::text, 4, '0'), 'x', 0 FROM generate_series(0, $2 - 1) i
     ORDER BY i RETURNING id`,
    [orgId, DEVICES],
  );
  const ids = rows.map((r) => r.id);
  for (let from = 0; from < USAGE; from += 100_000) {
    const chunk = Array.from({ length: Math.min(100_000, USAGE - from) }, (_, k) => record(from + k));
    await client.query(
      `INSERT INTO app_usage (org_id, device_id, package_name, app_name, started_at, duration_ms)
       SELECT $1, d, p, a, s, m FROM unnest($2::int[], $3::text[], $4::text[], $5::bigint[], $6::bigint[]) AS t(d, p, a, s, m)`,
      [
        orgId,
        chunk.map((r) => ids[r.device]),
        chunk.map((r) => APPS[r.app]![0]),
        chunk.map((r) => APPS[r.app]![1]),
        chunk.map((r) => r.startedAt),
        chunk.map((r) => r.durationMs),
      ],
    );
  }
  await client.query('VACUUM ANALYZE app_usage');
  await client.query('VACUUM ANALYZE devices');
  await client.end();
}

const rssOf = (pid: number) => {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(/\d+/.exec(line)![0]) * 1024;
};

async function runEngine(engine: 'sqlite' | 'postgres'): Promise<Array<[string, string]>> {
  const pgUrl = engine === 'postgres' ? await freshPostgres(process.env.REPORTS_PG!, 'reports') : undefined;
  const server = await startServer(pgUrl ? { DATABASE_URL: pgUrl } : {});
  const operator = await Operator.signIn(server.url);
  const orgId = await (async () => {
    if (engine === 'sqlite') {
      const db = new SqliteDatabase(server.dbFile, { readonly: true });
      const row = db.prepare("SELECT org_id FROM users WHERE user_name = 'operator1'").get() as {
        org_id: number;
      };
      db.close();
      return row.org_id;
    }
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    const { rows } = await c.query<{ org_id: number }>(
      "SELECT org_id FROM users WHERE user_name = 'operator1'",
    );
    await c.end();
    return rows[0]!.org_id;
  })();
  console.log(`${engine}: seeding ${fmt(USAGE)} usage records of ${fmt(DEVICES)} panels…`);
  const seedMs = await time(() =>
    engine === 'sqlite' ? seedSqlite(server.dbFile, orgId) : seedPostgres(pgUrl!, orgId),
  );
  const raw = engine === 'sqlite' ? sqliteRaw(server.dbFile, orgId) : await postgresRaw(pgUrl!, orgId);

  const page = async (start: number) => {
    const reply = reports.ureportRptAppTime.reply.parse(
      await operator.request('POST', reports.ureportRptAppTime.path, {
        start: String(start),
        size: '50',
        sign: 'day',
        startTime: day(0),
        endTime: day(DAYS - 1),
        timeZone: 'UTC',
      }),
    );
    return reply;
  };
  const first = await page(1);
  const groups = DEVICES * APPS.length * DAYS;
  if (first.totalRecords !== groups)
    throw new Error(`the report has ${first.totalRecords} rows, expected ${groups}`);
  const pages = Math.ceil(groups / 50);

  const parts = (process.env.PARTS ?? 'pages,export').split(',');
  const results: Array<[string, string]> = [
    [`${engine}: seed`, `${fmt(USAGE)} records in ${fmt(seedMs / 1000, 1)} s`],
  ];
  if (parts.includes('pages')) {
    console.log(`${engine}: measuring pages…`);
    const firstPage = await sample(REQUESTS, () => page(1));
    let seed = 7;
    const randomPages = await sample(REQUESTS, () =>
      page(1 + ((seed = (seed * 48271) % 2147483647) % pages)),
    );
    const aggregate = await sample(REQUESTS, () => raw.aggregate(EPOCH, EPOCH + DAYS * DAY));
    results.push(
      [
        `${engine}: report page 1 (50 of ${fmt(groups)} rows), p50 / p99`,
        `${fmt(firstPage.p50, 1)} / ${fmt(firstPage.p99, 1)} ms`,
      ],
      [`${engine}: random pages, p50 / p99`, `${fmt(randomPages.p50, 1)} / ${fmt(randomPages.p99, 1)} ms`],
      [
        `${engine}: raw aggregate (plain GROUP BY), p50 / p99`,
        `${fmt(aggregate.p50, 1)} / ${fmt(aggregate.p99, 1)} ms`,
      ],
      [`${engine}: page p99 / raw aggregate p99`, `${fmt(randomPages.p99 / aggregate.p99, 2)}x`],
    );
  }
  if (!parts.includes('export')) {
    await raw.close();
    await server.stop();
    return results;
  }

  console.log(`${engine}: measuring exports…`);
  const rows = await raw.rows(EPOCH, EPOCH + EXPORT_DAYS * DAY);
  if (rows.length !== DEVICES * APPS.length * EXPORT_DAYS) throw new Error(`raw rows: ${rows.length}`);
  const query = new URLSearchParams({
    report: 'appTime',
    sign: 'day',
    startTime: day(0),
    endTime: day(EXPORT_DAYS - 1),
    timeZone: 'UTC',
  });
  const exportOnce = async () => {
    const before = rssOf(server.child.pid!);
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, rssOf(server.child.pid!))), 20);
    const cpu0 = cpuSeconds(server.child.pid!);
    const t0 = performance.now();
    const response = await fetch(`${server.url}${reports.EXCEL_PATH}?${query}`, {
      headers: { cookie: operator.cookieHeader() },
    });
    if (response.status !== 200)
      throw new Error(`export answered ${response.status}: ${await response.text()}`);
    let bytes = 0;
    for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
    const ms = performance.now() - t0;
    clearInterval(timer);
    // The server's CPU, its report reader threads included (the aggregates run there on SQLite).
    return { ms, bytes, growth: peak - before, cpu: cpuSeconds(server.child.pid!) - cpu0 };
  };
  const exported: Array<{ ms: number; bytes: number; growth: number; cpu: number }> = [];
  const directSharedCpu: number[] = [];
  const direct: number[] = [];
  const directShared: number[] = [];
  let directBytes = 0;
  await exportOnce(); // warm-up
  for (let i = 0; i < EXPORTS; i++) {
    exported.push(await exportOnce());
    const t0 = performance.now();
    directBytes = await writeDirectly(rows, false, EPOCH);
    direct.push(performance.now() - t0);
    const cpu1 = ownCpuSeconds();
    const t1 = performance.now();
    await writeDirectly(rows, true, EPOCH);
    directShared.push(performance.now() - t1);
    directSharedCpu.push(ownCpuSeconds() - cpu1);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const exportMs = median(exported.map((e) => e.ms));
  const directMs = median(direct);
  const directSharedMs = median(directShared);
  const growth = Math.max(...exported.map((e) => e.growth));
  await raw.close();
  await server.stop();
  const mb = (b: number) => `${fmt(b / 1048576, 1)} MiB`;
  return [
    ...results,
    [
      `${engine}: export ${fmt(rows.length)} rows over HTTP (median of ${EXPORTS})`,
      `${fmt(exportMs / 1000, 2)} s, ${mb(median(exported.map((e) => e.bytes)))}`,
    ],
    [
      `${engine}: exceljs writing the same rows directly (median)`,
      `${fmt(directMs / 1000, 2)} s, ${mb(directBytes)}`,
    ],
    [`${engine}: export speed / direct (goal ≥ 0.8x)`, `${fmt(directMs / exportMs, 2)}x`],
    [
      `${engine}: exceljs directly, cell styles shared as the export does (median)`,
      `${fmt(directSharedMs / 1000, 2)} s`,
    ],
    [`${engine}: export speed / that (goal ≥ 0.8x)`, `${fmt(directSharedMs / exportMs, 2)}x`],
    [
      `${engine}: CPU of an export: server (reading and writing) / exceljs with shared styles (writing the rows read beforehand)`,
      `${fmt(median(exported.map((e) => e.cpu)), 2)} s / ${fmt(median(directSharedCpu), 2)} s (${fmt(median(exported.map((e) => e.cpu)) / median(directSharedCpu), 2)}x)`,
    ],
    [`${engine}: server RSS growth during an export (goal ≤ 64 MiB)`, mb(growth)],
  ];
}

runBenchmark('reports', 3_600_000, async () => {
  console.log(machineDescription());
  const engines = (process.env.ENGINES ?? 'sqlite,postgres').split(',');
  const results: Array<[string, string]> = [];
  if (engines.includes('sqlite')) results.push(...(await runEngine('sqlite')));
  if (!engines.includes('postgres')) console.log('ENGINES leaves PostgreSQL out');
  else if (process.env.REPORTS_PG) results.push(...(await runEngine('postgres')));
  else console.log('REPORTS_PG unset: PostgreSQL skipped');
  printTable('reports', results);
  console.log(`load average at the end: ${loadAverage()}`);
});
