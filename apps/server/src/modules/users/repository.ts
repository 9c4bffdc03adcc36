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
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .execute();
  }

  async setPassword(id: number, passwordHash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
  }

  async setContact(id: number, contact: { phone: string; email: string }): Promise<void> {
    await this.db.updateTable('users').set(contact).where('id', '=', id).execute();
  }

  async markActivated(id: number): Promise<void> {
    await this.db.updateTable('users').set({ activated: 1 }).where('id', '=', id).execute();
  }

  /** The user's avatar file name, or null when there is none. */
  async avatarOf(id: number): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('avatar').where('id', '=', id).executeTakeFirst();
    return row?.avatar ?? null;
  }

  async setAvatar(id: number, avatar: string): Promise<void> {
    await this.db.updateTable('users').set({ avatar }).where('id', '=', id).execute();
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
        'users.id',
        'users.user_name',
        'users.phone',
        'users.email',
        'users.avatar',
        'users.activated',
        'organisations.name as company_name',
      ])
      .where('users.id', '=', id)
      .executeTakeFirst();
  }
}
