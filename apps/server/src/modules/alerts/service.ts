import { oplog, type alerts as contract } from '@panelfleet/contract';
import type { OperationLog } from '../operation-log/repository.js';
import type { Clock } from '../../clock.js';
import type { SessionUser } from '../../http/router.js';
import type { FleetScopes } from '../fleet-scope/service.js';
import type { AlertChanges } from './changes.js';
import type { AlertLifecycleRepository } from './lifecycle-repository.js';
import { reachOf } from './policy.js';
import type { AlertListRow, AlertReach, AlertRepository } from './repository.js';
import { alertView } from './views.js';

/** Rows the export holds at most. */
export const EXPORT_MAX_ROWS = 100_000;
const EXPORT_CHUNK = 1000;

/** The alerts of a caller's reach: listed, counted, acknowledged, cleared by hand, exported. */
export class AlertService {
  constructor(
    private readonly deps: {
      repository: AlertRepository;
      lifecycle: AlertLifecycleRepository;
      changes: AlertChanges;
      scopes: FleetScopes;
      clock: Clock;
      log: OperationLog;
    },
  ) {}

  reach(user: SessionUser): Promise<AlertReach> {
    return reachOf(this.deps.scopes, user);
  }

  async page(user: SessionUser, filter: contract.AlertFilter, start: number, size: number) {
    const { rows, total } = await this.deps.repository.alertPage(await this.reach(user), filter, start, size);
    return { rows: rows.map((r) => alertView(r, r.company_name ?? '')), total };
  }

  async counts(user: SessionUser): Promise<{
    active: number;
    acknowledged: number;
    bySeverity: Record<contract.AlertSeverity, number>;
  }> {
    const rows = await this.deps.repository.counts(await this.reach(user));
    const bySeverity: Record<contract.AlertSeverity, number> = { critical: 0, major: 0, minor: 0, info: 0 };
    let active = 0;
    let acknowledged = 0;
    for (const r of rows) {
      if (r.state === 'active') {
        active += r.n;
        bySeverity[r.severity as contract.AlertSeverity] += r.n;
      } else if (r.state === 'acknowledged') acknowledged += r.n;
    }
    return { active, acknowledged, bySeverity };
  }

  async acknowledge(user: SessionUser, ids: number[], note: string | undefined, ip: string): Promise<number> {
    const { lifecycle, changes, clock } = this.deps;
    const reach = await this.reach(user);
    const changed = await lifecycle.acknowledge(
      reach.orgId,
      reach.companyIds,
      [...new Set(ids)],
      clock.now(),
      user.userName,
      note ? note : null,
    );
    await changes.changed('acknowledged', changed);
    if (changed.length) {
      const names = oplog.someOf(changed.map((a) => a.subject_name));
      await this.deps.log.recordBy(
        user,
        ip,
        'alert.acknowledge',
        note ? { k: 'alertsAcknowledged', v: { names, note } } : { k: 'alertsHandled', v: { names } },
      );
    }
    return changed.length;
  }

  async clear(user: SessionUser, ids: number[], ip: string): Promise<number> {
    const { lifecycle, changes, clock } = this.deps;
    const reach = await this.reach(user);
    const open = await lifecycle.openAmong(reach.orgId, reach.companyIds, [...new Set(ids)]);
    const cleared = await lifecycle.clear(reach.orgId, open, clock.now(), user.userName);
    await changes.changed('cleared', cleared);
    if (cleared.length)
      await this.deps.log.recordBy(user, ip, 'alert.clear', {
        k: 'alertsHandled',
        v: { names: oplog.someOf(cleared.map((a) => a.subject_name)) },
      });
    return cleared.length;
  }

  /** The rows of the export in chunks, newest first, at most EXPORT_MAX_ROWS. */
  async *exportRows(reach: AlertReach, filter: contract.AlertFilter): AsyncGenerator<AlertListRow[]> {
    let after: { raisedAt: number; id: number } | undefined;
    let left = EXPORT_MAX_ROWS;
    while (left > 0) {
      const rows = await this.deps.repository.alertsAfter(reach, filter, after, Math.min(EXPORT_CHUNK, left));
      if (!rows.length) return;
      yield rows;
      left -= rows.length;
      const last = rows.at(-1)!;
      after = { raisedAt: Number(last.raised_at), id: last.id };
      if (rows.length < EXPORT_CHUNK) return;
    }
  }
}
