import { checkTarget, isAllowedHost, OutboundRefused, sendChecked, type OutboundPolicy } from './outbound.js';

/** What a guarded fetch is given: openid-client's custom fetch options (a subset of fetch's). */
export interface GuardedFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | Uint8Array | ArrayBuffer | ReadableStream | null;
  signal?: AbortSignal | null;
}

export interface GuardedFetchLimits {
  timeoutMs: number;
  /** A longer answer is refused (an identity provider's documents are a few KiB). */
  maxBytes: number;
  /** Plain http only to a host OUTBOUND_ALLOW_HOSTS names (an identity provider inside the network). */
  httpsOnly: boolean;
  /** How host names are resolved (the system's resolver unless a test gives one). */
  resolve?: Parameters<typeof checkTarget>[2];
}

/**
 * A fetch through the outbound guard (outbound.ts) for libraries that take one (openid-client's
 * custom fetch): every URL is checked, the connection goes to the checked address, no redirect is
 * followed and every call ends within its timeout. A refused address throws OutboundRefused.
 */
export function guardedFetch(policy: OutboundPolicy, limits: GuardedFetchLimits) {
  return async (input: string | URL, init: GuardedFetchInit = {}): Promise<Response> => {
    const url = new URL(input);
    if (limits.httpsOnly && url.protocol !== 'https:' && !isAllowedHost(url, policy))
      throw new OutboundRefused('only https:// addresses are allowed (or a host OUTBOUND_ALLOW_HOSTS names)');
    const target = await checkTarget(url.href, policy, limits.resolve);
    const answer = await sendChecked(
      target,
      {
        method: init.method ?? 'GET',
        headers: init.headers ?? {},
        body: bodyBytes(init.body),
        ...(init.signal ? { signal: init.signal } : {}),
      },
      { timeoutMs: limits.timeoutMs, keepBytes: limits.maxBytes },
    );
    if (!answer.whole) throw new Error(`the answer is longer than ${limits.maxBytes} bytes`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    // A Response takes no body for these statuses.
    const bodiless = answer.status === 204 || answer.status === 304;
    return new Response(bodiless ? null : new Uint8Array(answer.body), { status: answer.status, headers });
  };
}

function bodyBytes(body: GuardedFetchInit['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof URLSearchParams) return Buffer.from(body.toString(), 'utf8');
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new Error('a streamed request body is not supported by the outbound guard');
}
