import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import { SessionExpiredError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { SessionRepository } from './repository.js';

export const SESSION_COOKIE = 'pf_session';
export const IDLE_TIMEOUT_MS = 30 * 60_000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60_000;
/** last_seen_at is written at most this often, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Sessions live in the database so that several server instances share them. The cookie holds
 * a random token; the table holds only its hash.
 */
export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
    private readonly secureCookies: boolean,
  ) {}

  /** Starts a session, ending the one this browser had (a new id at every sign-in). */
  async start(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await this.sessions.delete(tokenHash(previous));
    const token = randomToken();
    const now = this.clock.now();
    await this.sessions.insert({ id: tokenHash(token), user_id: userId, created_at: now, last_seen_at: now, ip: request.ip });
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      // Strict: a link or form on another site never carries the session, so even the spec's
      // GET writes (e.g. deleteByUserId) cannot be triggered cross-site. The console's own
      // calls are same-site and unaffected, and its pages need no cookie to load.
      sameSite: 'strict',
      secure: this.secureCookies,
      maxAge: ABSOLUTE_TIMEOUT_MS / 1000,
    });
  }

  /** The live session of a request, or the 518 refusal. */
  authenticate = async (request: FastifyRequest): Promise<{ id: string; user: SessionUser }> => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) throw new SessionExpiredError('no session cookie');
    const id = tokenHash(token);
    const row = await this.sessions.findWithUser(id);
    if (!row) throw new SessionExpiredError('unknown session');
    const now = this.clock.now();
    if (now - row.last_seen_at > IDLE_TIMEOUT_MS || now - row.created_at > ABSOLUTE_TIMEOUT_MS || row.enabled !== 1) {
      await this.sessions.delete(id);
      throw new SessionExpiredError(row.enabled !== 1 ? 'user disabled' : 'session expired');
    }
    if (now - row.last_seen_at > TOUCH_INTERVAL_MS) await this.sessions.touch(id, now);
    return {
      id,
      user: {
        id: row.user_id,
        orgId: row.org_id,
        userName: row.user_name,
        userType: row.user_type,
        activated: row.activated === 1 ? 1 : 0,
        programRole: row.program_role,
      },
    };
  };

  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await this.sessions.delete(tokenHash(token));
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  /** Ends every session of a user (password reset, disable), keeping `exceptId` if given. */
  endAllForUser(userId: number, exceptId?: string) {
    return this.sessions.deleteForUser(userId, exceptId);
  }

  purgeExpired() {
    const now = this.clock.now();
    return this.sessions.deleteOlderThan(now - ABSOLUTE_TIMEOUT_MS, now - IDLE_TIMEOUT_MS);
  }
}
