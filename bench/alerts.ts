/**
 * `npm run bench:alerts`: the alert evaluation of issue 26 with 10,000 panels of one company and
 * five rules (offline, silent, threshold, abnormal logs, command failed; the offline rule mails
 * one address). The server runs in this process (SQLite by default; ALERTS_PG=postgres://...
 * runs it on a throwaway PostgreSQL database) on a clock the benchmark moves, and each round is
 * run directly (`app.alerts.evaluate()`, what the leased job runs every 5 s).
 *
 * Measured: a round's wall time and this process's CPU at steady state (nothing to raise), the
 * round in which all 10,000 panels' offline alerts are raised (the panels went offline together,
 * the clock then passed the rule's minutes and duration), rounds with the 10,000 alerts open, the
 * one grouped mail of the window, and the round that clears them all. A round every 5 s: the share
 * of one core is the CPU per round / 5 s; an alert is raised at most 5 s + one round after its
 * duration.
 *
 * Environment: PANELS (10000), ROUNDS (20), ALERTS_PG.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { seedAccounts } from '../apps/server/src/dev/seed-accounts.js';
import { ownCpuSeconds } from './lib/cpu.js';
import {
  fmt,
  freshPostgres,
  loadAverage,
  machineDescription,
  onCleanup,
  printTable,
  runBenchmark,
  tempDir,
} from './lib/harness.js';

const PANELS = Number(process.env.PANELS ?? 10_000);
const ROUNDS = Number(process.env.ROUNDS ?? 20);
const PG = process.env.ALERTS_PG;
const PEPPER = 'bench-pepper-0123456789abcdef';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const EVERY_MS = 5000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

runBenchmark('bench:alerts', 900_000, async () => {
  const load = loadAverage();
  const dataDir = tempDir('pf-alerts-');
  const clock = { time: Date.now(), now: () => clock.time };
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    MQTT_PORT: '0',
    CAPTCHA: 'off',
    PASSWORD_PEPPER: PEPPER,
    ADMIN_PASSWORD: 'admin123',
    LOG_LEVEL: 'silent',
    ...(PG ? { DATABASE_URL: await freshPostgres(PG, 'alerts') } : {}),
  });
  // The periodic jobs stay out of the way: the benchmark runs each round itself.
  const app = await buildApp(config, {
    logger: false,
    clock,
    alerts: { evaluateEveryMs: HOUR, mailWindowMs: HOUR },
    rollout: { tickMs: HOUR },
  });
  onCleanup(() => app.close());
  const accounts = await seedAccounts(app.db, PEPPER, clock);
  const db = app.db.kysely;
  const org = accounts.customerId;

  console.log(`seeding ${PANELS} panels (${app.db.dialect})...`);
  for (let i = 0; i < PANELS; i += 1000)
    await db
      .insertInto('devices')
      .values(
        Array.from({ length: Math.min(1000, PANELS - i) }, (_, j) => ({
          org_id: org,
          device_key: `ALERT-${String(i + j).padStart(6, '0')}`,
          name: `Panel ${String(i + j).padStart(6, '0')}`,
          secret_hash: 'x'.repeat(64),
          enrolled_at: clock.time,
          last_seen_at: clock.time,
          telemetry_reported_at: clock.time,
          cpu_temperature: 45,
          ram_total: 4096,
          ram_used: 1024,
        })),
      )
      .execute();
  const rule = (name: string, condition: unknown, durationSeconds: number, addresses: string[] = []) => ({
    org_id: org,
    name,
    enabled: 1,
    severity: 'major',
    kind: (condition as { kind: string }).kind,
    condition: JSON.stringify(condition),
    duration_seconds: durationSeconds,
    label_ids: '[]',
    channels: JSON.stringify({
      emailUserIds: [],
      emailAddresses: addresses,
      emailMode: 'grouped',
      webhookIds: [],
    }),
    language: 'en-US',
    created_by: 'bench',
    created_at: clock.time,
    updated_at: clock.time,
  });
  await db
    .insertInto('alert_rules')
    .values([
      rule('Offline', { kind: 'offline', minutes: 5 }, 60, ['noc@example.com']),
      rule('Silent', { kind: 'silent', minutes: 10 }, 0),
      rule('Hot', { kind: 'threshold', metric: 'cpuTemperature', direction: 'above', value: 80 }, 60),
      rule('Logs', { kind: 'abnormalLogs', count: 5, minutes: 10, apps: [] }, 0),
      rule('Commands', { kind: 'commandFailed' }, 0),
    ])
    .execute();

  async function timed(rounds: number, step = () => undefined as unknown) {
    const out: Array<{ ms: number; cpuMs: number; raised: number; cleared: number }> = [];
    for (let i = 0; i < rounds; i++) {
      step();
      const cpu = ownCpuSeconds();
      const started = performance.now();
      const { raised, cleared } = await app.alerts.evaluate();
      out.push({ ms: performance.now() - started, cpuMs: (ownCpuSeconds() - cpu) * 1000, raised, cleared });
    }
    return out;
  }
  const describe = (rounds: Array<{ ms: number; cpuMs: number }>) =>
    `${fmt(median(rounds.map((r) => r.ms)), 1)} ms, ${fmt(median(rounds.map((r) => r.cpuMs)), 1)} ms CPU ` +
    `(${fmt((100 * median(rounds.map((r) => r.cpuMs))) / EVERY_MS, 2)} % of a core at a round per 5 s)`;

  // Steady state: every panel seen just now, nothing to raise.
  await timed(3, () => (clock.time += EVERY_MS));
  const steady = await timed(ROUNDS, () => {
    clock.time += EVERY_MS;
  });
  // The outage: every panel went away at once (the disconnect is its last-seen time).
  await db.updateTable('devices').set({ last_seen_at: clock.time }).execute();
  clock.time += 5 * MINUTE + 59_000;
  const [early] = await timed(1);
  clock.time += 1000;
  const [outage] = await timed(1);
  const open = await timed(ROUNDS, () => {
    clock.time += EVERY_MS;
  });
  const mailStarted = performance.now();
  const mails = await app.alerts.sendMail();
  const mailMs = performance.now() - mailStarted;
  const outbox = path.join(dataDir, 'outbox', 'index.jsonl');
  const mailed = fs.existsSync(outbox) ? fs.readFileSync(outbox, 'utf8').trim().split('\n').length : 0;
  // The panels are back.
  await db
    .updateTable('devices')
    .set({ last_seen_at: clock.time, telemetry_reported_at: clock.time })
    .execute();
  const [back] = await timed(1);

  printTable(`alert evaluation, ${PANELS} panels, 5 rules, ${app.db.dialect}`, [
    ['machine', `${machineDescription()}; load average ${load}`],
    ['steady round (nothing to raise), median', describe(steady)],
    ['round 1 s before the duration is over', `${early!.raised} raised, ${fmt(early!.ms, 1)} ms`],
    [
      'round at the duration: offline alerts raised',
      `${fmt(outage!.raised)} raised in ${fmt(outage!.ms)} ms (${fmt(outage!.cpuMs)} ms CPU)`,
    ],
    [
      'raised at most this long after the duration',
      `${fmt(EVERY_MS + outage!.ms)} ms (a 5 s period + the round)`,
    ],
    [`rounds with ${fmt(outage!.raised)} alerts open, median`, describe(open)],
    ['grouped mail of the window', `${mails} mail(s) sent in ${fmt(mailMs)} ms; ${mailed} in the outbox`],
    [
      'round clearing them all',
      `${fmt(back!.cleared)} cleared in ${fmt(back!.ms)} ms (${fmt(back!.cpuMs)} ms CPU)`,
    ],
  ]);
});
