import { dashboard } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { FleetScopes } from '../fleet-scope/service.js';
import { ABSOLUTE_TIMEOUT_MS, IDLE_TIMEOUT_MS } from '../session/service.js';
import { DAY_MS, HOUR_MS, type FleetHistory } from './history.js';
import type { HostStats } from './host-stats.js';
import type { DashboardRepository } from './repository.js';

const WEEK_MS = 7 * DAY_MS;
/** The most points one history reply carries. */
export const HISTORY_MAX_POINTS = 24 * 93;

/** Monday 00:00 UTC of the week holding `t`. */
export function weekStart(t: number): number {
  const day = t - (t % DAY_MS);
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  return day - weekday * DAY_MS;
}

const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * The dashboards' figures for a caller's scope. Everything is read from what is maintained as
 * the fleet changes, so one call costs the same at ten panels and at a million: totals from the
 * device list's per-company state, online panels from the gateway's presence index, versions,
 * machine types and places from `device_facets`, users and sessions directly (they are few),
 * offline days and fleet gauges from the latest history sample.
 */
export class DashboardService {
  constructor(
    private readonly repository: DashboardRepository,
    private readonly scopes: FleetScopes,
    private readonly fleetHistory: FleetHistory,
    private readonly onlineIn: (orgId: number) => number,
    private readonly isOnline: (deviceKey: string) => boolean,
    private readonly host: HostStats,
    private readonly clock: Clock,
  ) {}

  async dashboard(user: SessionUser, customerId: number | undefined): Promise<dashboard.DashboardData> {
    const now = this.clock.now();
    const read = (orgIds: number[]) =>
      Promise.all([
        // Two statements: the small counts in one, the latest samples in the other.
        this.repository.figures(
          orgIds,
          now - IDLE_TIMEOUT_MS,
          now - ABSOLUTE_TIMEOUT_MS,
          weekStart(now) - (dashboard.DASHBOARD.upgradeWeeks - 1) * WEEK_MS,
        ),
        this.repository.latestSamples(orgIds, now - (now % HOUR_MS) - 2 * HOUR_MS),
      ]);
    // A company's own users (types 2, 3, 4) reach their company alone: its figures are read
    // beside the scope (its name) instead of after it.
    const own = customerId === undefined && user.userType !== '0' && user.userType !== '1';
    const [scope, [figures, samples]] = own
      ? await Promise.all([this.scopes.of(user), read([user.orgId])])
      : await this.scopes
          .narrowed(user, customerId)
          .then(async (s) => [s, await read(s.companies.map((c) => c.id))] as const);
    const orgIds = scope.companies.map((c) => c.id);
    const { totals, facets, upgrades } = figures;
    const userTotal = figures.users;
    const activeUserTotal = figures.onlineUsers;
    const deviceTotal = orgIds.reduce((sum, org) => sum + (totals.get(org) ?? 0), 0);
    const activeDeviceTotal = Math.min(
      deviceTotal,
      orgIds.reduce((sum, org) => sum + this.onlineIn(org), 0),
    );
    const byFacet = (facet: string) =>
      facets
        .filter((f) => f.facet === facet)
        .map((f) => ({ name: f.value, value: f.total }))
        .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
    const countries = byFacet('country');
    const sources = byFacet('source');
    const located = (how: string) => sources.find((s) => s.name === how)?.value ?? 0;
    const sample = (key: 'offline_1to3' | 'offline_3to7' | 'offline_7to30' | 'offline_gt30' | 'never_seen') =>
      samples.reduce((sum, s) => sum + Number(s[key]), 0);
    const offline = deviceTotal - activeDeviceTotal;
    const older = {
      d1to3: sample('offline_1to3'),
      d3to7: sample('offline_3to7'),
      d7to30: sample('offline_7to30'),
      gt30: sample('offline_gt30'),
      never: sample('never_seen'),
    };
    // Days are sampled; the total offline is exact now, so "under a day" is what remains of it.
    const lt1 = Math.max(0, offline - Object.values(older).reduce((a, b) => a + b, 0));
    const offlineDays = dashboard.OFFLINE_BUCKETS.map((bucket) => ({
      bucket,
      value: bucket === 'lt1' ? lt1 : older[bucket],
    }));

    return {
      scope: customerId !== undefined ? 'company' : scope.kind,
      deviceTotal,
      activeDeviceTotal,
      userTotal,
      activeUserTotal,
      mapDataCN: byFacet('province').filter((p) => p.name !== ''),
      mapDataNotCN: countries.filter((c) => c.name !== ''),
      knownIpData: located('gps') + located('ip'),
      unknownIpData: Math.max(0, deviceTotal - located('gps') - located('ip')),
      locatedByPosition: located('gps'),
      otaVersionToTotal: byFacet('ota'),
      weekUpgradeDevice: this.weeks(now, upgrades),
      kilobyte: dashboard.DASHBOARD.kilobyte,
      systemInfo:
        user.userType === '0' && customerId === undefined ? this.host.read() : this.fleetGauges(samples),
      offlineDays,
      machineTypeToTotal: byFacet('type'),
      listObject: scope.companies
        .map((c) => ({ customerId: c.id, name: c.name, value: totals.get(c.id) ?? 0 }))
        .sort((a, b) => b.value - a.value || a.customerId - b.customerId),
    };
  }

  async history(
    user: SessionUser,
    params: { customerId?: number; startTime: number; endTime: number; period: dashboard.HistoryPeriod },
  ) {
    const scope = await this.scopes.narrowed(user, params.customerId);
    const keptFrom = this.fleetHistory.keptFrom(params.period);
    if (params.startTime < keptFrom)
      throw new Refusal('dashboard.historyNotKept', 'invalid', {
        from: new Date(keptFrom).toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      });
    const step = params.period === 'hour' ? HOUR_MS : DAY_MS;
    if ((params.endTime - params.startTime) / step > HISTORY_MAX_POINTS)
      throw new Refusal('dashboard.historyTooLong', 'invalid', { max: HISTORY_MAX_POINTS });
    const rows = await this.repository.history(
      scope.companies.map((c) => c.id),
      params.period,
      params.startTime,
      params.endTime,
    );
    return {
      keptFrom,
      // Periods filled only from stored data (before sampling began) have no counts of panels and users.
      points: rows.map((r) => ({
        time: r.at,
        deviceTotal: r.sampled ? r.device_total : null,
        onlineDevices: r.sampled ? r.online_devices : null,
        userTotal: r.sampled ? r.user_total : null,
        onlineUsers: r.sampled ? r.online_users : null,
        screenOnMs: r.screen_on_ms,
        otaUpgrades: r.ota_upgrades,
      })),
    };
  }

  /** The caller's company's located panels, with their online state now. */
  async mapDevices(user: SessionUser) {
    const { rows, located } = await this.repository.mapDevices(user.orgId, dashboard.MAP_DEVICES_LIMIT);
    const totals = await this.repository.deviceTotals([user.orgId]);
    return {
      devices: rows.map((r) => ({
        deviceId: r.id,
        deviceName: r.name,
        deviceKey: r.device_key,
        latitude: r.geo_latitude ?? 0,
        longitude: r.geo_longitude ?? 0,
        source: r.geo_source === 'gps' ? ('gps' as const) : ('ip' as const),
        isOnline: this.isOnline(r.device_key) ? ('1' as const) : ('0' as const),
      })),
      located,
      unlocated: Math.max(0, (totals.get(user.orgId) ?? 0) - located),
    };
  }

  private weeks(now: number, upgrades: Array<{ at: number; total: number }>) {
    const first = weekStart(now) - (dashboard.DASHBOARD.upgradeWeeks - 1) * WEEK_MS;
    return Array.from({ length: dashboard.DASHBOARD.upgradeWeeks }, (_, i) => {
      const from = first + i * WEEK_MS;
      const total = upgrades
        .filter((u) => u.at >= from && u.at < from + WEEK_MS)
        .reduce((s, u) => s + u.total, 0);
      return { createDate: isoDate(from), total };
    });
  }

  /** The panels' own figures: memory of those seen lately, their average CPU temperature. */
  private fleetGauges(
    samples: Awaited<ReturnType<DashboardRepository['latestSamples']>>,
  ): dashboard.SystemInfo {
    const ramUsed = samples.reduce((s, r) => s + Number(r.ram_used), 0);
    const ramTotal = samples.reduce((s, r) => s + Number(r.ram_total), 0);
    const temps = samples.filter((r) => r.cpu_temperature !== null);
    const weight = temps.reduce((s, r) => s + Number(r.device_total), 0);
    const cpu = temps.length
      ? temps.reduce((s, r) => s + Number(r.cpu_temperature) * Number(r.device_total), 0) /
        Math.max(1, weight)
      : null;
    return {
      source: 'fleet',
      cpu: cpu === null ? null : Math.round(cpu * 10) / 10,
      disk: null,
      diskTotal: null,
      memory: ramTotal ? Math.round(ramUsed / 1024) : null,
      memoryTotal: ramTotal ? Math.round(ramTotal / 1024) : null,
      measuredAt: samples.length ? Math.max(...samples.map((s) => Number(s.sampled_at))) : null,
    };
  }
}
