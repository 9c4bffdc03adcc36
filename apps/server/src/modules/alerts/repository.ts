import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { alerts as contract } from '@panelfleet/contract';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';
import type { AlertRulesTable } from '../../db/schema-alerts.js';
import type { AlertRow } from './lifecycle-repository.js';

export type RuleRow = Selectable<AlertRulesTable>;
export type AlertListRow = AlertRow & { company_name: string | null };

/** Whose alerts a caller reaches: its organisation's, about the companies of its fleet scope. */
export interface AlertReach {
  orgId: number;
  companyIds: number[];
}

/** Rules of an organisation, the labels and users they name, and the alerts' lists and counts. */
export class AlertRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async rulePage(orgId: number, start: number, size: number) {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('alert_rules')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('id', 'desc')
        .offset(start)
        .limit(size)
        .execute(),
      this.db
        .selectFrom('alert_rules')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  async rule(orgId: number, id: number): Promise<RuleRow | undefined> {
    return this.db
      .selectFrom('alert_rules')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Every enabled rule (the evaluation's round). */
  async enabledRules(): Promise<RuleRow[]> {
    return this.db.selectFrom('alert_rules').selectAll().where('enabled', '=', 1).orderBy('id').execute();
  }

  async rulesById(ids: number[]): Promise<RuleRow[]> {
    if (!ids.length) return [];
    return this.db.selectFrom('alert_rules').selectAll().where('id', 'in', ids).execute();
  }

  /**
   * Inserts a rule unless the organisation has `max` already. Count and insert run in one
   * transaction that first locks the organisation's row (PostgreSQL: SELECT ... FOR UPDATE;
   * SQLite: the transaction holds the only connection), so parallel saves count one after another.
   */
  async insertWithin(max: number, row: Insertable<AlertRulesTable>): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      let lock = trx.selectFrom('organisations').select('id').where('id', '=', row.org_id);
      if (this.dialect === 'postgres') lock = lock.forUpdate();
      await lock.executeTakeFirst();
      const count = await trx
        .selectFrom('alert_rules')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', row.org_id)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= max) return undefined;
      const inserted = await trx
        .insertInto('alert_rules')
        .values(row)
        .returning('id')
        .executeTakeFirstOrThrow();
      return inserted.id;
    });
  }

  async updateRule(orgId: number, id: number, changes: Updateable<AlertRulesTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('alert_rules')
      .set(changes)
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteRule(orgId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('alert_rules')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    await this.db.deleteFrom('alert_pending').where('rule_id', '=', id).execute();
    return Number(result.numDeletedRows) > 0;
  }

  /** Open alerts per rule. */
  async openCounts(ruleIds: number[]): Promise<Map<number, number>> {
    if (!ruleIds.length) return new Map();
    const rows = await this.db
      .selectFrom('alerts')
      .select(['rule_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('rule_id', 'in', ruleIds)
      .where('cleared_at', 'is', null)
      .groupBy('rule_id')
      .execute();
    return new Map(rows.map((r) => [r.rule_id, Number(r.n)]));
  }

  /** The labels among `ids` of the companies, with their names. */
  async labelsIn(companyIds: number[], ids: number[]) {
    if (!ids.length || !companyIds.length) return [];
    return this.db
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('org_id', 'in', companyIds)
      .where('id', 'in', ids)
      .execute();
  }

  async labelNames(ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('labels').select(['id', 'name']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Users of the organisation among `ids`, with their mail address and last console language. */
  async usersOf(orgId: number, ids: number[]) {
    if (!ids.length) return [];
    return this.db
      .selectFrom('users')
      .leftJoin('alert_user_languages as l', 'l.user_id', 'users.id')
      .select(['users.id', 'users.email', 'users.enabled', 'l.language'])
      .where('users.org_id', '=', orgId)
      .where('users.id', 'in', ids)
      .execute();
  }

  /** Keeps the console language a user last used (their alert mail is written in it). */
  async rememberLanguage(userId: number, language: string): Promise<void> {
    await this.db
      .insertInto('alert_user_languages')
      .values({ user_id: userId, language })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ language }))
      .execute();
  }

  private filtered(reach: AlertReach, filter: contract.AlertFilter) {
    let q = this.db
      .selectFrom('alerts')
      .where('alerts.org_id', '=', reach.orgId)
      .where((eb) =>
        eb.or([
          eb('alerts.company_id', 'in', [0, ...reach.companyIds]),
          eb('alerts.company_id', '=', reach.orgId),
        ]),
      );
    const states = filter.states?.length ? filter.states : ['active', 'acknowledged'];
    q = q.where('alerts.state', 'in', states as AlertRow['state'][]);
    if (filter.severities?.length) q = q.where('alerts.severity', 'in', filter.severities);
    if (filter.ruleIds?.length) q = q.where('alerts.rule_id', 'in', filter.ruleIds);
    if (filter.deviceId !== undefined) q = q.where('alerts.device_id', '=', filter.deviceId);
    if (filter.from !== undefined) q = q.where('alerts.raised_at', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('alerts.raised_at', '<', filter.to);
    if (filter.q) {
      const text = filter.q;
      q = q.where((eb) =>
        eb.or(
          ['alerts.subject_name', 'alerts.device_key', 'alerts.rule_name'].map((col) =>
            containsFolded(col, text),
          ),
        ),
      );
    }
    return q;
  }

  async alertPage(reach: AlertReach, filter: contract.AlertFilter, start: number, size: number) {
    const [rows, total] = await Promise.all([
      this.filtered(reach, filter)
        .leftJoin('organisations as o', 'o.id', 'alerts.company_id')
        .selectAll('alerts')
        .select('o.name as company_name')
        .orderBy('alerts.raised_at', 'desc')
        .orderBy('alerts.id', 'desc')
        .offset(start)
        .limit(size)
        .execute(),
      this.filtered(reach, filter)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as AlertListRow[], total: Number(total.n) };
  }

  /** Rows for the export, newest first, after the keyset position. */
  async alertsAfter(
    reach: AlertReach,
    filter: contract.AlertFilter,
    after: { raisedAt: number; id: number } | undefined,
    size: number,
  ): Promise<AlertListRow[]> {
    let q = this.filtered(reach, filter);
    if (after)
      q = q.where((eb) =>
        eb.or([
          eb('alerts.raised_at', '<', after.raisedAt),
          eb.and([eb('alerts.raised_at', '=', after.raisedAt), eb('alerts.id', '<', after.id)]),
        ]),
      );
    const rows = await q
      .leftJoin('organisations as o', 'o.id', 'alerts.company_id')
      .selectAll('alerts')
      .select('o.name as company_name')
      .orderBy('alerts.raised_at', 'desc')
      .orderBy('alerts.id', 'desc')
      .limit(size)
      .execute();
    return rows as AlertListRow[];
  }

  async counts(reach: AlertReach) {
    const rows = await this.filtered(reach, { q: undefined })
      .select(['alerts.state', 'alerts.severity', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['alerts.state', 'alerts.severity'])
      .execute();
    return rows.map((r) => ({ state: r.state, severity: r.severity, n: Number(r.n) }));
  }

  async alertsById(ids: number[]): Promise<AlertListRow[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .selectFrom('alerts')
      .leftJoin('organisations as o', 'o.id', 'alerts.company_id')
      .selectAll('alerts')
      .select('o.name as company_name')
      .where('alerts.id', 'in', ids)
      .execute();
    return rows as AlertListRow[];
  }

  async companyNames(ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectFrom('organisations')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
