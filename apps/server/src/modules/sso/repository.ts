import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.js';
import type { SsoLoginsTable, SsoProvidersTable } from '../../db/schema-sso.js';

export type ProviderRow = Selectable<SsoProvidersTable>;
export type LoginRow = Selectable<SsoLoginsTable>;
export type ProviderFields = Omit<Insertable<SsoProvidersTable>, 'id' | 'org_id'>;

/** The user columns a sign-in through a provider needs. */
const USER_COLUMNS = [
  'users.id',
  'users.org_id',
  'users.user_name',
  'users.user_type',
  'users.enabled',
  'users.valid_begin',
  'users.valid_end',
  'users.email',
] as const;

/**
 * All SQL of single sign-on. An administrator's reads and writes take the caller's organisation;
 * the anonymous sign-in flow reaches a provider by its id and a user only within that provider's
 * organisation.
 */
export class SsoRepository {
  constructor(private readonly db: Kysely<Database>) {}

  providerOf(orgId: number): Promise<ProviderRow | undefined> {
    return this.db.selectFrom('sso_providers').selectAll().where('org_id', '=', orgId).executeTakeFirst();
  }

  async saveProvider(orgId: number, fields: ProviderFields): Promise<void> {
    await this.db
      .insertInto('sso_providers')
      .values({ org_id: orgId, ...fields })
      .onConflict((oc) => oc.column('org_id').doUpdateSet(fields))
      .execute();
  }

  enabledProvider(id: number): Promise<ProviderRow | undefined> {
    return this.db
      .selectFrom('sso_providers')
      .selectAll()
      .where('id', '=', id)
      .where('enabled', '=', 1)
      .executeTakeFirst();
  }

  /** Every enabled provider with its organisation's name: the sign-in page's look-up (few rows). */
  enabledProviders() {
    return this.db
      .selectFrom('sso_providers')
      .innerJoin('organisations', 'organisations.id', 'sso_providers.org_id')
      .select([
        'sso_providers.id',
        'sso_providers.display_name',
        'sso_providers.email_domains',
        'organisations.name as org_name',
      ])
      .where('sso_providers.enabled', '=', 1)
      .execute();
  }

  organisationKind(orgId: number) {
    return this.db
      .selectFrom('organisations')
      .select(['kind', 'name'])
      .where('id', '=', orgId)
      .executeTakeFirst();
  }

  userIdByName(orgId: number, userName: string) {
    return this.db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', orgId)
      .where('user_name', '=', userName)
      .executeTakeFirst();
  }

  userNameOf(orgId: number, userId: number) {
    return this.db
      .selectFrom('users')
      .select('user_name')
      .where('org_id', '=', orgId)
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  async insertLogin(row: LoginRow): Promise<void> {
    await this.db.insertInto('sso_logins').values(row).execute();
  }

  /** The sign-in under way with this state and browser, deleted as it is read: used once. */
  takeLogin(id: string, browser: string): Promise<LoginRow | undefined> {
    return this.db
      .deleteFrom('sso_logins')
      .where('id', '=', id)
      .where('browser', '=', browser)
      .returningAll()
      .executeTakeFirst();
  }

  async purgeLogins(before: number): Promise<void> {
    await this.db.deleteFrom('sso_logins').where('created_at', '<', before).execute();
  }

  userOfIdentity(provider: ProviderRow, subject: string) {
    return this.db
      .selectFrom('sso_identities')
      .innerJoin('users', 'users.id', 'sso_identities.user_id')
      .select(USER_COLUMNS)
      .where('sso_identities.provider_id', '=', provider.id)
      .where('sso_identities.subject', '=', subject)
      .where('users.org_id', '=', provider.org_id)
      .executeTakeFirst();
  }

  usersByEmail(orgId: number, email: string) {
    return this.db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .where('users.org_id', '=', orgId)
      .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email.toLowerCase()))
      .execute();
  }

  async userNameTaken(userName: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('user_name', '=', userName)
      .executeTakeFirst();
    return row !== undefined;
  }

  async linkIdentity(providerId: number, subject: string, userId: number, now: number): Promise<void> {
    await this.db
      .insertInto('sso_identities')
      .values({ provider_id: providerId, subject, user_id: userId, created_at: now })
      .execute();
  }

  /** A user made at its first sign-in, linked to the provider's subject, in one transaction. */
  createLinkedUser(user: Insertable<UsersTable>, providerId: number, subject: string): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
      await tx
        .insertInto('sso_identities')
        .values({ provider_id: providerId, subject, user_id: row.id, created_at: user.created_at })
        .execute();
      return row.id;
    });
  }

  async recordSession(sessionId: string, providerId: number, userId: number, now: number): Promise<void> {
    await this.db
      .insertInto('sso_sessions')
      .values({ session_id: sessionId, provider_id: providerId, user_id: userId, created_at: now })
      .execute();
  }
}
