import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import { SessionEnded } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { SessionRepository } from './repository.js';

export const SESSION_COOKIE = 'pf_session';
export const IDLE_TIMEOUT_MS = 30 * 60_000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60_000;
/** A user's session list shows at most this many (the newest). */
const LISTED_SESSIONS = 100;
/** last_seen_at is written at most this often, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 60_000;

/** What ended: one session (by its hash), or every session of a user but one. */
export interface SessionEnd {
  sessionId?: string;
  userId?: number;
  exceptSessionId?: string;
}

/** A live session as the live console checks it, without counting as activity. */
export interface SessionState {
  user: SessionUser;
  /** When it ends unless a request comes first (idle), or at the latest (absolute, valid window). */
  endsAt: number;
}

/**
 * Sessions live in the database so that several server instances share them. The cookie holds
 * a random token; the table holds only its hash. Every end is announced (`onEnded`), so the
 * live console closes the session's event streams at once.
 */
export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
    private readonly secureCookies: boolean,
    private readonly onEnded: (end: SessionEnd) => void = () => undefined,
  ) {}

  /**
   * Starts a session, ending the one this browser had (a new id at every sign-in), and gives its
   * id. `method` is how the user signed in (`password`, `password+totp`, `oidc`, ...), shown in
   * the user's session list.
   */
  async start(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    method = 'password',
  ): Promise<string> {
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) {
      await this.sessions.delete(tokenHash(previous));
      this.onEnded({ sessionId: tokenHash(previous) });
    }
    const token = randomToken();
    const now = this.clock.now();
    await this.sessions.insert({
      id: tokenHash(token),
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      ip: request.ip,
      ref: randomToken().slice(0, 16),
      method,
      user_agent: (request.headers['user-agent'] ?? '').slice(0, 255),
    });
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
    return tokenHash(token);
  }

  /** The live session of a request, or the 518 refusal. */
  authenticate = async (request: FastifyRequest): Promise<{ id: string; user: SessionUser }> => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) throw new SessionEnded('no session cookie');
    const id = tokenHash(token);
    const row = await this.sessions.findWithUser(id);
    if (!row) throw new SessionEnded('unknown session');
    const now = this.clock.now();
    // The user is checked again at every request: disabled or outside its valid window ends the
    // session at once (a deleted user has no row, so its sessions are unknown above).
    const ended = endReason(row, now);
    if (ended) {
      await this.sessions.delete(id);
      this.onEnded({ sessionId: id });
      throw new SessionEnded(ended);
    }
    if (now - row.last_seen_at > TOUCH_INTERVAL_MS) await this.sessions.touch(id, now);
    return { id, user: userOf(row) };
  };

  /** The session by its hash if it is still live; reading it is not activity (no touch). */
  async inspect(id: string): Promise<SessionState | undefined> {
    const row = await this.sessions.findWithUser(id);
    if (!row || endReason(row, this.clock.now())) return undefined;
    const endsAt = Math.min(
      row.last_seen_at + IDLE_TIMEOUT_MS,
      row.created_at + ABSOLUTE_TIMEOUT_MS,
      row.valid_end ?? Number.MAX_SAFE_INTEGER,
    );
    return { user: userOf(row), endsAt };
  }

  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = request.cookies[SESSION_COOKIE];
    if (token) {
      await this.sessions.delete(tokenHash(token));
      this.onEnded({ sessionId: tokenHash(token) });
    }
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  /** Ends one session by its id (single sign-on's session that outlived its maximum). */
  async endById(id: string): Promise<void> {
    await this.sessions.delete(id);
    this.onEnded({ sessionId: id });
  }

  /** Ends every session of a user (password reset, disable), keeping `exceptId` if given; answers how many ended. */
  async endAllForUser(userId: number, exceptId?: string): Promise<number> {
    const ended = await this.sessions.deleteForUser(userId, exceptId);
    this.onEnded({ userId, ...(exceptId ? { exceptSessionId: exceptId } : {}) });
    return ended;
  }

  /** The user's live sessions, newest first; `current` marks the caller's own. */
  async listForUser(userId: number, currentId: string) {
    const now = this.clock.now();
    const rows = await this.sessions.listForUser(userId, LISTED_SESSIONS);
    return rows
      .filter((r) => now - r.last_seen_at <= IDLE_TIMEOUT_MS && now - r.created_at <= ABSOLUTE_TIMEOUT_MS)
      .map((r) => ({
        ref: r.ref,
        ip: r.ip,
        userAgent: r.user_agent,
        startedAt: r.created_at,
        lastSeenAt: r.last_seen_at,
        method: r.method,
        current: r.id === currentId,
      }));
  }

  /** Ends one of the user's sessions by its reference (its live streams close); undefined when the user has no such session. */
  async endByRef(userId: number, ref: string) {
    const ended = await this.sessions.deleteByRef(userId, ref);
    if (ended) this.onEnded({ sessionId: ended.id });
    return ended;
  }

  purgeExpired() {
    const now = this.clock.now();
    return this.sessions.deleteOlderThan(now - ABSOLUTE_TIMEOUT_MS, now - IDLE_TIMEOUT_MS);
  }
}

type SessionRow = NonNullable<Awaited<ReturnType<SessionRepository['findWithUser']>>>;

/** Why a session is over at `now`, or null while it lives. */
function endReason(row: SessionRow, now: number): string | null {
  if (now - row.last_seen_at > IDLE_TIMEOUT_MS || now - row.created_at > ABSOLUTE_TIMEOUT_MS)
    return 'session expired';
  if (row.enabled !== 1) return 'user disabled';
  if ((row.valid_begin !== null && now < row.valid_begin) || (row.valid_end !== null && now > row.valid_end))
    return 'user outside its valid window';
  return null;
}

function userOf(row: SessionRow): SessionUser {
  return {
    id: row.user_id,
    orgId: row.org_id,
    userName: row.user_name,
    userType: row.user_type,
    activated: row.activated === 1 ? 1 : 0,
    programRole: row.program_role,
  };
}
