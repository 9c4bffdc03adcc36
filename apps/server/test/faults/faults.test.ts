import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../device-helpers.js';
import { ReportLedger, total, type Count } from './ledger.js';
import { Rig, type RigSize } from './rig.js';
import {
  labelCommandWithFault,
  postgresOutage,
  rolloutWithFault,
  type FaultFigures,
  type OutageFigures,
} from './steps.js';

/**
 * The fault suite (issue 23): three instances on one PostgreSQL database (behind a proxy the suite
 * controls), an own Mosquitto, s3rver, nginx with the documented config, and simulated panels that
 * report all along. Instances are killed and stopped mid label fan-out and mid staged rollout,
 * PostgreSQL is stopped and frozen, the broker restarted. Every command must reach every panel
 * once, every report be stored once, every instance answer 503 during an outage and 200 after it,
 * and a stopped instance exit; the full run also holds them to 503 within 1 s, 200 within 1 s of
 * the recovery and an exit within 5 s with code 0.
 *
 * `npm test` runs the short variant (100 panels, 5 s outages); `npm run test:faults` the full one
 * (FAULTS=full: 1,000 panels, 30 s outages), whose figures are in docs/operations.md.
 */

const full = process.env.FAULTS === 'full';
const size: RigSize & { outageMs: number; reportEveryMs: number; stepTimeoutMs: number } = full
  ? {
      panels: 1000,
      rolloutPanels: 100,
      wave: 20,
      outageMs: 30_000,
      reportEveryMs: 10_000,
      stepTimeoutMs: 180_000,
    }
  : { panels: 100, rolloutPanels: 10, wave: 5, outageMs: 5_000, reportEveryMs: 2_000, stepTimeoutMs: 60_000 };
const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);
if (!hasPostgres) {
  const why =
    'the fault suite runs on PostgreSQL only: set TEST_DATABASE_URL (a server where it may create a database)';
  if (full) throw new Error(why);
  console.warn(`SKIPPED: ${why}`);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const UNAVAILABLE_WITHIN_MS = 1000;
const BACK_WITHIN_MS = 1000;
const EXIT_WITHIN_MS = 5000;

describe.runIf(hasPostgres)(`fault suite (${full ? 'full' : 'short'}: ${size.panels} panels)`, () => {
  const rig = new Rig(size);
  let ledger: ReportLedger;
  let failed = true;
  let setupSeconds = 0;

  beforeAll(async () => {
    const t0 = Date.now();
    await rig.start();
    setupSeconds = Math.round((Date.now() - t0) / 1000);
    ledger = new ReportLedger(rig.fleet.panels, size.reportEveryMs);
    ledger.start();
  }, 300_000);

  afterAll(async () => {
    ledger?.stop();
    await rig.stop();
    if (failed) console.log(`the fault run's servers' log: ${rig.logFile}`);
    else rig.removeWork();
  }, 60_000);

  it('loses nothing, doubles nothing, answers 503 at once and recovers at once', async () => {
    const started = Date.now();
    const load = [os.loadavg()];
    const t = size.stepTimeoutMs;
    const commands: FaultFigures[] = [];
    const outages: OutageFigures[] = [];
    commands.push(await labelCommandWithFault(rig, 'A', '41', 'kill -9', t));
    commands.push(await labelCommandWithFault(rig, 'B', '42', 'SIGTERM', t));
    commands.push(await rolloutWithFault(rig, 'first', 'kill -9', t));
    commands.push(await rolloutWithFault(rig, 'second', 'SIGTERM', t));
    load.push(os.loadavg());
    outages.push(await postgresOutage(rig, 'stopped', size.outageMs));
    outages.push(await postgresOutage(rig, 'frozen', size.outageMs));
    commands.push(await labelCommandWithFault(rig, 'C', '43', 'broker restart', t));
    await rig.instances.ready();
    load.push(os.loadavg());

    // Everything the panels sent is confirmed once stored (protocol 5.9): they keep nothing then.
    ledger.stop();
    await sleep(5000);
    ledger.resendKept();
    await waitFor('every report confirmed', () => ledger.unconfirmed() === 0, t).catch(() => undefined);
    const reports = await ledger.count(rig.query);
    const figures = {
      variant: full ? 'full' : 'short',
      panels: size.panels,
      commands,
      outages,
      reports,
      unconfirmedAtEnd: ledger.unconfirmed(),
      loadAverage: load.map((l) => l.map((x) => x.toFixed(1)).join(' ')),
      cores: os.cpus().length,
      setupSeconds,
      faultSeconds: Math.round((Date.now() - started) / 1000),
    };
    report(figures);

    const counts: Count[] = [...commands.map((c) => c.count), reports.usage, reports.logs];
    expect(total(counts)).toMatchObject({ lost: 0, duplicated: 0 });
    for (const c of commands) expect(c.doneAtFault, c.fault).toBeLessThan(c.count.sent);
    // Every stopped instance exits, every instance reports the outage and comes back. How fast is a
    // budget, judged by the full run (`npm run test:faults`) and not by `npm test` on a shared machine.
    for (const c of commands.filter((c) => c.exitMs !== undefined)) {
      expect(Number.isFinite(c.exitMs), c.fault).toBe(true);
      if (full) {
        expect(c.exitCode, c.fault).toBe(0);
        expect(c.exitMs!, c.fault).toBeLessThanOrEqual(EXIT_WITHIN_MS);
      }
    }
    for (const o of outages) {
      for (const ms of [...Object.values(o.unavailableAfterMs), ...Object.values(o.backAfterMs)])
        expect(Number.isFinite(ms), o.fault).toBe(true);
      if (!full) continue;
      for (const ms of Object.values(o.unavailableAfterMs))
        expect(ms, o.fault).toBeLessThanOrEqual(UNAVAILABLE_WITHIN_MS);
      for (const ms of Object.values(o.backAfterMs)) expect(ms, o.fault).toBeLessThanOrEqual(BACK_WITHIN_MS);
    }
    failed = false;
  }, 1_800_000);
});

/** The run's figures, as a table on the console and as JSON in .tmp/ (docs/operations.md quotes a full run). */
function report(figures: {
  variant: string;
  commands: FaultFigures[];
  outages: OutageFigures[];
  reports: { usage: Count; logs: Count };
  [key: string]: unknown;
}) {
  const out = path.resolve(import.meta.dirname, '../../../../.tmp');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, `faults-${figures.variant}.json`), `${JSON.stringify(figures, null, 2)}\n`);
  const ms = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([name, v]) => `${name} ${Number.isFinite(v) ? Math.round(v) : 'never'}`)
      .join(', ');
  const lines = [
    ...figures.commands.map(
      (c) =>
        `${c.fault} (${c.victim}; ${c.doneAtFault}/${c.count.sent} done at the fault): ` +
        `${c.count.stored} done, ${c.count.lost} lost, ${c.count.duplicated} duplicated, all done ${c.settledMs} ms after` +
        (c.exitMs !== undefined ? `; exit ${Math.round(c.exitMs)} ms, code ${c.exitCode}` : '') +
        (c.rows ? `; rows ${JSON.stringify(c.rows)}` : ''),
    ),
    ...figures.outages.map(
      (o) =>
        `${o.fault} ${o.outageMs / 1000} s: 503 after (ms) ${ms(o.unavailableAfterMs)}; 200 again after (ms) ${ms(o.backAfterMs)}`,
    ),
    ...(['usage', 'logs'] as const).map((kind) => {
      const c = figures.reports[kind];
      return `${kind === 'usage' ? 'screen-time reports' : 'abnormal logs'}: ${c.sent} sent, ${c.stored} stored, ${c.lost} lost (${c.confirmedLost ?? 0} of them confirmed by a receipt), ${c.duplicated} duplicated`;
    }),
    `load average (1, 5, 15 min) start / after the instances / at the end: ${(figures.loadAverage as string[]).join(' / ')}`,
    `messages the panels still kept unconfirmed at the end: ${figures.unconfirmedAtEnd as number}`,
    `set-up ${figures.setupSeconds as number} s, faults ${figures.faultSeconds as number} s`,
  ];
  console.log(`fault suite, ${figures.variant} run:\n  ${lines.join('\n  ')}`);
}
