import type { Kysely } from 'kysely';
import type { alerts as contract } from '@panelfleet/contract';
import type { Database } from '../../db/schema.js';
import type { Candidate, RuleTarget } from './candidates.js';

const DAY = 86_400_000;

/** The evaluation's reads of subjects other than panels: tasks, certificates, licences. */
export class AlertSubjectRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async tasks(
    rule: RuleTarget,
    c: Extract<contract.AlertCondition, { kind: 'taskFailures' | 'taskPaused' | 'taskFinished' }>,
    now: number,
  ): Promise<Candidate[]> {
    let q = this.db
      .selectFrom('rollout_tasks as t')
      .select(['t.id', 't.kind', 't.org_id', 't.payload_label', 't.updated_at', 't.finished_at', 't.total'])
      .where('t.org_id', 'in', rule.companyIds)
      .where('t.kind', 'in', c.taskKinds);
    if (c.kind === 'taskPaused')
      q = q.where('t.state', '=', 'paused').where('t.state_reason', 'like', '%.pause.%');
    else if (c.kind === 'taskFinished')
      q = q
        .where('t.state', '=', 'completed')
        .where('t.finished_at', '>=', Math.max(rule.createdAt, now - DAY));
    else
      q = q
        .where((eb) =>
          eb.or([
            eb('t.state', 'in', ['scheduled', 'running', 'paused']),
            eb('t.finished_at', '>=', Math.max(rule.createdAt, now - DAY)),
          ]),
        )
        .where('t.total', '>', 0);
    const rows = await q.execute();
    let failures = new Map<number, number>();
    if (c.kind === 'taskFailures' && rows.length) {
      const counted = await this.db
        .selectFrom('rollout_targets')
        .select(['task_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where(
          'task_id',
          'in',
          rows.map((r) => r.id),
        )
        .where('state', '=', 'failed')
        .groupBy('task_id')
        .execute();
      failures = new Map(counted.map((r) => [r.task_id, Number(r.n)]));
    }
    const out: Candidate[] = [];
    for (const t of rows) {
      const kind = t.kind as contract.AlertTaskKind;
      const base = {
        subjectKey: `task:${kind}:${t.id}`,
        subjectType: 'task' as const,
        subjectName: t.payload_label
          ? `${kind.toUpperCase()} #${t.id} ${t.payload_label}`
          : `${kind.toUpperCase()} #${t.id}`,
        deviceId: null,
        deviceKey: null,
        taskKind: kind,
        companyId: t.org_id,
      };
      if (c.kind === 'taskFailures') {
        const failed = failures.get(t.id) ?? 0;
        const share = (100 * failed) / t.total;
        if (failed < 1 || share <= c.percent) continue;
        out.push({
          ...base,
          since: null,
          detailKey: 'alert.detail.taskFailures',
          detailVars: { failed, total: t.total, percent: Math.round(share) },
        });
      } else if (c.kind === 'taskPaused')
        out.push({
          ...base,
          since: Number(t.updated_at),
          detailKey: 'alert.detail.taskPaused',
          detailVars: {},
        });
      else
        out.push({
          ...base,
          since: Number(t.finished_at),
          detailKey: 'alert.detail.taskFinished',
          detailVars: {},
        });
    }
    return out;
  }

  async certificates(rule: RuleTarget, days: number, now: number): Promise<Candidate[]> {
    const owners = [rule.orgId, ...rule.companyIds];
    const rows = await this.db
      .selectFrom('certificates')
      .select(['org_id', 'name', 'sha256', 'valid_to'])
      .where((eb) =>
        eb.or([
          eb('org_id', 'in', owners),
          eb(
            'org_id',
            'in',
            eb
              .selectFrom('organisations')
              .select('parent_id')
              .where('id', 'in', rule.companyIds.length ? rule.companyIds : [0])
              .where('parent_id', 'is not', null),
          ),
        ]),
      )
      .where('valid_to', '<=', now + days * DAY)
      .execute();
    return rows.map((r) => ({
      subjectKey: `certificate:${r.org_id}:${r.sha256}`,
      subjectType: 'certificate' as const,
      subjectName: r.name,
      deviceId: null,
      deviceKey: null,
      taskKind: null,
      // A distributor's certificate that the rule's companies' panels hold: the rule's own alert.
      companyId: rule.companyIds.includes(r.org_id) ? r.org_id : rule.orgId,
      since: Number(r.valid_to) - days * DAY,
      detailKey: 'alert.detail.expiring',
      detailVars: { days: Math.max(0, Math.ceil((Number(r.valid_to) - now) / DAY)) },
    }));
  }

  async licences(rule: RuleTarget, days: number, now: number): Promise<Candidate[]> {
    if (!rule.companyIds.length) return [];
    const rows = await this.db
      .selectFrom('licenses')
      .select(['id', 'license_key', 'company_name', 'used_by_org_id', 'valid_end'])
      .where('used_by_org_id', 'in', rule.companyIds)
      .where('valid_end', '<=', now + days * DAY)
      .execute();
    return rows.map((r) => ({
      subjectKey: `licence:${r.id}`,
      subjectType: 'licence' as const,
      subjectName: `${r.company_name} ${r.license_key}`.trim(),
      deviceId: null,
      deviceKey: null,
      taskKind: null,
      companyId: Number(r.used_by_org_id),
      since: Number(r.valid_end) - days * DAY,
      detailKey: 'alert.detail.expiring',
      detailVars: { days: Math.max(0, Math.ceil((Number(r.valid_end) - now) / DAY)) },
    }));
  }
}
