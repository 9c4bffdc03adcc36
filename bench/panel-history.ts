/**
 * `npx tsx bench/panel-history.ts`: one panel's history over 30 days read by the console's call
 * (the service: tenancy check, raw and hourly rows, commands, rollouts) among PANELS (1,000)
 * panels' history of the same shape, on SQLite, and the storage a panel's history takes per day.
 *
 * Every panel reports telemetry once a minute, and every report changes it (RAM used, temperature):
 * the last 2 days are kept row by row (2,880 rows), the 28 days before per hour (672 rows), as the
 * roll-up job leaves them; plus a presence change every 6 hours and a brightness change every hour.
 * Rows are inserted with SQL. READS (200) sequential reads of the 30-day range (per hour) and of
 * the last 24 hours (every change) of one panel in the middle, p50 and p99.
 */
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app.js';
import { systemClock } from '../apps/server/src/clock.js';
import { loadConfig } from '../apps/server/src/config.js';
import { seedAccounts } from '../apps/server/src/dev/seed-accounts.js';
import { machineDescription, onCleanup, printTable, runBenchmark, tempDir } from './lib/harness.js';

const PANELS = Number(process.env.PANELS ?? 1000);
const READS = Number(process.env.READS ?? 200);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

runBenchmark('bench:panel-history', 1_800_000, async () => {
  console.log(`bench:panel-history on ${machineDescription()}; ${PANELS} panels`);
  const dataDir = tempDir('pf-history-');
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_WS: 'off',
    CAPTCHA: 'off',
    PASSWORD_PEPPER: 'history-pepper-0123456789abcdef',
    ADMIN_PASSWORD: 'admin123',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp(config, { logger: false });
  onCleanup(() => app.close());
  const { customerId: orgId } = await seedAccounts(app.db, 'history-pepper-0123456789abcdef', systemClock);
  const db = app.db.kysely;
  const now = Date.now();
  const hourNow = now - (now % HOUR);
  const started = performance.now();
  for (let first = 0; first < PANELS; first += 500) {
    const values = Array.from({ length: Math.min(500, PANELS - first) }, (_, i) => ({
      org_id: orgId,
      device_key: `HIST-${String(first + i).padStart(6, '0')}`,
      name: `History ${first + i}`,
      secret_hash: 'x',
      enrolled_at: now - 31 * DAY,
    }));
    await db.insertInto('devices').values(values).execute();
  }
  const ids = (
    await db.selectFrom('devices').select('id').where('org_id', '=', orgId).orderBy('id').execute()
  ).map((r) => r.id);
  for (const id of ids) {
    await db.transaction().execute(async (trx) => {
      const raw: Array<Record<string, unknown>> = [];
      for (let m = 0; m < 2 * 24 * 60; m++) {
        const at = now - 2 * DAY + m * MINUTE;
        raw.push({ grp: 'telemetry', at, n1: 40 + (m % 50) / 10, n2: 1e9 + m * 1000, n3: 4e9, txt: null });
        if (m % 60 === 0) raw.push({ grp: 'brightness', at, n1: m % 100, n2: null, n3: null, txt: null });
        if (m % 360 === 0)
          raw.push({ grp: 'presence', at, n1: (m / 360) % 2, n2: null, n3: null, txt: 'connected' });
      }
      for (let i = 0; i < raw.length; i += 1000)
        await trx
          .insertInto('panel_history')
          .values(raw.slice(i, i + 1000).map((r) => ({ org_id: orgId, device_id: id, ...r }) as never))
          .execute();
      const hourly: Array<Record<string, unknown>> = [];
      for (let h = 0; h < 28 * 24; h++) {
        const hour = hourNow - 2 * DAY - (h + 1) * HOUR;
        const base = { org_id: orgId, device_id: id, hour, txt: null };
        hourly.push({
          ...base,
          grp: 'telemetry',
          samples: 60,
          n1: 45,
          n1_min: 40,
          n1_max: 50,
          n2: 1e9,
          n3: 4e9,
        });
        hourly.push({
          ...base,
          grp: 'brightness',
          samples: 1,
          n1: 50,
          n1_min: 50,
          n1_max: 50,
          n2: null,
          n3: null,
        });
      }
      for (let i = 0; i < hourly.length; i += 1000)
        await trx
          .insertInto('panel_history_hourly')
          .values(hourly.slice(i, i + 1000) as never)
          .execute();
    });
  }
  await sql`ANALYZE`.execute(db);
  console.log(
    `history of ${PANELS} panels inserted in ${Math.round((performance.now() - started) / 1000)} s`,
  );

  const target = ids[Math.floor(ids.length / 2)]!;
  const time = async (from: number) => {
    const spent: number[] = [];
    for (let i = 0; i < READS; i++) {
      const t = performance.now();
      await app.panelHistory.service.history(orgId, target, from, now);
      spent.push(performance.now() - t);
    }
    return spent;
  };
  await time(now - 30 * DAY); // warm-up
  const month = await time(now - 30 * DAY);
  const day = await time(now - DAY);

  const reader = new SqliteDatabase(`${dataDir}/panelfleet.db`, { readonly: true });
  onCleanup(() => void reader.close());
  const bytes = (
    reader
      .prepare(
        `SELECT sum(pgsize) AS b FROM dbstat WHERE name IN ('panel_history', 'panel_history_device_at_idx', 'panel_history_hourly', 'sqlite_autoindex_panel_history_hourly_1', 'panel_history_hourly_hour_idx')`,
      )
      .get() as { b: number }
  ).b;
  const rawBytes = (
    reader
      .prepare(
        `SELECT sum(pgsize) AS b FROM dbstat WHERE name IN ('panel_history', 'panel_history_device_at_idx')`,
      )
      .get() as { b: number }
  ).b;
  const rawPerDay = rawBytes / PANELS / 2;
  const hourlyPerDay = (bytes - rawBytes) / PANELS / 28;
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  printTable(`one panel's history among ${PANELS} panels' (SQLite), ${READS} reads each`, [
    ['30 days (per hour + last 2 days as hours), p50', ms(percentile(month, 50))],
    ['30 days, p99', ms(percentile(month, 99))],
    ['last 24 hours (every change), p50', ms(percentile(day, 50))],
    ['last 24 hours, p99', ms(percentile(day, 99))],
    ['storage per panel per day, raw window (a report a minute)', `${(rawPerDay / 1024).toFixed(1)} KiB`],
    ['storage per panel per day, hourly', `${(hourlyPerDay / 1024).toFixed(2)} KiB`],
  ]);
});
