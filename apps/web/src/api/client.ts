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
    /** The message's catalog key and variables (contract namespace), when the server sent them. */
    readonly catalogMessage: { key: string; vars: Record<string, string | number> } | undefined = undefined,
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
  /** Cancels the request (a closed dialog, a newer poll): the call rejects with RequestAborted and nobody is told. */
  signal?: AbortSignal;
  /** Send a POST's params as a JSON body: for calls whose params hold lists or objects ("JSON body"). */
  json?: boolean;
}

/** The caller cancelled the request on purpose; there is nothing to tell the user. */
export class RequestAborted extends Error {
  constructor() {
    super('request aborted');
    this.name = 'RequestAborted';
  }
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

async function send(
  def: CallDef,
  params: unknown,
  multipart?: FormData,
  signal?: AbortSignal,
  json = false,
): Promise<{ status: number; body: unknown }> {
  const form = toForm(params);
  const encoded = form.toString();
  const query = def.method === 'GET' && encoded ? `?${encoded}` : '';
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': currentLanguage(),
  };
  // A multipart body sets its own Content-Type (with the boundary).
  const post = multipart
    ? { headers, body: multipart }
    : json
      ? { headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(params ?? {}) }
      : { headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body: encoded };
  let response: Response;
  try {
    response = await fetch(def.path + query, {
      method: def.method,
      credentials: 'same-origin',
      headers: def.method === 'POST' ? post.headers : headers,
      body: def.method === 'POST' ? post.body : undefined,
      signal,
    });
  } catch {
    if (signal?.aborted) throw new RequestAborted();
    return { status: NO_REPLY, body: undefined };
  }
  const text = await response.text().catch(() => '');
  if (signal?.aborted) throw new RequestAborted();
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
export async function call<C extends CallDef>(
  def: C,
  params: ParamsOf<C>,
  options: CallOptions = {},
): Promise<ReplyOf<C>> {
  return settle(def, await send(def, params, undefined, options.signal, options.json), options);
}

/** Make one contract call whose body is multipart (a file upload); replies are handled as by `call`. */
export async function upload<C extends CallDef>(
  def: C,
  body: FormData,
  options: CallOptions = {},
): Promise<ReplyOf<C>> {
  return settle(def, await send(def, {}, body), options);
}

/** `upload` that reports the share of the body sent so far (0 to 1): fetch cannot, so this uses XMLHttpRequest. */
export async function uploadWithProgress<C extends CallDef>(
  def: C,
  body: FormData,
  onProgress: (sent: number) => void,
  options: CallOptions = {},
): Promise<ReplyOf<C>> {
  const outcome = await new Promise<{ status: number; body: unknown }>((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', def.path);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let parsed: unknown;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        parsed = undefined;
      }
      resolve({ status: xhr.status, body: parsed });
    };
    xhr.onerror = () => resolve({ status: NO_REPLY, body: undefined });
    xhr.onabort = () => resolve({ status: NO_REPLY, body: undefined });
    xhr.send(body);
  });
  return settle(def, outcome, options);
}

async function settle<C extends CallDef>(
  def: C,
  { status, body }: { status: number; body: unknown },
  options: CallOptions,
): Promise<ReplyOf<C>> {
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
    outcome.kind === 'fail' && outcome.key ? { key: outcome.key, vars: outcome.vars ?? {} } : undefined,
  );
}

/**
 * For catch blocks after `call`: an ApiError has already been shown to the user (notice, modal
 * or error page), so there is nothing left to do; anything else is a bug and is rethrown.
 */
export function alreadyReported(error: unknown): void {
  if (!(error instanceof ApiError) && !(error instanceof RequestAborted)) throw error;
}
