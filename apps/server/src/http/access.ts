import { tokenAdmits, userRefusal, type Access, type TokenNeed, type UserType } from '@panelfleet/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActingToken } from './acting-token.js';
import { AppError } from './app-error.js';

/** The signed-in user as the server knows it for one request. */
export interface SessionUser {
  id: number;
  orgId: number;
  userName: string;
  userType: UserType;
  activated: 0 | 1;
  programRole: number;
  /** The API token the request came with (`Authorization: Bearer`), absent for a console session. */
  token?: ActingToken;
}

/** A panel that presented its own credentials. */
export interface PanelCaller {
  deviceKey: string;
}

interface AuthorizeDeps {
  authenticate(request: FastifyRequest): Promise<{ id: string; user: SessionUser }>;
  verifyPanel(deviceKey: string, password: string): Promise<boolean>;
  special: boolean;
}

const ACCESS_KINDS = new Set(['anonymous', 'panel', 'user']);

export function isAccess(value: unknown): value is Access {
  if (
    typeof value !== 'object' ||
    value === null ||
    !ACCESS_KINDS.has((value as { kind?: string }).kind ?? '')
  )
    return false;
  const access = value as Access;
  return access.kind !== 'user' || (Array.isArray(access.types) && access.types.length > 0);
}

function basicCredentials(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

const REFUSAL_KEYS = {
  wrongType: 'common.forbidden',
  wrongDeployment: 'common.forbidden',
  wrongProgramRole: 'common.forbidden',
  notActivated: 'PleaseActive',
} as const;

/**
 * The one place where a call's access declaration is enforced: a user call needs a live
 * session (else 401 with the 518 marker) whose user the declaration admits (else 403); a panel
 * call needs the panel's own credentials (else 401 with a Basic challenge). Returns what the
 * handler may know of its caller.
 */
export async function authorize(
  access: Access,
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AuthorizeDeps,
  tokenNeed: TokenNeed = 'never',
): Promise<{ session?: { id: string; user: SessionUser }; panel?: PanelCaller }> {
  switch (access.kind) {
    case 'anonymous':
      return {};
    case 'panel': {
      const credentials = basicCredentials(request.headers.authorization);
      if (!credentials || !(await deps.verifyPanel(credentials.user, credentials.password))) {
        reply.header('www-authenticate', 'Basic realm="panelfleet-device"');
        throw new AppError('download.deviceOnly', 401);
      }
      return { panel: { deviceKey: credentials.user } };
    }
    case 'user': {
      const session = await deps.authenticate(request);
      const token = session.user.token;
      // A token acts within its scope (access.ts `tokenNeedOf`): checked before the user's type,
      // so a call no token may make is refused alike whoever the token's user is.
      if (token && tokenNeed === 'never') throw new AppError('apiToken.notAllowed', 403);
      if (token && !tokenAdmits(tokenNeed, token.scope))
        throw new AppError('apiToken.outOfScope', 403, { scope: token.scope, need: tokenNeed });
      const refusal = userRefusal(access, session.user, deps.special);
      if (refusal)
        throw new AppError(
          refusal === 'wrongType'
            ? (access.refusal ?? REFUSAL_KEYS.wrongType)
            : refusal === 'wrongProgramRole'
              ? (access.programRoleRefusal ?? REFUSAL_KEYS.wrongProgramRole)
              : REFUSAL_KEYS[refusal],
          403,
        );
      return { session };
    }
  }
}

/** Offset of a page: `start` is the 1-based page number (0 reads as the first page). */
export const pageOffset = (start: number, size: number) => (Math.max(start, 1) - 1) * size;

/** Refuses callers whose user type is not among `types` (403, common.forbidden). */
export function requireType(user: SessionUser, ...types: SessionUser['userType'][]): void {
  if (!types.includes(user.userType)) throw new AppError('common.forbidden', 403);
}

/** Refuses a type-2 customer that has not activated: it may reach only the activation view. */
export function requireActivated(user: SessionUser): void {
  if (user.userType === '2' && user.activated !== 1) throw new AppError('PleaseActive', 403);
}
