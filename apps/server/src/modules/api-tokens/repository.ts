import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { labelMembers } from '../label-membership/repository.js';

export interface NewApiToken {
  org_id: number;
  user_id: number;
  name: string;
  token_hash: string;
  hint: string;
  scope: string;
  label_ids: string;
  password_stamp: string;
  expires_at: number | null;
  created_at: number;
}

const LISTED = [
  'id',
  'name',
  'hint',
  'scope',
  'label_ids',
  'password_stamp',
  'expires_at',
  'revoked_at',
  'last_used_at',
  'last_used_ip',
  'created_at',
] as const;

/** All SQL of API tokens. A user's tokens are read and changed only with its organisation and id. */
export class ApiTokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewApiToken): Promise<number> {
    const inserted = await this.db
      .insertInto('api_tokens')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  /** The user's tokens, newest first, with its current password hash (a token of another one has ended). */
  listForUser(orgId: number, userId: number) {
    return this.db
      .selectFrom('api_tokens')
      .select(LISTED)
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
  }

  findForUser(orgId: number, userId: number, id: number) {
    return this.db
      .selectFrom('api_tokens')
      .select(LISTED)
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async countForUser(orgId: number, userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Revokes one of the user's live tokens; false when it has none of that id (or it was revoked). */
  async revoke(orgId: number, userId: number, id: number, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: at })
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Revokes every live token of a user (the identity provider ended the user); answers how many. */
  async revokeAllForUser(userId: number, at: number): Promise<number> {
    const result = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The user's own password hash, whose digest a token keeps. */
  async passwordHashOf(orgId: number, userId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('password_hash')
      .where('org_id', '=', orgId)
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.password_hash;
  }

  /** The names of those of `ids` that are labels of the organisation. */
  labelsOf(orgId: number, ids: readonly number[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('org_id', '=', orgId)
      .where('id', 'in', [...ids])
      .execute();
  }

  /**
   * A token by its hash, with what a request needs of its user (as a session's lookup): the
   * token is found by the hash of a high-entropy secret, never by anything the caller names.
   */
  findByHash(hash: string) {
    return this.db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .select([
        'api_tokens.id',
        'api_tokens.name',
        'api_tokens.scope',
        'api_tokens.label_ids',
        'api_tokens.password_stamp',
        'api_tokens.expires_at',
        'api_tokens.revoked_at',
        'api_tokens.last_used_at',
        'api_tokens.last_used_ip',
        'api_tokens.org_id as token_org_id',
        'users.id as user_id',
        'users.org_id',
        'users.user_name',
        'users.user_type',
        'users.activated',
        'users.enabled',
        'users.program_role',
        'users.valid_begin',
        'users.valid_end',
        'users.password_hash',
      ])
      .where('api_tokens.token_hash', '=', hash)
      .executeTakeFirst();
  }

  async touch(id: number, at: number, ip: string) {
    await this.db
      .updateTable('api_tokens')
      .set({ last_used_at: at, last_used_ip: ip })
      .where('id', '=', id)
      .execute();
  }

  /**
   * How many of `deviceIds` (the organisation's panels) carry none of `labelIds`: a token
   * restricted to labels reaches only panels that carry one of them (listed or dynamic).
   */
  async devicesOutsideLabels(orgId: number, labelIds: readonly number[], deviceIds: readonly number[]) {
    if (!deviceIds.length) return 0;
    const members = await labelMembers(this.db, orgId, [...labelIds]);
    const inside = await this.db
      .selectFrom('devices')
      .select('devices.id')
      .where(members.anyOf('devices', [...labelIds]))
      .where('devices.id', 'in', [...new Set(deviceIds)])
      .execute();
    return new Set(deviceIds).size - inside.length;
  }
}
