import { isFail, SESSION_EXPIRED_STATUS } from '@panelfleet/contract';

/** What the console does with a reply, decided from the HTTP status and the body alone. */
export type Outcome =
  | { kind: 'ok'; body: unknown }
  | { kind: 'sessionExpired'; message: string }
  | {
      kind: 'fail';
      message: string;
      code: string | undefined;
      /** The message's catalog key and variables, to show it again in another language. */
      key?: string;
      vars?: Record<string, string | number>;
    }
  | { kind: 'serverError' }
  | { kind: 'notFound' }
  | { kind: 'network' };

export type FailureKind = Exclude<Outcome['kind'], 'ok'>;

/** HTTP status 0 stands for "no reply at all" (fetch threw or the response was opaque). */
export const NO_REPLY = 0;

const hasSessionExpiredMarker = (body: unknown): boolean =>
  typeof body === 'object' &&
  body !== null &&
  (body as { status?: unknown }).status === SESSION_EXPIRED_STATUS;

const messageOf = (body: unknown): string => {
  const msg = typeof body === 'object' && body !== null ? (body as { hhtMsg?: unknown }).hhtMsg : undefined;
  return typeof msg === 'string' ? msg : '';
};

const isVars = (value: unknown): value is Record<string, string | number> =>
  !!value && typeof value === 'object' && Object.values(value).every((v) => typeof v !== 'object');

const isSuccess = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && (body as { hhtStatus?: unknown }).hhtStatus === 'success';

/**
 * Order matters: the session marker wins over every status (the server sends it with 401, the
 * legacy server with 500); a 5xx is a server fault even when it carries a fail envelope; any
 * other fail envelope is the server speaking to the user, whatever the status.
 */
export function classifyReply(httpStatus: number, body: unknown): Outcome {
  if (httpStatus === NO_REPLY) return { kind: 'network' };
  if (hasSessionExpiredMarker(body)) return { kind: 'sessionExpired', message: messageOf(body) };
  if (httpStatus >= 500) return { kind: 'serverError' };
  if (isFail(body))
    return {
      kind: 'fail',
      message: body.hhtMsg,
      code: body.hhtErrorCode,
      ...(typeof body.hhtMsgKey === 'string' ? { key: body.hhtMsgKey } : {}),
      ...(isVars(body.hhtMsgVars) ? { vars: body.hhtMsgVars } : {}),
    };
  if (httpStatus === 404) return { kind: 'notFound' };
  if (httpStatus >= 200 && httpStatus < 300 && isSuccess(body)) return { kind: 'ok', body };
  return { kind: 'serverError' };
}
