import { sql, type Insertable, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database, UsersTable } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';
import { UserRepository, type User } from '../users/repository.js';

export type QuotaInsert = { inserted: true; id: number } | { inserted: false; quota: number };

export class ConsoleUserRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  private scoped(orgId: number, userName?: string) {
    let query = this.db.selectFrom('users').where('org_id', '=', orgId).where('user_type', 'in', ['3', '4']);
    if (userName) query = query.where(containsFolded('users.user_name', userName));
    return query;
  }

  /** A console user (type 3 or 4) of the organisation; another organisation's reads as none. */
  findOwn(orgId: number, id: number): Promise<User | undefined> {
    return this.scoped(orgId).selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A page of the organisation's console users with their online flag (a live session). */
  page(orgId: number, offset: number, limit: number, onlineSince: number, userName?: string) {
    return this.scoped(orgId, userName)
      .select([
        'id',
        'user_name',
        'user_type',
        'phone',
        'email',
        'enabled',
        'program_role',
        'remark',
        'valid_begin',
        'valid_end',
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
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async count(orgId: number, userName?: string): Promise<number> {
    const row = await this.scoped(orgId, userName)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Inserts a console user unless the organisation's console users already fill its quota. Count
   * and insert run in one transaction that first locks the organisation's row (PostgreSQL:
   * SELECT ... FOR UPDATE; SQLite: the transaction holds the only connection), so parallel
   * inserts of one organisation count one after another. Undefined: no such organisation.
   */
  async insertWithinQuota(
    user: Insertable<UsersTable> & { org_id: number },
  ): Promise<QuotaInsert | undefined> {
    return this.db.transaction().execute(async (trx) => {
      let lock = trx.selectFrom('organisations').select('user_quota').where('id', '=', user.org_id);
      if (this.dialect === 'postgres') lock = lock.forUpdate();
      const org = await lock.executeTakeFirst();
      if (!org) return undefined;
      const scoped = new ConsoleUserRepository(trx, this.dialect);
      if ((await scoped.count(user.org_id)) >= org.user_quota)
        return { inserted: false, quota: org.user_quota };
      return { inserted: true, id: await new UserRepository(trx).insert(user) };
    });
  }

  /** Changes a console user (type 3 or 4) of the organisation. */
  async update(
    orgId: number,
    id: number,
    changes: {
      enabled: number;
      remark: string;
      program_role?: number;
      valid_begin: number | null;
      valid_end: number | null;
    },
  ) {
    await this.db
      .updateTable('users')
      .set(changes)
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('user_type', 'in', ['3', '4'])
      .execute();
  }

  /** Deletes a console user (type 3 or 4) of the organisation. */
  async delete(orgId: number, id: number) {
    await this.db
      .deleteFrom('users')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('user_type', 'in', ['3', '4'])
      .execute();
  }
}
