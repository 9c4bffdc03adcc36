import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { WebhooksTable } from '../../db/schema-webhooks.js';

export type WebhookRecord = Selectable<WebhooksTable>;

export type QuotaInsert = { inserted: true; id: number } | { inserted: false };

/** Webhooks, always read and changed within one organisation (the caller's). */
export class WebhookRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async page(orgId: number, offset: number, size: number) {
    const scoped = this.db.selectFrom('webhooks').where('org_id', '=', orgId);
    const [rows, total] = await Promise.all([
      scoped.selectAll().orderBy('id').limit(size).offset(offset).execute(),
      scoped.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  find(orgId: number, id: number): Promise<WebhookRecord | undefined> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Inserts a webhook unless the organisation already has `max`. Count and insert run in one
   * transaction that first locks the organisation's row (PostgreSQL: SELECT ... FOR UPDATE;
   * SQLite: the transaction holds the only connection), so parallel saves count one after another.
   */
  async insertWithinQuota(row: Insertable<WebhooksTable>, max: number): Promise<QuotaInsert> {
    return this.db.transaction().execute(async (trx) => {
      let lock = trx.selectFrom('organisations').select('id').where('id', '=', row.org_id);
      if (this.dialect === 'postgres') lock = lock.forUpdate();
      if (!(await lock.executeTakeFirst())) return { inserted: false };
      const count = await trx
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', row.org_id)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= max) return { inserted: false };
      const { id } = await trx.insertInto('webhooks').values(row).returning('id').executeTakeFirstOrThrow();
      return { inserted: true, id };
    });
  }

  async update(
    orgId: number,
    id: number,
    set: Partial<
      Pick<
        WebhookRecord,
        | 'name'
        | 'url'
        | 'enabled'
        | 'events'
        | 'disabled_reason'
        | 'consecutive_failures'
        | 'updated_at'
        | 'secret_sealed'
      >
    >,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('webhooks')
      .set(set)
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(orgId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('webhooks')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Which of the ids are webhooks of the organisation. */
  async ownedIds(orgId: number, ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .selectFrom('webhooks')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => r.id);
  }

  /** The enabled webhooks of the organisations (their subscriptions are filtered by the caller). */
  enabledOf(orgIds: number[]) {
    if (!orgIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('webhooks')
      .select(['id', 'org_id', 'events'])
      .where('org_id', 'in', orgIds)
      .where('enabled', '=', 1)
      .execute();
  }

  /** The webhooks named (each with its organisation), enabled or not. */
  namedOf(orgId: number, ids: number[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('webhooks')
      .select(['id', 'org_id', 'events'])
      .where('org_id', '=', orgId)
      .where('id', 'in', ids)
      .where('enabled', '=', 1)
      .execute();
  }

  /**
   * The organisations whose fleet scope holds a company: the company itself, its distributor,
   * and the platform.
   */
  async receiversOfCompany(companyId: number): Promise<number[]> {
    const company = await this.db
      .selectFrom('organisations')
      .select(['id', 'parent_id'])
      .where('id', '=', companyId)
      .executeTakeFirst();
    if (!company) return [];
    const above = await this.db
      .selectFrom('organisations')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('kind', '=', 'platform'),
          ...(company.parent_id !== null
            ? [eb.and([eb('id', '=', company.parent_id), eb('kind', '=', 'distributor')])]
            : []),
        ]),
      )
      .execute();
    return [company.id, ...above.map((r) => r.id)];
  }

  /** A panel of the company, as the payload names it. */
  device(companyId: number, deviceId: number) {
    return this.db
      .selectFrom('devices')
      .select(['id', 'device_key', 'name'])
      .where('org_id', '=', companyId)
      .where('id', '=', deviceId)
      .executeTakeFirst();
  }

  /** Where the mail about a disabled webhook goes: its creator, if still a user of its organisation. */
  async creatorAddress(orgId: number, userId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('email')
      .where('org_id', '=', orgId)
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.email || undefined;
  }
}
