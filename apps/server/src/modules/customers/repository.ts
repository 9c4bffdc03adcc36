import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';
import type { CustomerScope } from './policy.js';

type CustomerQuery = SelectQueryBuilder<Database, 'users' | 'organisations', object>;

export class CustomerRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Customer accounts (type 2) of customer organisations in the scope. */
  private scoped(scope: CustomerScope, userName?: string): CustomerQuery {
    let query = this.db
      .selectFrom('users')
      .innerJoin('organisations', 'organisations.id', 'users.org_id')
      .where('organisations.kind', '=', 'customer')
      .where('users.user_type', '=', '2');
    if (scope.kind === 'children') query = query.where('organisations.parent_id', '=', scope.parentId);
    if (scope.kind === 'own') query = query.where('organisations.id', '=', scope.orgId);
    if (userName) query = query.where(containsFolded('users.user_name', userName));
    return query;
  }

  page(scope: CustomerScope, offset: number, limit: number, onlineSince: number, userName?: string) {
    return this.scoped(scope, userName)
      .select([
        'users.id',
        'users.user_name',
        'users.phone',
        'users.email',
        'users.enabled',
        'organisations.id as org_id',
        'organisations.name as company_name',
        (eb) =>
          eb
            .exists(
              eb
                .selectFrom('sessions')
                .select(sql.lit(1).as('one'))
                .whereRef('sessions.user_id', '=', 'users.id')
                .where('sessions.last_seen_at', '>', onlineSince),
            )
            .as('online'),
      ])
      .orderBy('users.id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async count(scope: CustomerScope, userName?: string): Promise<number> {
    const row = await this.scoped(scope, userName)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  findAccount(scope: CustomerScope, userId: number) {
    return this.scoped(scope).selectAll('users').where('users.id', '=', userId).executeTakeFirst();
  }

  findOrganisation(scope: CustomerScope, orgId: number) {
    return this.scoped(scope)
      .select(['organisations.id', 'organisations.user_quota', 'organisations.name'])
      .where('organisations.id', '=', orgId)
      .executeTakeFirst();
  }

  async setEnabled(scope: CustomerScope, userId: number, enabled: number) {
    await this.db
      .updateTable('users')
      .set({ enabled })
      .where('id', '=', userId)
      .where('id', 'in', this.scoped(scope).select('users.id'))
      .execute();
  }

  async setQuota(scope: CustomerScope, orgId: number, quota: number) {
    await this.db
      .updateTable('organisations')
      .set({ user_quota: quota })
      .where('id', '=', orgId)
      .where('id', 'in', this.scoped(scope).select('organisations.id'))
      .execute();
  }
}
