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

  // ---- the check of the provider (idp-check.ts) ----

  /** A sign-in through the provider: its refresh token (sealed, or null when it gave none) kept. */
  async signedInThrough(providerId: number, subject: string, refreshToken: string | null, now: number) {
    await this.db
      .updateTable('sso_identities')
      .set({ refresh_token: refreshToken, checked_at: now, needs_sign_in: 0 })
      .where('provider_id', '=', providerId)
      .where('subject', '=', subject)
      .execute();
  }

  /** Identities with a refresh token not checked since `before`, oldest first; enabled providers and users only. */
  dueForCheck(before: number, limit: number) {
    return this.db
      .selectFrom('sso_identities')
      .innerJoin('sso_providers', 'sso_providers.id', 'sso_identities.provider_id')
      .innerJoin('users', 'users.id', 'sso_identities.user_id')
      .select([
        'sso_identities.provider_id',
        'sso_identities.subject',
        'sso_identities.user_id',
        'sso_identities.refresh_token',
        'users.org_id',
        'users.user_name',
        'users.user_type',
        'sso_providers.display_name',
      ])
      .where('sso_identities.refresh_token', 'is not', null)
      .where('sso_identities.needs_sign_in', '=', 0)
      .where('sso_providers.enabled', '=', 1)
      .where('users.enabled', '=', 1)
      .whereRef('users.org_id', '=', 'sso_providers.org_id')
      .where((eb) =>
        eb.or([eb('sso_identities.checked_at', 'is', null), eb('sso_identities.checked_at', '<', before)]),
      )
      .orderBy('sso_identities.checked_at')
      .limit(limit)
      .execute();
  }

  /** The provider answered for the user: when, and the refresh token it rotated to (if it did). */
  async checked(providerId: number, subject: string, refreshToken: string | undefined, now: number) {
    await this.db
      .updateTable('sso_identities')
      .set({ checked_at: now, ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }) })
      .where('provider_id', '=', providerId)
      .where('subject', '=', subject)
      .execute();
  }

  /** The provider ended the user's grant: no refresh token, a sign-in through it needed. */
  async grantEnded(providerId: number, subject: string, now: number) {
    await this.db
      .updateTable('sso_identities')
      .set({ refresh_token: null, checked_at: now, needs_sign_in: 1 })
      .where('provider_id', '=', providerId)
      .where('subject', '=', subject)
      .execute();
  }

  async needsSignIn(userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('sso_identities')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('needs_sign_in', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Sessions started through a provider before `before` whose identity has no refresh token (the
   * provider gave none, so nothing can check it): they have lived their maximum.
   */
  async uncheckableSessionsBefore(before: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sso_sessions')
      .innerJoin('sso_identities', (join) =>
        join
          .onRef('sso_identities.provider_id', '=', 'sso_sessions.provider_id')
          .onRef('sso_identities.user_id', '=', 'sso_sessions.user_id'),
      )
      .select('sso_sessions.session_id')
      .where('sso_identities.refresh_token', 'is', null)
      .where('sso_sessions.created_at', '<', before)
      .execute();
    return [...new Set(rows.map((r) => r.session_id))];
  }

  /**
   * Users with live API tokens whose every identity lacks a refresh token (the provider cannot be
   * asked about them) and who last signed in through a provider before `before`.
   */
  uncheckableTokenOwners(before: number) {
    return this.db
      .selectFrom('sso_identities as i')
      .innerJoin('sso_providers as p', 'p.id', 'i.provider_id')
      .innerJoin('users as u', 'u.id', 'i.user_id')
      .select(['i.user_id', 'u.org_id', 'u.user_name', 'u.user_type', 'p.display_name'])
      .where('i.refresh_token', 'is', null)
      .where('i.needs_sign_in', '=', 0)
      .where((eb) => eb.or([eb('i.checked_at', 'is', null), eb('i.checked_at', '<', before)]))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('sso_identities as other')
              .select('other.user_id')
              .whereRef('other.user_id', '=', 'i.user_id')
              .where((eb) =>
                eb.or([eb('other.refresh_token', 'is not', null), eb('other.checked_at', '>=', before)]),
              ),
          ),
        ),
      )
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('api_tokens as t')
            .select('t.id')
            .whereRef('t.user_id', '=', 'i.user_id')
            .where('t.revoked_at', 'is', null),
        ),
      )
      .execute();
  }

  async forgetSession(sessionId: string) {
    await this.db.deleteFrom('sso_sessions').where('session_id', '=', sessionId).execute();
  }

  async forgetSessionsOf(userId: number) {
    await this.db.deleteFrom('sso_sessions').where('user_id', '=', userId).execute();
  }

  /** The rows of sessions that ended otherwise (sign-out, idle, the user's own end). */
  async purgeEndedSessions() {
    await this.db
      .deleteFrom('sso_sessions')
      .where('session_id', 'not in', (eb) => eb.selectFrom('sessions').select('id'))
      .execute();
  }
}
