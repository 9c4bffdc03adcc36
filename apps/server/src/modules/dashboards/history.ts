import type { Clock } from '../../clock.js';
import { ABSOLUTE_TIMEOUT_MS, IDLE_TIMEOUT_MS } from '../session/service.js';
import type { HistoryBackfill } from './backfill.js';
import { DAY_MS, HOUR_MS } from './periods.js';
import type { DashboardRepository, DeviceScan, HistoryRow } from './repository.js';

export { DAY_MS, HOUR_MS };

/** Devices read per step of the scan (SQLite's driver is synchronous: the server answers between steps). */
const SCAN_STEP = 10_000;

/**
 * Where the weekly line of OTA-upgraded panels comes from: succeeded installs per company in a
 * time range. Today the OTA commands (order OTA, status succeeded, by the time they settled);
 * the OTA rollouts can hand in their task results instead at wiring time.
 */
export interface OtaUpgradeSource {
  succeededPerCompany(from: number, to: number): Promise<Map<number, number>>;
}

export interface HistoryOptions {
  hourlyDays: number;
  days: number;
  sampleMs: number;
}

export interface HistoryLog {
  info(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

/**
 * The dashboards' history: every `sampleMs` one pass over all companies writes the current hour's
 * row of each (totals, online peaks, screen time and OTA installs of the hour, offline panels by
 * days, fleet gauges); whole days older than `hourlyDays` are rolled up into one row per day, and
 * days older than `days` are deleted. The latest sample also feeds the dashboards' offline-days
 * chart and fleet gauges, so no dashboard call scans devices.
 */
export class FleetHistory {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastHour: number | undefined;
  private lastMaintenance = 0;
  private stopped = false;

  constructor(
    private readonly repository: DashboardRepository,
    private readonly onlineIn: (orgId: number) => number,
    private readonly upgrades: OtaUpgradeSource,
    private readonly clock: Clock,
    private readonly options: HistoryOptions,
    private readonly log: HistoryLog,
    /** Several instances on one database: whether this one samples now (a job lease). */
    private readonly runsHere: () => Promise<boolean> = () => Promise.resolve(true),
    /** Brings stored screen time and OTA installs into the history before each sample (backfill.ts). */
    private readonly backfill?: Pick<HistoryBackfill, 'run'>,
  ) {}

  start() {
    const loop = () => {
      if (this.stopped) return;
      this.running = this.runsHere()
        .then((mine) => (mine ? this.sample() : undefined))
        .catch((err: unknown) => this.log.error({ err }, 'dashboard history sample failed'))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) {
            this.timer = setTimeout(loop, this.options.sampleMs);
            this.timer.unref();
          }
        });
    };
    loop();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** The earliest time kept for a period. */
  keptFrom(period: 'hour' | 'day', now = this.clock.now()): number {
    const today = now - (now % DAY_MS);
    return period === 'hour' ? today - this.options.hourlyDays * DAY_MS : today - this.options.days * DAY_MS;
  }

  /** One pass: what the stored data add to past periods, then the current hour's row of every company. */
  async sample(): Promise<void> {
    const now = this.clock.now();
    await this.backfill?.run({
      hourlyFrom: this.keptFrom('hour', now),
      keptFrom: this.keptFrom('day', now),
      now,
    });
    const hour = now - (now % HOUR_MS);
    const [companies, totals, users, onlineUsers] = await Promise.all([
      this.repository.companiesAllCompanies(),
      this.repository.deviceTotalsAllCompanies(),
      this.repository.userCountsAllCompanies(),
      this.repository.onlineUsersAllCompanies(now - IDLE_TIMEOUT_MS, now - ABSOLUTE_TIMEOUT_MS),
    ]);
    const scans = await this.scan(now);
    const [screenOn, upgrades] = await Promise.all([
      this.repository.screenOnAllCompanies(hour, hour + HOUR_MS),
      this.upgrades.succeededPerCompany(hour, hour + HOUR_MS),
    ]);
    const rows: HistoryRow[] = companies.map((org) => {
      const scan = scans.get(org);
      const online = this.onlineIn(org);
      return {
        org_id: org,
        period: 'hour',
        at: hour,
        device_total: totals.get(org) ?? 0,
        online_devices: online,
        user_total: users.get(org) ?? 0,
        online_users: onlineUsers.get(org) ?? 0,
        screen_on_ms: screenOn.get(org) ?? 0,
        ota_upgrades: upgrades.get(org) ?? 0,
        // Online panels were seen within minutes: the rest of "seen today" is offline.
        offline_lt1: Math.max(0, (scan?.seen_lt1 ?? 0) - online),
        offline_1to3: scan?.seen_1to3 ?? 0,
        offline_3to7: scan?.seen_3to7 ?? 0,
        offline_7to30: scan?.seen_7to30 ?? 0,
        offline_gt30: scan?.seen_gt30 ?? 0,
        never_seen: scan?.never_seen ?? 0,
        ram_used: scan?.ram_used ?? 0,
        ram_total: scan?.ram_total ?? 0,
        cpu_temperature: scan && scan.cpu_count > 0 ? scan.cpu_sum / scan.cpu_count : null,
        sampled_at: now,
      };
    });
    await this.repository.upsertHourlyAllCompanies(rows);
    // The hour before ended after its last sample: complete its usage and installs.
    if (this.lastHour !== undefined && this.lastHour < hour) {
      const [screen, done] = await Promise.all([
        this.repository.screenOnAllCompanies(this.lastHour, this.lastHour + HOUR_MS),
        this.upgrades.succeededPerCompany(this.lastHour, this.lastHour + HOUR_MS),
      ]);
      await this.repository.setHourTotalsAllCompanies(this.lastHour, screen, done);
    }
    this.lastHour = hour;
    if (now - this.lastMaintenance >= HOUR_MS) {
      this.lastMaintenance = now;
      await this.maintain(now);
    }
  }

  /** Rolls up and purges what is older than the configured periods. */
  async maintain(now = this.clock.now()) {
    const rolled = await this.repository.rollUpAllCompanies(this.keptFrom('hour', now));
    await this.repository.purgeAllCompanies('day', this.keptFrom('day', now));
    if (rolled) this.log.info({ rows: rolled }, 'dashboard history rolled up into days');
  }

  private async scan(now: number): Promise<Map<number, DeviceScan>> {
    const out = new Map<number, DeviceScan>();
    const maxId = await this.repository.maxDeviceIdAllCompanies();
    for (let from = 0; from < maxId; from += SCAN_STEP) {
      for (const part of await this.repository.scanAllCompanies(from, from + SCAN_STEP, now)) {
        const seen = out.get(part.org_id);
        if (!seen) out.set(part.org_id, part);
        else
          for (const key of Object.keys(part) as Array<keyof DeviceScan>)
            if (key !== 'org_id') seen[key] += part[key];
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    return out;
  }
}
