/**
 * `npm run bench:dashboard`: the dashboard call (GET /platform/dashboard/previewCustomerDevice) at
 * 1,000,000 devices of one company, on SQLite and (with DASHBOARD_PG=postgres://...) on
 * PostgreSQL, beside the same figures computed by plain SQL over the devices table in the same run
 * on the same database (what a dashboard without maintained aggregates would run).
 *
 * The server is the real one (apps/server/src/dev/serve.ts in its own process); requests are
 * sequential over HTTP on 127.0.0.1, timed by the client. Devices are inserted with SQL, so the
 * triggers of migrations 005 and 017 run: 12 firmware versions, 3 machine types, 10 places (six
 * provinces, four countries, some unlocated), last seen spread over 60 days (some never).
 *
 * Measured per engine: REQUESTS calls as the company's administrator (type 4) and as the platform
 * admin (type 0: every company, the host's gauges), p50 / p99 / max; the raw SQL baseline
 * (counts per version, type, country, province, located, offline days) p50 / p99 / max.
 *
 * Environment: DEVICES (1000000), REQUESTS (300), DASHBOARD_PG.
 */
import { execSync } from 'node:child_process';
import SqliteDatabase from 'better-sqlite3';
import { dashboard } from '@panelfleet/contract';
import {
  freshPostgres,
  fmt,
  loadAverage,
  machineDescription,
  printTable,
  runBenchmark,
  startServer,
} from './lib/harness.js';
import { Operator } from './lib/operator.js';

const DEVICES = Number(process.env.DEVICES ?? 1_000_000);
const REQUESTS = Number(process.env.REQUESTS ?? 300);
const DAY = 86_400_000;
const PLACES: Array<[string, string, string, number | null, number | null]> = [
  ['gps', 'China', '上海', 31.2, 121.5],
  ['gps', 'China', '北京', 39.9, 116.4],
  ['gps', 'China', '广东', 23.1, 113.3],
  ['ip', 'China', '浙江', 30.3, 120.2],
  ['gps', 'China', '四川', 30.6, 104.1],
  ['ip', 'China', '湖北', 30.6, 114.3],
  ['gps', 'United States', '', 37.4, -122.1],
  ['ip', 'United Kingdom', '', 51.5, -0.1],
  ['gps', 'Germany', '', 52.5, 13.4],
  ['', '', '', null, null],
];

interface Stats {
  p50: number;
  p99: number;
  max: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1)! };
}
const ms = (s: Stats) => `${fmt(s.p50, 2)} / ${fmt(s.p99, 2)} / ${fmt(s.max, 2)}`;

async function sample(count: number, fn: () => Promise<unknown> | unknown): Promise<Stats> {
  for (let i = 0; i < Math.min(10, count); i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return stats(samples);
}

/** Column values of device i (deterministic). */
function deviceRow(i: number, now: number) {
  const place = PLACES[i % PLACES.length]!;
  const lastSeen = i % 17 === 0 ? null : now - ((i * 7919) % (60 * DAY));
  return {
    key: `DB-${String(i).padStart(7, '0')}`,
    name: `Panel ${String(i).padStart(7, '0')}`,
    ota: `1.${i % 12}.0`,
    type: ['x9_vn', 'oem', 'rs'][i % 3]!,
    source: place[0],
    country: place[1],
    province: place[2],
    lat: place[3],
    lon: place[4],
    lastSeen,
    ramUsed: 1_500_000_000 + (i % 10) * 50_000_000,
  };
}

const RAW_QUERIES = (org: number, now: number) => [
  `SELECT ota_version, count(*) FROM devices WHERE org_id = ${org} GROUP BY ota_version`,
  `SELECT machine_type, count(*) FROM devices WHERE org_id = ${org} GROUP BY machine_type`,
  `SELECT geo_country, geo_province, geo_source, count(*) FROM devices WHERE org_id = ${org} GROUP BY geo_country, geo_province, geo_source`,
  `SELECT count(*), sum(CASE WHEN last_seen_at IS NULL THEN 1 ELSE 0 END),
     sum(CASE WHEN last_seen_at <= ${now - DAY} AND last_seen_at > ${now - 3 * DAY} THEN 1 ELSE 0 END),
     sum(CASE WHEN last_seen_at <= ${now - 3 * DAY} AND last_seen_at > ${now - 7 * DAY} THEN 1 ELSE 0 END),
     sum(CASE WHEN last_seen_at <= ${now - 7 * DAY} AND last_seen_at > ${now - 30 * DAY} THEN 1 ELSE 0 END),
     sum(CASE WHEN last_seen_at <= ${now - 30 * DAY} THEN 1 ELSE 0 END),
     sum(CASE WHEN last_seen_at > ${now - 900_000} THEN ram_used ELSE 0 END)
   FROM devices WHERE org_id = ${org}`,
];

async function seedSqlite(file: string, org: number, now: number) {
  const db = new SqliteDatabase(file);
  db.pragma('busy_timeout = 10000');
  const insert = db.prepare(
    `INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at, machine_type, model, ota_version,
       geo_source, geo_country, geo_province, geo_latitude, geo_longitude, latitude, longitude, last_seen_at, ram_used, ram_total)
     VALUES (?, ?, ?, 'x', 0, ?, 'PF-86', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 4294967296)`,
  );
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const d = deviceRow(i, now);
      const gps = d.source === 'gps';
      insert.run(
        org,
        d.key,
        d.name,
        d.type,
        d.ota,
        d.source,
        d.country,
        d.province,
        d.lat,
        d.lon,
        gps ? d.lat : null,
        gps ? d.lon : null,
        d.lastSeen,
        d.ramUsed,
      );
    }
  });
  for (let i = 0; i < DEVICES; i += 50_000) batch(i, Math.min(DEVICES, i + 50_000));
  db.exec('ANALYZE');
  const raw = RAW_QUERIES(org, now).map((q) => db.prepare(q));
  return {
    run: () => raw.map((statement) => statement.all()),
    close: () => db.close(),
  };
}

async function seedPostgres(url: string, org: number, now: number) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const chunk = 100_000;
  for (let from = 0; from < DEVICES; from += chunk) {
    const rows = Array.from({ length: Math.min(chunk, DEVICES - from) }, (_, k) => deviceRow(from + k, now));
    await client.query(
      `INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at, machine_type, model, ota_version,
         geo_source, geo_country, geo_province, geo_latitude, geo_longitude, last_seen_at, ram_used, ram_total)
       SELECT $1, k, n, 'x', 0, t, 'PF-86', o, s, c, p, la, lo, ls, ru, 4294967296
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                   $9::float8[], $10::float8[], $11::bigint[], $12::bigint[]) AS x(k, n, t, o, s, c, p, la, lo, ls, ru)`,
      [
        org,
        rows.map((r) => r.key),
        rows.map((r) => r.name),
        rows.map((r) => r.type),
        rows.map((r) => r.ota),
        rows.map((r) => r.source),
        rows.map((r) => r.country),
        rows.map((r) => r.province),
        rows.map((r) => r.lat),
        rows.map((r) => r.lon),
        rows.map((r) => r.lastSeen),
        rows.map((r) => r.ramUsed),
      ],
    );
  }
  await client.query('VACUUM ANALYZE devices');
  const raw = RAW_QUERIES(org, now);
  return {
    run: async () => {
      for (const q of raw) await client.query(q);
    },
    close: () => client.end(),
  };
}

async function orgOf(engine: 'sqlite' | 'postgres', dbFile: string, pgUrl: string | undefined) {
  if (engine === 'sqlite') {
    const db = new SqliteDatabase(dbFile, { readonly: true });
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
}

async function runEngine(engine: 'sqlite' | 'postgres'): Promise<Array<[string, string]>> {
  const pgUrl =
    engine === 'postgres' ? await freshPostgres(process.env.DASHBOARD_PG!, 'dashboard') : undefined;
  // The history job samples every company once here, after the seed, and not during the measurement.
  const server = await startServer({
    ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
    HISTORY_SAMPLE_MS: '3600000',
  });
  const operator = await Operator.signIn(server.url);
  const admin = await Operator.signIn(server.url, 'admin', 'admin123');
  const org = await orgOf(engine, server.dbFile, pgUrl);
  const now = Date.now();
  console.log(`${engine}: seeding ${fmt(DEVICES)} devices…`);
  const t0 = performance.now();
  const raw =
    engine === 'sqlite' ? await seedSqlite(server.dbFile, org, now) : await seedPostgres(pgUrl!, org, now);
  const seedMs = performance.now() - t0;
  // The seed left hundreds of MB for the kernel to write back: let that finish before timing reads.
  execSync('sync');
  await new Promise((r) => setTimeout(r, 5000));

  const call = async (who: Operator) =>
    dashboard.previewCustomerDevice.reply.parse(
      await who.request('GET', '/platform/dashboard/previewCustomerDevice'),
    ).dataObject;
  // The seed took minutes: the connections kept alive before it are gone; the first request may meet one.
  await call(operator).catch(() => undefined);
  await call(admin).catch(() => undefined);
  const check = await call(operator);
  if (check.deviceTotal !== DEVICES)
    throw new Error(`dashboard counted ${check.deviceTotal} devices, seeded ${DEVICES}`);
  const versions = check.otaVersionToTotal.reduce((s, v) => s + v.value, 0);
  if (versions !== DEVICES) throw new Error(`versions add up to ${versions}`);
  console.log(`${engine}: measuring…`);
  const company = await sample(REQUESTS, () => call(operator));
  const platform = await sample(REQUESTS, () => call(admin));
  const baseline = await sample(Math.max(10, Math.floor(REQUESTS / 15)), () => raw.run());
  await raw.close();
  await server.stop();
  return [
    [
      `${engine}: ${fmt(DEVICES)} devices inserted by SQL (triggers of 005 and 017 on)`,
      `${fmt(seedMs / 1000, 1)} s`,
    ],
    [`  dashboard call, ms p50 / p99 / max (${REQUESTS} sequential requests)`, ''],
    ['    as the company administrator (type 4)', ms(company)],
    ['    as the platform admin (type 0, host gauges)', ms(platform)],
    ['  raw SQL over the devices table (the same counts, no aggregates), ms p50 / p99 / max', ms(baseline)],
    ['  ratio raw SQL p50 / dashboard call p50 (company)', `${fmt(baseline.p50 / company.p50, 1)}x`],
  ];
}

runBenchmark('bench:dashboard', 3_600_000, async () => {
  const started = Date.now();
  const rows: Array<[string, string]> = [];
  rows.push(...(await runEngine('sqlite')));
  if (process.env.DASHBOARD_PG) rows.push(...(await runEngine('postgres')));
  rows.push(
    ['load average at the end (1, 5, 15 min)', loadAverage()],
    ['total run time', `${fmt((Date.now() - started) / 1000)} s`],
  );
  printTable(
    `Dashboard at ${fmt(DEVICES)} devices (${new Date().toISOString().slice(0, 10)}; ${machineDescription()})`,
    rows,
  );
});
