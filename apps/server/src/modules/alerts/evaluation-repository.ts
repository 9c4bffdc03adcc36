import { sql, type Kysely } from 'kysely';
import type { alerts as contract } from '@panelfleet/contract';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Candidate, RuleTarget } from './candidates.js';
import { AlertSubjectRepository } from './subject-repository.js';
import { labelMembers } from '../label-membership/repository.js';

const MINUTE = 60_000;
/** A failed command counts this long (unless a later one succeeds): the read stays small. */
const COMMAND_WINDOW_MS = 86_400_000;

const METRIC_SQL: Record<contract.AlertMetric, string> = {
  cpuTemperature: 'cpu_temperature',
  ramUsedPercent: 'ram_used',
  networkIntensity: 'network_intensity',
  brightness: 'brightness',
  volume: 'volume',
};

const REPORTED_AT = [
  'network_reported_at',
  'identity_reported_at',
  'position_reported_at',
  'telemetry_reported_at',
  'apk_reported_at',
  'ota_reported_at',
  'brightness_reported_at',
  'sound_reported_at',
  'source_reported_at',
  'power_reported_at',
  'clock_reported_at',
] as const;

interface DeviceRow {
  id: number;
  device_key: string;
  name: string;
  org_id: number;
}

const deviceCandidate = (
  d: DeviceRow,
  since: number | null,
  detailKey: string,
  detailVars: Record<string, string | number>,
): Candidate => ({
  subjectKey: `device:${d.id}`,
  subjectType: 'device',
  subjectName: d.name || d.device_key,
  deviceId: d.id,
  deviceKey: d.device_key,
  taskKind: null,
  companyId: d.org_id,
  since,
  detailKey,
  detailVars,
});

/**
 * The set-based reads of the evaluation: one statement per rule and round finds every subject
 * for which the rule's condition holds (the panels of its companies, narrowed to its labels).
 */
export class AlertEvaluationRepository {
  private readonly others: AlertSubjectRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {
    this.others = new AlertSubjectRepository(db);
  }

  /** The customer companies an organisation watches: all (platform), its customers (distributor), itself. */
  async companiesOf(orgIds: number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    if (!orgIds.length) return out;
    const orgs = await this.db
      .selectFrom('organisations')
      .select(['id', 'kind'])
      .where('id', 'in', orgIds)
      .execute();
    const customers = await this.db
      .selectFrom('organisations')
      .select(['id', 'parent_id'])
      .where('kind', '=', 'customer')
      .execute();
    for (const org of orgs) {
      if (org.kind === 'platform')
        out.set(
          org.id,
          customers.map((c) => c.id),
        );
      else if (org.kind === 'distributor')
        out.set(
          org.id,
          customers.filter((c) => c.parent_id === org.id).map((c) => c.id),
        );
      else if (org.kind === 'customer') out.set(org.id, [org.id]);
      else out.set(org.id, []);
    }
    return out;
  }

  /** The rule's panels: of its companies, and of its labels (listed or dynamic) when it names any. */
  private async devices(rule: RuleTarget, now: number) {
    let q = this.db
      .selectFrom('devices')
      .select(['devices.id', 'devices.device_key', 'devices.name', 'devices.org_id'])
      .where('devices.org_id', 'in', rule.companyIds);
    if (rule.labelIds.length) {
      const members = await labelMembers(this.db, rule.companyIds, rule.labelIds, now);
      q = q.where(members.anyOf('devices', rule.labelIds));
    }
    return q;
  }

  /**
   * Subjects for which the rule's condition holds now. `isOnline`: the gateway's presence;
   * `offlineSince`: when the gateway saw a panel go away.
   */
  async candidates(
    rule: RuleTarget,
    now: number,
    isOnline: (key: string) => boolean,
    offlineSince: (key: string) => number | undefined = () => undefined,
  ): Promise<Candidate[]> {
    if (!rule.companyIds.length && rule.condition.kind !== 'expiring') return [];
    const c = rule.condition;
    switch (c.kind) {
      case 'offline': {
        const rows = await (
          await this.devices(rule, now)
        )
          .select('devices.last_seen_at')
          .where('devices.last_seen_at', 'is not', null)
          .where('devices.last_seen_at', '<=', now - c.minutes * MINUTE)
          .execute();
        return rows.flatMap((r) => {
          if (isOnline(r.device_key)) return [];
          // The disconnect's last-seen write is batched: until it lands, the gateway's time of it counts.
          const seen = Math.max(Number(r.last_seen_at), offlineSince(r.device_key) ?? 0);
          if (seen > now - c.minutes * MINUTE) return [];
          return [
            deviceCandidate(r, seen + c.minutes * MINUTE, 'alert.detail.offline', { minutes: c.minutes }),
          ];
        });
      }
      case 'silent': {
        const fn = this.dialect === 'postgres' ? 'greatest' : 'max';
        const last = sql<number>`${sql.raw(fn)}(devices.enrolled_at, ${sql.join(
          REPORTED_AT.map((col) => sql`coalesce(${sql.ref(`devices.${col}`)}, 0)`),
        )})`;
        const rows = await (
          await this.devices(rule, now)
        )
          .select(last.as('reported_at'))
          .where(last, '<=', now - c.minutes * MINUTE)
          .execute();
        return rows
          .filter((r) => isOnline(r.device_key))
          .map((r) =>
            deviceCandidate(r, Number(r.reported_at) + c.minutes * MINUTE, 'alert.detail.silent', {
              minutes: c.minutes,
            }),
          );
      }
      case 'threshold': {
        const value =
          c.metric === 'ramUsedPercent'
            ? sql<number>`(100.0 * devices.ram_used / devices.ram_total)`
            : sql<number>`${sql.ref(`devices.${METRIC_SQL[c.metric]}`)}`;
        let q = (await this.devices(rule, now))
          .select(value.as('value'))
          .where(value, c.direction === 'above' ? '>' : '<', c.value);
        if (c.metric === 'ramUsedPercent') q = q.where('devices.ram_total', '>', 0);
        const rows = await q.execute();
        return rows
          .filter((r) => isOnline(r.device_key))
          .map((r) =>
            deviceCandidate(r, null, `alert.detail.${c.direction}`, {
              metric: c.metric,
              value: Math.round(Number(r.value) * 10) / 10,
              threshold: c.value,
            }),
          );
      }
      case 'abnormalLogs': {
        let logs = this.db
          .selectFrom('abnormal_logs')
          .select(['abnormal_logs.device_id', (eb) => eb.fn.countAll<number>().as('n')])
          .where('abnormal_logs.org_id', 'in', rule.companyIds)
          .where('abnormal_logs.occurred_at', '>=', now - c.minutes * MINUTE)
          .groupBy('abnormal_logs.device_id')
          .having((eb) => eb.fn.countAll(), '>', c.count);
        if (c.apps.length) logs = logs.where('abnormal_logs.app_name', 'in', c.apps);
        const rows = await (
          await this.devices(rule, now)
        )
          .innerJoin(logs.as('l'), 'l.device_id', 'devices.id')
          .select('l.n')
          .execute();
        return rows.map((r) =>
          deviceCandidate(r, null, 'alert.detail.abnormalLogs', {
            count: Number(r.n),
            minutes: c.minutes,
          }),
        );
      }
      case 'commandFailed': {
        const failed = this.db
          .selectFrom('commands')
          .select([
            'commands.device_id',
            (eb) => eb.fn.max('commands.updated_at').as('failed_at'),
            (eb) => eb.fn.countAll<number>().as('n'),
          ])
          .where('commands.org_id', 'in', rule.companyIds)
          .where('commands.status', 'in', ['failed', 'expired'])
          .where('commands.updated_at', '>=', Math.max(rule.createdAt, now - COMMAND_WINDOW_MS))
          .groupBy('commands.device_id');
        const rows = await (
          await this.devices(rule, now)
        )
          .innerJoin(failed.as('f'), 'f.device_id', 'devices.id')
          .select(['f.failed_at', 'f.n'])
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('commands as s')
                  .select('s.id')
                  .whereRef('s.device_id', '=', 'devices.id')
                  .where('s.status', '=', 'succeeded')
                  .whereRef('s.updated_at', '>', 'f.failed_at'),
              ),
            ),
          )
          .execute();
        return rows.map((r) =>
          deviceCandidate(r, Number(r.failed_at), 'alert.detail.commandFailed', { count: Number(r.n) }),
        );
      }
      case 'taskFailures':
      case 'taskPaused':
      case 'taskFinished':
        return this.others.tasks(rule, c, now);
      case 'expiring':
        return c.what === 'certificate'
          ? this.others.certificates(rule, c.days, now)
          : this.others.licences(rule, c.days, now);
    }
  }
}
