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

async function send(def: CallDef, params: unknown): Promise<{ status: number; body: unknown }> {
  const form = toForm(params);
  const encoded = form.toString();
  const query = def.method === 'GET' && encoded ? `?${encoded}` : '';
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': currentLanguage() };
  let response: Response;
  try {
    response = await fetch(def.path + query, {
      method: def.method,
      credentials: 'same-origin',
      headers: def.method === 'POST' ? { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' } : headers,
      body: def.method === 'POST' ? encoded : undefined,
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
  const { status, body } = await send(def, params);
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
