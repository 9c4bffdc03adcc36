import { panelHistory as contract } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { ROLLED_UP_GROUPS } from '../../gateway/history-repository.js';
import type { DeviceRepository } from '../devices/repository.js';
import { APP_HISTORY_GROUP, type AppChangeText } from '../devices/app-changes.js';
import { findOwnDevice } from '../devices/target.js';
import type { HourlyHistoryRow, PanelHistoryRepository, RawHistoryRow } from './repository.js';

/** At most this many commands, rollouts and screenshots are listed for one range. */
const LIST_LIMIT = 200;
const DAY_MS = 86_400_000;

type Point = contract.HistoryPoint;

const rawPoint = (r: RawHistoryRow): Point => ({
  at: Number(r.at),
  n1: r.n1,
  n2: r.n2,
  n3: r.n3,
  txt: r.txt,
  min: null,
  max: null,
});

const hourPoint = (r: HourlyHistoryRow): Point => ({
  at: Number(r.hour),
  n1: r.n1,
  n2: r.n2,
  n3: r.n3,
  txt: r.txt,
  min: r.n1_min,
  max: r.n1_max,
});

const isPresenceReason = (value: string | null): value is (typeof contract.PRESENCE_REASONS)[number] =>
  (contract.PRESENCE_REASONS as readonly (string | null)[]).includes(value);

/** Consecutive equal values collapse into the first (several instances may record one change). */
function changes(rows: RawHistoryRow[]) {
  const out: Array<{ at: number; value: string }> = [];
  for (const r of rows) {
    const value = r.txt ?? '';
    if (out.at(-1)?.value !== value) out.push({ at: Number(r.at), value });
  }
  return out;
}

export interface PanelHistoryConfig {
  rawDays: number;
  days: number;
}

/** A panel's history as the device detail shows it. */
export class PanelHistoryService {
  constructor(
    private readonly records: PanelHistoryRepository,
    private readonly devices: Pick<DeviceRepository, 'findById'>,
    private readonly clock: Clock,
    private readonly config: PanelHistoryConfig,
  ) {}

  async history(orgId: number, deviceId: number, from: number, to: number): Promise<contract.PanelHistory> {
    await findOwnDevice(this.devices, orgId, deviceId);
    // Row by row while the range is short and its rows are still kept so; else per hour.
    const rawSince = this.clock.now() - this.config.rawDays * DAY_MS;
    const resolution = to - from <= contract.PANEL_HISTORY_RAW_RANGE_MS && from >= rawSince ? 'raw' : 'hour';
    const textGroups = ['presence', 'identity', 'source', 'power', APP_HISTORY_GROUP];
    const numeric = [...ROLLED_UP_GROUPS];
    const [rows, hourly, recentHours, onlineAtStart, commands, rollouts, screenshots] = await Promise.all([
      this.records.raw(
        orgId,
        deviceId,
        from,
        to,
        resolution === 'raw' ? [...textGroups, ...numeric] : textGroups,
      ),
      resolution === 'hour' ? this.records.hourly(orgId, deviceId, from, to) : Promise.resolve([]),
      // Hours not folded yet (the raw window's part of a long range), averaged per hour in SQL.
      resolution === 'hour'
        ? this.records.rawPerHour(orgId, deviceId, from, to, numeric)
        : Promise.resolve([]),
      this.records.presenceBefore(orgId, deviceId, from),
      this.records.commands(orgId, deviceId, from, to, LIST_LIMIT),
      this.records.rollouts(orgId, deviceId, from, to, LIST_LIMIT),
      this.records.screenshots(orgId, deviceId, from, to, LIST_LIMIT),
    ]);
    const series = (group: string): Point[] => {
      if (resolution === 'raw') return rows.filter((r) => r.grp === group).map(rawPoint);
      const folded = hourly.filter((r) => r.grp === group).map(hourPoint);
      const last = folded.at(-1)?.at ?? -1;
      const recent = recentHours.filter((r) => r.grp === group).map(hourPoint);
      return [...folded, ...recent.filter((p) => p.at > last)];
    };
    const of = (group: string) => rows.filter((r) => r.grp === group);
    const presence: contract.PanelHistory['presence'] = [];
    for (const r of of('presence')) {
      const online = Number(r.n1) === 1;
      if (presence.at(-1)?.online === online) continue;
      presence.push({ at: Number(r.at), online, reason: isPresenceReason(r.txt) ? r.txt : 'disconnected' });
    }
    return {
      from,
      to,
      resolution,
      onlineAtStart,
      presence,
      telemetry: series('telemetry'),
      brightness: series('brightness'),
      sound: series('sound'),
      network: series('network'),
      source: changes(of('source')),
      power: changes(of('power')),
      firmware: changes(of('identity')),
      // The changes of one list share its time: by package within it.
      apps: of(APP_HISTORY_GROUP)
        .map((r) => ({ at: Number(r.at), ...(JSON.parse(r.txt ?? 'null') as AppChangeText) }))
        .sort((a, b) => a.at - b.at || a.packageName.localeCompare(b.packageName)),
      commands: commands.map((c) => ({
        commandId: c.id,
        orderCode: c.order_code,
        status: c.status,
        createdAt: Number(c.created_at),
      })),
      rollouts: rollouts.map((r) => ({
        taskId: r.task_id,
        kind: r.kind,
        name: r.payload_label,
        status: r.state,
        createdAt: Number(r.created_at),
      })),
      screenshots: screenshots.map((s) => ({
        screenshotId: s.id,
        at: Number(s.taken_at),
        requestedBy: s.user_name,
      })),
    };
  }

  /** The job's run: fold what left the raw window, drop what left the retention. */
  async maintain(): Promise<{ folded: number; deleted: number }> {
    const now = this.clock.now();
    const folded = await this.records.rollUp(now - this.config.rawDays * DAY_MS);
    const deleted = await this.records.deleteBefore(now - this.config.days * DAY_MS);
    return { folded, deleted };
  }
}
