import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { failWithKey, SESSION_EXPIRED_STATUS, translate, type FailReply } from '@panelfleet/contract';
import { isDatabaseUnavailable, isTransactionConflict } from '../db/errors.js';
import { Refusal, RelayedRefusal, SessionEnded, type RefusalKind } from '../refusal.js';
import { AppError, RelayedFail, SessionExpiredError } from './app-error.js';
import { requestLanguage } from './language.js';

/** The HTTP status of each kind of refusal: decided here, at the edge, and nowhere else. */
export const STATUS_OF_REFUSAL: Record<RefusalKind, number> = {
  declined: 200,
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  gone: 410,
  tooLarge: 413,
  rangeNotSatisfiable: 416,
  tooMany: 429,
  upstreamFailed: 502,
  unavailable: 503,
};

/** A service's refusal as the edge answers it: an ended session with the 518 marker, a relayed one with its text. */
export const asAppError = (refusal: Refusal) =>
  refusal instanceof SessionEnded
    ? new SessionExpiredError(refusal.reason)
    : refusal instanceof RelayedRefusal
      ? new RelayedFail(refusal.text, refusal.errorCode)
      : new AppError(refusal.key, STATUS_OF_REFUSAL[refusal.kind], refusal.vars, refusal.errorCode);

export function sendFail(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const body: FailReply = {
    ...(error instanceof RelayedFail
      ? { hhtStatus: 'fail', hhtMsg: error.text }
      : failWithKey(translate(requestLanguage(request), error.key, error.vars), error.key, error.vars)),
    ...(error.errorCode ? { hhtErrorCode: error.errorCode } : {}),
    ...(error instanceof SessionExpiredError ? { status: SESSION_EXPIRED_STATUS } : {}),
  };
  return reply.code(error.httpStatus).send(body);
}

/** Turns every error into the spec's envelope; only real faults are 500s. */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof Refusal) {
      request.log.warn(
        {
          key: error.key,
          kind: error.kind,
          reason: error instanceof SessionEnded ? error.reason : undefined,
        },
        'request refused',
      );
      return sendFail(request, reply, asAppError(error));
    }
    if (error instanceof AppError) {
      request.log.warn(
        { key: error.key, reason: error instanceof SessionExpiredError ? error.reason : undefined },
        'request refused',
      );
      return sendFail(request, reply, error);
    }
    // Fastify's own 4xx (malformed JSON, body too large, bad content type) are the caller's mistakes.
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.warn({ code: error.code, message: error.message }, 'malformed request');
      const key = error.statusCode === 429 ? 'common.tooManyRequests' : 'common.invalidParams';
      return sendFail(request, reply, new AppError(key, error.statusCode, { field: error.message }));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return sendFail(request, reply, asAppError(new Refusal('common.serviceUnavailable', 'unavailable')));
    }
    // A deadlock or serialization failure rolled the request's transaction back whole: nothing of
    // it was written, and the same request succeeds when sent again (seen under load with two
    // instances writing the same device rows).
    if (isTransactionConflict(error)) {
      request.log.warn({ err: error }, 'transaction conflict: the request may be sent again');
      return sendFail(request, reply, asAppError(new Refusal('common.serviceUnavailable', 'unavailable')));
    }
    request.log.error({ err: error }, 'server fault');
    return sendFail(request, reply, new AppError('common.serverError', 500));
  });
}
