import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasMessage, type CallDef, type Language, type ParsedParamsOf, type ReplyOf } from '@panelfleet/contract';
import type { z } from 'zod';
import { AppError } from './app-error.js';
import { requestLanguage } from './language.js';

/** The signed-in user as the server knows it for one request. */
export interface SessionUser {
  id: number;
  orgId: number;
  userName: string;
  userType: '0' | '1' | '2' | '3' | '4';
  activated: 0 | 1;
  programRole: number;
}

export interface CallContext<P> {
  params: P;
  language: Language;
  ip: string;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface SessionCallContext<P> extends CallContext<P> {
  session: { id: string; user: SessionUser };
}

export type Authenticate = (request: FastifyRequest) => Promise<{ id: string; user: SessionUser }>;

type Handler<C extends CallDef> = (
  ctx: C['access'] extends 'session' ? SessionCallContext<ParsedParamsOf<C>> : CallContext<ParsedParamsOf<C>>,
) => Promise<ReplyOf<C>>;

/** The first problem of a failed parse, as a message key the caller can read. */
export function validationError(error: z.ZodError): AppError {
  const issue = error.issues[0];
  if (issue && hasMessage(issue.message)) return new AppError(issue.message, 400);
  const field = issue?.path.join('.') || 'body';
  return new AppError('common.invalidParams', 400, { field });
}

export interface Router {
  add<C extends CallDef>(def: C, handler: NoInfer<Handler<C>>): void;
}

/**
 * Registers contract calls: the call's zod schema validates the query (GET) or the form or
 * JSON body (POST); a refusal never reaches the handler, and a session call never runs
 * without a live session.
 */
export function createRouter(app: FastifyInstance, authenticate: Authenticate): Router {
  return {
    add(def, handler) {
      app.route({
        method: def.method,
        url: def.path,
        handler: async (request, reply) => {
          const raw = def.method === 'GET' ? request.query : (request.body ?? {});
          const parsed = def.params.safeParse(raw ?? {});
          const session = def.access === 'session' ? await authenticate(request) : undefined;
          if (!parsed.success) throw validationError(parsed.error);
          const ctx = { params: parsed.data, language: requestLanguage(request), ip: request.ip, request, reply, session };
          return handler(ctx as Parameters<typeof handler>[0]);
        },
      });
    },
  };
}
