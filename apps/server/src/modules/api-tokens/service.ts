import { apiTokens as contract, TOKEN_SCOPES, type TokenScope } from '@panelfleet/contract';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { TokenThrottle } from './throttle.js';
import type { ApiTokenRepository } from './repository.js';

/** last_used_at is written at most this often (or when the address changes). */
const TOUCH_INTERVAL_MS = 60_000;
const HINT_LENGTH = contract.API_TOKEN_PREFIX.length + 4;

/** A digest of the user's password hash: another password (changed, reset) ends the user's tokens. */
const passwordStamp = (passwordHash: string) => tokenHash(`api-token|${passwordHash}`);
const parseLabels = (text: string) => (text ? text.split(',').map(Number) : []);

type Listed = Awaited<ReturnType<ApiTokenRepository['listForUser']>>[number];

export class ApiTokenService {
  constructor(
    private readonly deps: {
      tokens: ApiTokenRepository;
      throttle: TokenThrottle;
      clock: Clock;
      log: OperationLog;
    },
  ) {}

  async list(caller: SessionUser): Promise<contract.ApiTokenView[]> {
    const { tokens } = this.deps;
    const [rows, passwordHash] = await Promise.all([
      tokens.listForUser(caller.orgId, caller.id),
      tokens.passwordHashOf(caller.orgId, caller.id),
    ]);
    const labelIds = [...new Set(rows.flatMap((row) => parseLabels(row.label_ids)))];
    const names = new Map((await tokens.labelsOf(caller.orgId, labelIds)).map((l) => [l.id, l.name]));
    const stamp = passwordStamp(passwordHash ?? '');
    return rows.map((row) => this.view(row, stamp, names));
  }

  async create(
    caller: SessionUser,
    ip: string,
    input: { name: string; scope: TokenScope; expiresAt: number | null; labelIds: number[] },
  ): Promise<contract.ApiTokenView & { token: string }> {
    const { tokens, clock } = this.deps;
    const now = clock.now();
    if (input.expiresAt !== null && input.expiresAt <= now)
      throw new Refusal('apiToken.expiryInvalid', 'invalid');
    if ((await tokens.countForUser(caller.orgId, caller.id)) >= contract.MAX_TOKENS_PER_USER)
      throw new Refusal('apiToken.tooMany', 'conflict', { max: contract.MAX_TOKENS_PER_USER });
    const labels = await tokens.labelsOf(caller.orgId, input.labelIds);
    if (labels.length !== input.labelIds.length) throw new Refusal('apiToken.labelInvalid', 'invalid');
    const passwordHash = await tokens.passwordHashOf(caller.orgId, caller.id);
    if (passwordHash === undefined) throw new Refusal('apiToken.notFound', 'notFound');
    // 256 random bits behind a recognisable prefix; only the SHA-256 is kept.
    const token = `${contract.API_TOKEN_PREFIX}${randomToken(32)}`;
    const row = {
      org_id: caller.orgId,
      user_id: caller.id,
      name: input.name,
      token_hash: tokenHash(token),
      hint: token.slice(0, HINT_LENGTH),
      scope: input.scope,
      label_ids: input.labelIds.join(','),
      password_stamp: passwordStamp(passwordHash),
      expires_at: input.expiresAt,
      created_at: now,
    };
    const id = await tokens.insert(row);
    await this.deps.log.recordBy(caller, ip, 'apiToken.create', {
      k: 'apiToken',
      v: { name: input.name, scope: input.scope },
    });
    const names = new Map(labels.map((l) => [l.id, l.name]));
    const listed = { ...row, id, revoked_at: null, last_used_at: null, last_used_ip: null };
    return { ...this.view(listed, row.password_stamp, names), token };
  }

  async revoke(caller: SessionUser, ip: string, id: number): Promise<void> {
    const { tokens, clock } = this.deps;
    const row = await tokens.findForUser(caller.orgId, caller.id, id);
    if (!row || !(await tokens.revoke(caller.orgId, caller.id, id, clock.now())))
      throw new Refusal('apiToken.notFound', 'notFound');
    await this.deps.log.recordBy(caller, ip, 'apiToken.revoke', {
      k: 'apiToken',
      v: { name: row.name, scope: row.scope },
    });
  }

  /**
   * The caller of a request with `Authorization: Bearer <token>`: the token's user, while the
   * token lives (not revoked or expired, its user enabled, in its valid window, with the password
   * it had when the token was made), within the token's per-window limit.
   */
  async authenticate(request: FastifyRequest, bearer: string): Promise<{ id: string; user: SessionUser }> {
    const { tokens, clock } = this.deps;
    const row = bearer.startsWith(contract.API_TOKEN_PREFIX)
      ? await tokens.findByHash(tokenHash(bearer))
      : undefined;
    const now = clock.now();
    if (
      !row ||
      row.token_org_id !== row.org_id ||
      endedAt(row, now) ||
      !TOKEN_SCOPES.includes(row.scope as TokenScope)
    )
      throw new Refusal('apiToken.invalid', 'unauthenticated');
    const waitMs = this.deps.throttle.take(row.id, now);
    if (waitMs > 0)
      throw new Refusal('apiToken.throttled', 'tooMany', { seconds: Math.max(1, Math.ceil(waitMs / 1000)) });
    if (
      row.last_used_at === null ||
      now - row.last_used_at > TOUCH_INTERVAL_MS ||
      row.last_used_ip !== request.ip
    )
      await tokens.touch(row.id, now, request.ip);
    return {
      id: `api-token:${row.id}`,
      user: {
        id: row.user_id,
        orgId: row.org_id,
        userName: row.user_name,
        userType: row.user_type,
        activated: row.activated === 1 ? 1 : 0,
        programRole: row.program_role,
        token: {
          id: row.id,
          name: row.name,
          scope: row.scope as TokenScope,
          labelIds: parseLabels(row.label_ids),
        },
      },
    };
  }

  private view(
    row: Listed | (Omit<Listed, 'id'> & { id: number }),
    currentStamp: string,
    names: Map<number, string>,
  ): contract.ApiTokenView {
    const labelIds = parseLabels(row.label_ids);
    const now = this.deps.clock.now();
    return {
      id: row.id,
      name: row.name,
      scope: row.scope as TokenScope,
      hint: row.hint,
      labelIds,
      labelNames: labelIds.map((id) => names.get(id) ?? String(id)),
      expiresAt: row.expires_at,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      lastUsedIp: row.last_used_ip,
      state:
        row.revoked_at !== null
          ? 'revoked'
          : row.expires_at !== null && row.expires_at <= now
            ? 'expired'
            : row.password_stamp !== currentStamp
              ? 'ended'
              : 'active',
    };
  }
}

type Found = NonNullable<Awaited<ReturnType<ApiTokenRepository['findByHash']>>>;

/** Why a token no longer acts, or undefined while it lives. */
function endedAt(row: Found, now: number): string | undefined {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at !== null && row.expires_at <= now) return 'expired';
  if (row.enabled !== 1) return 'user disabled';
  if ((row.valid_begin !== null && now < row.valid_begin) || (row.valid_end !== null && now > row.valid_end))
    return 'user outside its valid window';
  if (row.password_stamp !== passwordStamp(row.password_hash)) return 'password changed';
  return undefined;
}

/** A request that carries a bearer token (a script), not a console session. */
export const isBearer = (header: string | undefined) => /^Bearer\s+\S+$/i.test(header ?? '');
export const bearerOf = (header: string) => header.replace(/^Bearer\s+/i, '').trim();
