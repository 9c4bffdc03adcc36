import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OtaRulesTable, OtaRuleZonesTable } from '../../db/schema-ota.js';
import { containsFolded } from '../../db/search.js';

export type RuleRecord = Selectable<OtaRulesTable>;
export type ZoneRecord = Selectable<OtaRuleZonesTable>;

/** Upgrade policies and their lists; every method is scoped by the owning organisation. */
export class OtaRuleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(orgId: number, offset: number, size: number, name?: string) {
    let query = this.db.selectFrom('ota_rules').where('org_id', '=', orgId);
    if (name) query = query.where(containsFolded('name', name));
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(size).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  options(orgId: number) {
    return this.db
      .selectFrom('ota_rules')
      .select(['id', 'name'])
      .where('org_id', '=', orgId)
      .orderBy('name')
      .execute();
  }

  find(orgId: number, id: number): Promise<RuleRecord | undefined> {
    return this.db
      .selectFrom('ota_rules')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The server's own read at dispatch. */
  findForDispatch(id: number): Promise<RuleRecord | undefined> {
    return this.db.selectFrom('ota_rules').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listCounts(ruleIds: number[]) {
    const count = async (table: 'ota_rule_ips' | 'ota_rule_zones' | 'ota_rule_serials') => {
      if (!ruleIds.length) return new Map<number, number>();
      const rows = await this.db
        .selectFrom(table)
        .select(['rule_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('rule_id', 'in', ruleIds)
        .groupBy('rule_id')
        .execute();
      return new Map(rows.map((r) => [r.rule_id, Number(r.n)]));
    };
    const files = ruleIds.length
      ? new Map(
          (
            await this.db
              .selectFrom('ota_files')
              .select(['rule_id', (eb) => eb.fn.countAll<number>().as('n')])
              .where('rule_id', 'in', ruleIds)
              .groupBy('rule_id')
              .execute()
          ).map((r) => [r.rule_id!, Number(r.n)]),
        )
      : new Map<number, number>();
    return {
      ips: await count('ota_rule_ips'),
      zones: await count('ota_rule_zones'),
      sns: await count('ota_rule_serials'),
      files,
    };
  }

  /** Undefined when the organisation already has a policy of that name. */
  async insert(row: Insertable<OtaRulesTable>): Promise<number | undefined> {
    const inserted = await this.db
      .insertInto('ota_rules')
      .values(row)
      .onConflict((oc) => oc.columns(['org_id', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  }

  /** False when the name is taken by another policy. */
  async update(orgId: number, id: number, set: Partial<Insertable<OtaRulesTable>>): Promise<boolean> {
    const clash = await this.db
      .selectFrom('ota_rules')
      .select('id')
      .where('org_id', '=', orgId)
      .where('name', '=', set.name!)
      .where('id', '!=', id)
      .executeTakeFirst();
    if (clash) return false;
    await this.db
      .updateTable('ota_rules')
      .set(set)
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    return true;
  }

  async delete(orgId: number, id: number) {
    await this.db.deleteFrom('ota_rules').where('org_id', '=', orgId).where('id', '=', id).execute();
  }

  // ---- zones ----
  async zonePage(ruleId: number, offset: number, size: number) {
    const q = this.db.selectFrom('ota_rule_zones').where('rule_id', '=', ruleId);
    const [rows, total] = await Promise.all([
      q.selectAll().orderBy('utc_offset').limit(size).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  zones(ruleId: number) {
    return this.db.selectFrom('ota_rule_zones').selectAll().where('rule_id', '=', ruleId).execute();
  }

  findZone(orgId: number, id: number) {
    return this.db
      .selectFrom('ota_rule_zones')
      .innerJoin('ota_rules', 'ota_rules.id', 'ota_rule_zones.rule_id')
      .selectAll('ota_rule_zones')
      .where('ota_rules.org_id', '=', orgId)
      .where('ota_rule_zones.id', '=', id)
      .executeTakeFirst();
  }

  async insertZone(row: Insertable<OtaRuleZonesTable>): Promise<number | undefined> {
    const inserted = await this.db
      .insertInto('ota_rule_zones')
      .values(row)
      .onConflict((oc) => oc.columns(['rule_id', 'time_zone']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  }

  async updateZone(id: number, set: Partial<Insertable<OtaRuleZonesTable>>): Promise<boolean> {
    const clash = await this.db
      .selectFrom('ota_rule_zones')
      .select('id')
      .where('rule_id', '=', set.rule_id!)
      .where('time_zone', '=', set.time_zone!)
      .where('id', '!=', id)
      .executeTakeFirst();
    if (clash) return false;
    await this.db.updateTable('ota_rule_zones').set(set).where('id', '=', id).execute();
    return true;
  }

  async deleteZone(id: number) {
    await this.db.deleteFrom('ota_rule_zones').where('id', '=', id).execute();
  }

  // ---- ips ----
  async ipPage(ruleId: number, offset: number, size: number) {
    const q = this.db.selectFrom('ota_rule_ips').where('rule_id', '=', ruleId);
    const [rows, total] = await Promise.all([
      q.selectAll().orderBy('id').limit(size).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  ips(ruleId: number) {
    return this.db.selectFrom('ota_rule_ips').select('ip').where('rule_id', '=', ruleId).execute();
  }

  async insertIp(ruleId: number, ip: string): Promise<number | undefined> {
    const inserted = await this.db
      .insertInto('ota_rule_ips')
      .values({ rule_id: ruleId, ip })
      .onConflict((oc) => oc.columns(['rule_id', 'ip']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  }

  findIp(orgId: number, id: number) {
    return this.db
      .selectFrom('ota_rule_ips')
      .innerJoin('ota_rules', 'ota_rules.id', 'ota_rule_ips.rule_id')
      .select(['ota_rule_ips.id', 'ota_rule_ips.rule_id', 'ota_rule_ips.ip'])
      .where('ota_rules.org_id', '=', orgId)
      .where('ota_rule_ips.id', '=', id)
      .executeTakeFirst();
  }

  async deleteIp(id: number) {
    await this.db.deleteFrom('ota_rule_ips').where('id', '=', id).execute();
  }

  // ---- serials ----
  async snPage(ruleId: number, offset: number, size: number, prefix?: string) {
    let q = this.db.selectFrom('ota_rule_serials').where('rule_id', '=', ruleId);
    if (prefix) q = q.where('device_key', '>=', prefix).where('device_key', '<', `${prefix}\u{10FFFF}`);
    const [rows, total] = await Promise.all([
      q.selectAll().orderBy('device_key').limit(size).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** Adds serial numbers once each; how many were new and how many the list holds. */
  async insertSerials(ruleId: number, keys: string[]) {
    return this.db.transaction().execute(async (trx) => {
      let added = 0;
      for (let i = 0; i < keys.length; i += 500) {
        const result = await trx
          .insertInto('ota_rule_serials')
          .values(keys.slice(i, i + 500).map((k) => ({ rule_id: ruleId, device_key: k })))
          .onConflict((oc) => oc.columns(['rule_id', 'device_key']).doNothing())
          .executeTakeFirst();
        added += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
      const total = await trx
        .selectFrom('ota_rule_serials')
        .select(sql<number>`count(*)`.as('n'))
        .where('rule_id', '=', ruleId)
        .executeTakeFirstOrThrow();
      return { added, total: Number(total.n) };
    });
  }

  /** Which of the keys the policy lists. */
  async listedSerials(ruleId: number, keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await this.db
      .selectFrom('ota_rule_serials')
      .select('device_key')
      .where('rule_id', '=', ruleId)
      .where('device_key', 'in', keys)
      .execute();
    return new Set(rows.map((r) => r.device_key));
  }

  findSerial(orgId: number, id: number) {
    return this.db
      .selectFrom('ota_rule_serials')
      .innerJoin('ota_rules', 'ota_rules.id', 'ota_rule_serials.rule_id')
      .select(['ota_rule_serials.id', 'ota_rule_serials.rule_id', 'ota_rule_serials.device_key'])
      .where('ota_rules.org_id', '=', orgId)
      .where('ota_rule_serials.id', '=', id)
      .executeTakeFirst();
  }

  async deleteSerial(id: number) {
    await this.db.deleteFrom('ota_rule_serials').where('id', '=', id).execute();
  }

  async clearSerials(ruleId: number) {
    const r = await this.db.deleteFrom('ota_rule_serials').where('rule_id', '=', ruleId).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
