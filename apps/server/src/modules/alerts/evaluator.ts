import type { Insertable } from 'kysely';
import type { Clock } from '../../clock.js';
import type { AlertsTable } from '../../db/schema-alerts.js';
import type { AlertChanges } from './changes.js';
import type { Candidate } from './candidates.js';
import type { AlertEvaluationRepository } from './evaluation-repository.js';
import type { AlertLifecycleRepository, AlertRow } from './lifecycle-repository.js';
import type { AlertRepository, RuleRow } from './repository.js';
import { ruleParts } from './views.js';

/** Kinds whose conditions have no stored start: it is kept in alert_pending while they hold. */
const PENDING_KINDS = new Set(['threshold', 'abnormalLogs', 'taskFailures']);

/**
 * One evaluation round (on the one instance holding the job's lease): for each enabled rule, one
 * set-based read finds the subjects for which its condition holds; those it held for long enough
 * (durationSeconds after it began) are raised unless an alert for the same start exists (one open
 * alert per rule and subject, raised once even when instances race: insert-or-ignore on a unique
 * index); open alerts whose condition ended are cleared. Cleared by hand, an alert is not raised
 * again for the same start of its condition.
 */
export class AlertEvaluator {
  constructor(
    private readonly deps: {
      rules: AlertRepository;
      evaluation: AlertEvaluationRepository;
      lifecycle: AlertLifecycleRepository;
      changes: AlertChanges;
      clock: Clock;
      isOnline: (deviceKey: string) => boolean;
      offlineSince?: (deviceKey: string) => number | undefined;
    },
  ) {}

  /**
   * A round is the alerts' batch window: what every rule raised and cleared in it is announced
   * together once the rules are done (or one failed), so a storm is one webhook delivery.
   */
  async round(): Promise<{ raised: number; cleared: number }> {
    const { rules, evaluation, changes, clock } = this.deps;
    const now = clock.now();
    const enabled = await rules.enabledRules();
    const companies = await evaluation.companiesOf([...new Set(enabled.map((r) => r.org_id))]);
    const raised: AlertRow[] = [];
    const cleared: AlertRow[] = [];
    try {
      for (const rule of enabled) {
        const result = await this.evaluate(rule, companies.get(rule.org_id) ?? [], now);
        cleared.push(...result.cleared);
        raised.push(...result.raised);
      }
    } finally {
      const byId = new Map(enabled.map((r) => [r.id, r]));
      await changes.changed('cleared', cleared, byId);
      await changes.changed('raised', raised, byId);
    }
    return { raised: raised.length, cleared: cleared.length };
  }

  private async evaluate(rule: RuleRow, companyIds: number[], now: number) {
    const { evaluation, lifecycle, isOnline, offlineSince } = this.deps;
    const { condition, labelIds } = ruleParts(rule);
    const candidates = await evaluation.candidates(
      {
        id: rule.id,
        orgId: rule.org_id,
        createdAt: Number(rule.created_at),
        condition,
        companyIds,
        labelIds,
      },
      now,
      isOnline,
      offlineSince,
    );
    const byKey = new Map(candidates.map((c) => [c.subjectKey, c]));
    if (PENDING_KINDS.has(condition.kind)) await this.pendingStarts(rule.id, candidates, byKey, now);

    const open = await lifecycle.open(rule.id);
    // Sorted: instances that race write the same rows in the same order (no deadlock).
    const ended = [...open]
      .filter(([key]) => !byKey.has(key))
      .map(([, a]) => a.id)
      .sort((a, b) => a - b);
    const clearedRows = await lifecycle.clear(rule.org_id, ended, now, null);

    candidates.sort((a, b) => (a.subjectKey < b.subjectKey ? -1 : a.subjectKey > b.subjectKey ? 1 : 0));
    let due = candidates.filter(
      (c) => !open.has(c.subjectKey) && c.since! + rule.duration_seconds * 1000 <= now,
    );
    if (due.length) {
      const latest = await lifecycle.latestSince(
        rule.id,
        due.map((c) => c.subjectKey),
      );
      due = due.filter((c) => (latest.get(c.subjectKey) ?? -Infinity) < c.since!);
    }
    const raisedRows = await lifecycle.raise(due.map((c) => alertRow(rule, c, now)));
    if (open.size) await lifecycle.touch(rule.id, now);

    return { raised: raisedRows, cleared: clearedRows };
  }

  /** Keeps when each condition without a stored start began (and forgets those that ended). */
  private async pendingStarts(
    ruleId: number,
    candidates: Candidate[],
    byKey: Map<string, Candidate>,
    now: number,
  ) {
    const { lifecycle } = this.deps;
    const pending = await lifecycle.pending(ruleId);
    const stale = [...pending.keys()].filter((key) => !byKey.has(key));
    if (stale.length) await lifecycle.removePending(ruleId, stale);
    const fresh = candidates.filter((c) => !pending.has(c.subjectKey)).map((c) => c.subjectKey);
    if (fresh.length) {
      await lifecycle.addPending(ruleId, fresh, now);
      // Another instance may have written some first: its start counts.
      for (const [key, since] of await lifecycle.pending(ruleId)) pending.set(key, since);
    }
    for (const c of candidates) c.since = pending.get(c.subjectKey) ?? now;
  }
}

function alertRow(rule: RuleRow, c: Candidate, now: number): Insertable<AlertsTable> {
  return {
    org_id: rule.org_id,
    rule_id: rule.id,
    rule_name: rule.name,
    kind: rule.kind,
    severity: rule.severity,
    state: 'active',
    subject_key: c.subjectKey,
    subject_type: c.subjectType,
    subject_name: c.subjectName.slice(0, 255),
    device_id: c.deviceId,
    device_key: c.deviceKey,
    task_kind: c.taskKind,
    company_id: c.companyId,
    detail_key: c.detailKey,
    detail_vars: JSON.stringify(c.detailVars),
    since_at: c.since!,
    raised_at: now,
    last_seen_at: now,
  };
}

export type { AlertRow };
