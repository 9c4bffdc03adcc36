import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.js';

export type User = Selectable<UsersTable>;

export class UserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findByName(userName: string): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('user_name', '=', userName).executeTakeFirst();
  }

  findById(id: number): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<User[]> {
    return this.db.selectFrom('users').selectAll().where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase())).execute();
  }

  async setPassword(id: number, passwordHash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
  }

  async insert(user: Insertable<UsersTable>): Promise<number> {
    const row = await this.db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  /** Personal information, with the name of the user's organisation as company. */
  findProfile(id: number) {
    return this.db
      .selectFrom('users')
      .innerJoin('organisations', 'organisations.id', 'users.org_id')
      .select([
        'users.id', 'users.user_name', 'users.phone', 'users.email', 'users.avatar', 'users.activated',
        'organisations.name as company_name',
      ])
      .where('users.id', '=', id)
      .executeTakeFirst();
  }
}
