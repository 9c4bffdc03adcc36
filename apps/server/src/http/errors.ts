import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_EXPIRED_STATUS, translate, type FailReply } from '@panelfleet/contract';
import { AppError, RelayedRefusal, SessionExpiredError } from './app-error.js';
import { requestLanguage } from './language.js';

export function sendFail(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const body: FailReply = {
    hhtStatus: 'fail',
    hhtMsg: error instanceof RelayedRefusal ? error.text : translate(requestLanguage(request), error.key, error.vars),
    ...(error.errorCode ? { hhtErrorCode: error.errorCode } : {}),
    ...(error instanceof SessionExpiredError ? { status: SESSION_EXPIRED_STATUS } : {}),
  };
  return reply.code(error.httpStatus).send(body);
}

/** Turns every error into the spec's envelope; only real faults are 500s. */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      request.log.warn({ key: error.key, reason: error instanceof SessionExpiredError ? error.reason : undefined }, 'request refused');
      return sendFail(request, reply, error);
    }
    // Fastify's own 4xx (malformed JSON, body too large, bad content type) are the caller's mistakes.
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.warn({ code: error.code, message: error.message }, 'malformed request');
      const key = error.statusCode === 429 ? 'common.tooManyRequests' : 'common.invalidParams';
      return sendFail(request, reply, new AppError(key, error.statusCode, { field: error.message }));
    }
    request.log.error({ err: error }, 'server fault');
    return sendFail(request, reply, new AppError('common.serverError', 500));
  });
}
