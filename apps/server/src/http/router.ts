import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasMessage,
  tokenNeedOf,
  type Access,
  type CallDef,
  type Language,
  type ParsedParamsOf,
  type ReplyOf,
} from '@panelfleet/contract';
import type { z } from 'zod';
import { AppError } from './app-error.js';
import { authorize, isAccess, type PanelCaller, type SessionUser } from './access.js';
import { runWithToken } from './acting-token.js';
import { requestLanguage } from './language.js';

export type { SessionUser } from './access.js';

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

export interface PanelCallContext<P> extends CallContext<P> {
  panel: PanelCaller;
}

export type Authenticate = (request: FastifyRequest) => Promise<{ id: string; user: SessionUser }>;

/** Checks a panel's own credentials (its serial number and device password). */
export type VerifyPanel = (deviceKey: string, password: string) => Promise<boolean>;

type ContextOf<C extends CallDef> = C['access'] extends { kind: 'user' }
  ? SessionCallContext<ParsedParamsOf<C>>
  : C['access'] extends { kind: 'panel' }
    ? PanelCallContext<ParsedParamsOf<C>>
    : CallContext<ParsedParamsOf<C>>;

type Handler<C extends CallDef> = (ctx: ContextOf<C>) => Promise<ReplyOf<C> | undefined>;

/** The multipart limit of a file sent whole in a form (app.ts registers @fastify/multipart with it). */
export const MULTIPART_FILE_LIMIT = 20 * 1024 * 1024;

/**
 * A multipart form of a call that takes a file (`multipartFile`): its fields as form fields and
 * the file as `{ fileName, bytes }` under that name. Another file field, or a file beyond the
 * multipart limit, is refused in the envelope.
 */
async function readMultipartForm(request: FastifyRequest, fileField: string) {
  const form: Record<string, unknown> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') form[part.fieldname] = part.value;
      else if (part.fieldname === fileField)
        form[fileField] = { fileName: part.filename, bytes: await part.toBuffer() };
      else {
        await part.toBuffer();
        throw new AppError('common.invalidParams', 400, { field: part.fieldname });
      }
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('upload.tooLarge', 413, { limit: `${MULTIPART_FILE_LIMIT / 1024 / 1024} MB` });
    throw error;
  }
  return form;
}

/** The first problem of a failed parse, as a message key the caller can read. */
export function validationError(error: z.ZodError): AppError {
  const issue = error.issues[0];
  if (issue && hasMessage(issue.message)) return new AppError(issue.message, 400);
  const field = issue?.path.join('.') || 'body';
  return new AppError('common.invalidParams', 400, { field });
}

export interface RouteOptions {
  /** Also answer HEAD with the same handler (downloads answer their own HEAD without a body). */
  head?: boolean;
  /** A body limit of its own (bytes), for the few calls that take more than the server's default. */
  bodyLimit?: number;
}

export interface Router {
  add<C extends CallDef>(def: C, handler: NoInfer<Handler<C>>, options?: RouteOptions): void;
}

export interface RouterDeps {
  authenticate: Authenticate;
  verifyPanel: VerifyPanel;
  /** The special (OTA staff) deployment: calls declared for standard deployments refuse everyone. */
  special: boolean;
  /**
   * Whether an API token restricted to labels reaches the panels and labels a call's parsed
   * parameters name (modules/api-tokens/targets.ts); absent: tokens are not narrowed.
   */
  tokenReach?: (user: SessionUser, params: unknown) => Promise<boolean>;
}

/**
 * Registers contract calls. Before any handler runs, the call's access declaration is
 * enforced here and only here (who: anonymous, a panel, or signed-in users by type, activation,
 * deployment and program role, and for a user's API token the scope the call needs); then the call's zod schema validates the query (GET) or the
 * form or JSON body (POST). A refusal never reaches the handler, and a call without a
 * declaration cannot be registered.
 */
export function createRouter(app: FastifyInstance, deps: RouterDeps): Router {
  return {
    add(def, handler, options = {}) {
      const access: unknown = def.access;
      if (!isAccess(access)) throw new Error(`${def.method} ${def.path} has no access declaration`);
      const tokenNeed = tokenNeedOf(def);
      app.route({
        method: options.head ? [def.method, 'HEAD'] : def.method,
        url: def.path,
        ...(options.head ? { exposeHeadRoute: false } : {}),
        ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
        handler: async (request, reply) => {
          const caller = await authorize(access as Access, request, reply, deps, tokenNeed);
          const raw =
            def.method === 'GET' || request.method === 'HEAD'
              ? request.query
              : def.multipartFile && request.isMultipart()
                ? await readMultipartForm(request, def.multipartFile)
                : (request.body ?? {});
          const parsed = def.params.safeParse(raw ?? {});
          if (!parsed.success) throw validationError(parsed.error);
          const user = caller.session?.user;
          if (user?.token?.labelIds.length && deps.tokenReach && !(await deps.tokenReach(user, parsed.data)))
            throw new AppError('apiToken.outsideLabels', 403);
          const ctx = {
            params: parsed.data,
            language: requestLanguage(request),
            ip: request.ip,
            request,
            reply,
            ...caller,
          };
          return runWithToken(caller.session?.user.token, () =>
            handler(ctx as Parameters<typeof handler>[0]),
          );
        },
      });
    },
  };
}
