import type { CallDef, Language, ParamsOf, ReplyOf } from '@panelfleet/contract';
import { PATHS } from '../paths';
import { classifyReply, NO_REPLY, type FailureKind, type Outcome } from './classify';

/** A call that did not succeed; the user has already been told (notice, modal or error page). */
export class ApiError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly hhtMsg: string | undefined,
    readonly hhtErrorCode: string | undefined,
    readonly httpStatus: number,
  ) {
    super(hhtMsg || kind);
    this.name = 'ApiError';
  }
}

/** How the client reaches the user; the React tree installs the real ones. */
export interface ReplyEffects {
  sessionExpired(): void;
  fail(message: string): void;
  navigate(path: string): void;
}

const ERROR_PAGE_OF: Partial<Record<FailureKind, string>> = {
  serverError: PATHS.errorService,
  notFound: PATHS.errorPage,
  network: PATHS.errorNet,
};

export const errorPathFor = (kind: FailureKind): string => ERROR_PAGE_OF[kind] ?? PATHS.errorService;

let effects: ReplyEffects = {
  sessionExpired: () => window.location.assign(PATHS.login),
  fail: () => undefined,
  navigate: (path) => window.location.assign(path),
};
let currentLanguage: () => Language = () => 'zh-CN';

export function configureClient(options: { effects?: ReplyEffects; language?: () => Language }): void {
  if (options.effects) effects = options.effects;
  if (options.language) currentLanguage = options.language;
}

export interface CallOptions {
  /** Leave a fail reply to the caller (e.g. to branch on hhtErrorCode) instead of a notice. */
  quietFail?: boolean;
}

function toForm(params: unknown): URLSearchParams {
  const form = new URLSearchParams();
  if (typeof params !== 'object' || params === null) return form;
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    form.append(key, String(value));
  }
  return form;
}

async function send(def: CallDef, params: unknown, multipart?: FormData): Promise<{ status: number; body: unknown }> {
  const form = toForm(params);
  const encoded = form.toString();
  const query = def.method === 'GET' && encoded ? `?${encoded}` : '';
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': currentLanguage() };
  // A multipart body sets its own Content-Type (with the boundary).
  const post = multipart
    ? { headers, body: multipart }
    : { headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body: encoded };
  let response: Response;
  try {
    response = await fetch(def.path + query, {
      method: def.method,
      credentials: 'same-origin',
      headers: def.method === 'POST' ? post.headers : headers,
      body: def.method === 'POST' ? post.body : undefined,
    });
  } catch {
    return { status: NO_REPLY, body: undefined };
  }
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}

function report(outcome: Exclude<Outcome, { kind: 'ok' }>, options: CallOptions): void {
  switch (outcome.kind) {
    case 'sessionExpired':
      effects.sessionExpired();
      return;
    case 'fail':
      if (!options.quietFail) effects.fail(outcome.message);
      return;
    default:
      effects.navigate(errorPathFor(outcome.kind));
  }
}

/** Make one contract call; resolves with the typed success reply or rejects with ApiError. */
export async function call<C extends CallDef>(def: C, params: ParamsOf<C>, options: CallOptions = {}): Promise<ReplyOf<C>> {
  return settle(def, await send(def, params), options);
}

/** Make one contract call whose body is multipart (a file upload); replies are handled as by `call`. */
export async function upload<C extends CallDef>(def: C, body: FormData, options: CallOptions = {}): Promise<ReplyOf<C>> {
  return settle(def, await send(def, {}, body), options);
}

async function settle<C extends CallDef>(def: C, { status, body }: { status: number; body: unknown }, options: CallOptions): Promise<ReplyOf<C>> {
  const outcome = classifyReply(status, body);
  if (outcome.kind === 'ok') {
    const parsed = def.reply.safeParse(outcome.body);
    if (parsed.success) return parsed.data as ReplyOf<C>;
    // The server broke the contract: treat it as a server fault rather than render bad data.
    console.error(`Reply of ${def.method} ${def.path} does not match the contract`, parsed.error.issues);
    report({ kind: 'serverError' }, options);
    throw new ApiError('serverError', undefined, undefined, status);
  }
  report(outcome, options);
  throw new ApiError(
    outcome.kind,
    outcome.kind === 'fail' || outcome.kind === 'sessionExpired' ? outcome.message : undefined,
    outcome.kind === 'fail' ? outcome.code : undefined,
    status,
  );
}

/**
 * For catch blocks after `call`: an ApiError has already been shown to the user (notice, modal
 * or error page), so there is nothing left to do; anything else is a bug and is rethrown.
 */
export function alreadyReported(error: unknown): void {
  if (!(error instanceof ApiError)) throw error;
}
