import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AlertsTable } from '../../db/schema-alerts.js';
import { chunked } from './candidates.js';

export type AlertRow = Selectable<AlertsTable>;

/** An alert's last-seen time is written at most this often while its condition holds. */
const TOUCH_EVERY_MS = 60_000;

/**
 * The alerts' lifecycle in the database: raised once per rule and subject (a unique index over
 * the open ones, insert-or-ignore), cleared, acknowledged; the pending starts of conditions.
 */
export class AlertLifecycleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The rule's open alerts by subject. */
  async open(ruleId: number): Promise<Map<string, { id: number; since: number }>> {
    const rows = await this.db
      .selectFrom('alerts')
      .select(['id', 'subject_key', 'since_at'])
      .where('rule_id', '=', ruleId)
      .where('cleared_at', 'is', null)
      .execute();
    return new Map(rows.map((r) => [r.subject_key, { id: r.id, since: Number(r.since_at) }]));
  }

  /** The latest start any alert of the rule was raised for, by subject (open or cleared). */
  async latestSince(ruleId: number, keys: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const part of chunked(keys)) {
      const rows = await this.db
        .selectFrom('alerts')
        .select(['subject_key', (eb) => eb.fn.max('since_at').as('since')])
        .where('rule_id', '=', ruleId)
        .where('subject_key', 'in', part)
        .groupBy('subject_key')
        .execute();
      for (const r of rows) out.set(r.subject_key, Number(r.since));
    }
    return out;
  }

  /** Inserts alerts; one already open for a rule and subject is left as it is. Returns those inserted. */
  async raise(rows: Insertable<AlertsTable>[]): Promise<AlertRow[]> {
    const out: AlertRow[] = [];
    for (const part of chunked(rows, 100)) {
      const inserted = await this.db
        .insertInto('alerts')
        .values(part)
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .execute();
      out.push(...inserted);
    }
    return out;
  }

  /** Clears open alerts (by id, within the organisation); returns those this call cleared. */
  async clear(orgId: number, ids: number[], now: number, by: string | null): Promise<AlertRow[]> {
    const out: AlertRow[] = [];
    for (const part of chunked(ids)) {
      const rows = await this.db
        .updateTable('alerts')
        .set({ state: 'cleared', cleared_at: now, cleared_by: by })
        .where('org_id', '=', orgId)
        .where('id', 'in', part)
        .where('cleared_at', 'is', null)
        .returningAll()
        .execute();
      out.push(...rows);
    }
    return out;
  }

  /** Every open alert of a rule, cleared (the rule was disabled or deleted). */
  async clearRule(orgId: number, ruleId: number, now: number, by: string): Promise<AlertRow[]> {
    return this.db
      .updateTable('alerts')
      .set({ state: 'cleared', cleared_at: now, cleared_by: by })
      .where('org_id', '=', orgId)
      .where('rule_id', '=', ruleId)
      .where('cleared_at', 'is', null)
      .returningAll()
      .execute();
  }

  /** Acknowledges active alerts (by id, within the organisation and companies); returns those changed. */
  async acknowledge(
    orgId: number,
    companyIds: number[],
    ids: number[],
    now: number,
    by: string,
    note: string | null,
  ): Promise<AlertRow[]> {
    return this.db
      .updateTable('alerts')
      .set({ state: 'acknowledged', acknowledged_at: now, acknowledged_by: by, note })
      .where('org_id', '=', orgId)
      .where((eb) => eb.or([eb('company_id', 'in', companyIds), eb('company_id', '=', orgId)]))
      .where('id', 'in', ids)
      .where('state', '=', 'active')
      .returningAll()
      .execute();
  }

  /** The open alerts among `ids` within the organisation and companies. */
  async openAmong(orgId: number, companyIds: number[], ids: number[]): Promise<number[]> {
    const rows = await this.db
      .selectFrom('alerts')
      .select('id')
      .where('org_id', '=', orgId)
      .where((eb) => eb.or([eb('company_id', 'in', companyIds), eb('company_id', '=', orgId)]))
      .where('id', 'in', ids)
      .where('cleared_at', 'is', null)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Moves the last-seen time of the rule's open alerts (at most once a minute each). */
  async touch(ruleId: number, now: number): Promise<void> {
    await this.db
      .updateTable('alerts')
      .set({ last_seen_at: now })
      .where('rule_id', '=', ruleId)
      .where('cleared_at', 'is', null)
      .where('last_seen_at', '<', now - TOUCH_EVERY_MS)
      .execute();
  }

  /** The pending starts of the rule's conditions, by subject. */
  async pending(ruleId: number): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('alert_pending')
      .select(['subject_key', 'since_at'])
      .where('rule_id', '=', ruleId)
      .execute();
    return new Map(rows.map((r) => [r.subject_key, Number(r.since_at)]));
  }

  async addPending(ruleId: number, keys: string[], now: number): Promise<void> {
    for (const part of chunked(keys))
      await this.db
        .insertInto('alert_pending')
        .values(part.map((subject_key) => ({ rule_id: ruleId, subject_key, since_at: now })))
        .onConflict((oc) => oc.columns(['rule_id', 'subject_key']).doNothing())
        .execute();
  }

  async removePending(ruleId: number, keys: string[] | 'all'): Promise<void> {
    if (keys === 'all') {
      await this.db.deleteFrom('alert_pending').where('rule_id', '=', ruleId).execute();
      return;
    }
    for (const part of chunked(keys))
      await this.db
        .deleteFrom('alert_pending')
        .where('rule_id', '=', ruleId)
        .where('subject_key', 'in', part)
        .execute();
  }
}
