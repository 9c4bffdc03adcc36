import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * The outbound guard: where the server may send a request of its own (webhooks, the identity
 * providers of single sign-on through outbound-fetch.ts). The host is resolved once, every address it resolves to is
 * checked, and the connection goes to the checked address (no second lookup that DNS rebinding
 * could answer differently). Link-local and cloud metadata addresses are always refused; loopback,
 * private, unique-local and shared (carrier-grade NAT) ranges only unless the deployment allows
 * private receivers (OUTBOUND_ALLOW_PRIVATE) or names the host (OUTBOUND_ALLOW_HOSTS). Redirects
 * are never followed, and every request has a timeout.
 */
export interface OutboundPolicy {
  /** Loopback and private ranges allowed (on-premises receivers). */
  allowPrivate: boolean;
  /** Hosts (names or addresses, lower case) that may be loopback or private although allowPrivate is off. */
  allowHosts?: readonly string[];
}

/** Whether the policy names this URL's host (OUTBOUND_ALLOW_HOSTS). */
export function isAllowedHost(url: URL, policy: OutboundPolicy): boolean {
  return (policy.allowHosts ?? []).includes(hostOf(url));
}

const hostOf = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

/** The request went nowhere: the address is not allowed (reason in words). */
export class OutboundRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'OutboundRefused';
  }
}

/** Names that stand for a cloud's metadata service whatever they resolve to. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

const blocks = (entries: Array<[string, number]>, family: 'ipv4' | 'ipv6') => {
  const list = new net.BlockList();
  for (const [address, prefix] of entries) list.addSubnet(address, prefix, family);
  return list;
};

/** Never allowed: link-local (cloud metadata lives there), metadata, "this host", multicast, reserved. */
const ALWAYS_REFUSED_V4 = blocks(
  [
    ['0.0.0.0', 8],
    ['169.254.0.0', 16],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ],
  'ipv4',
);
const ALWAYS_REFUSED_V6 = blocks(
  [
    ['::', 128],
    ['fe80::', 10],
    ['ff00::', 8],
    ['fd00:ec2::254', 128],
  ],
  'ipv6',
);
/** Allowed only with OUTBOUND_ALLOW_PRIVATE: loopback, private, shared address space, unique local. */
const PRIVATE_V4 = blocks(
  [
    ['127.0.0.0', 8],
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10],
  ],
  'ipv4',
);
const PRIVATE_V6 = blocks(
  [
    ['::1', 128],
    ['fc00::', 7],
  ],
  'ipv6',
);

/** Why the address may not be reached, or null when it may. */
export function addressRefusal(address: string, policy: OutboundPolicy): string | null {
  const family = net.isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  if (family === 6) {
    // An IPv4 address written as IPv6 (::ffff:169.254.169.254) is judged as the IPv4 address.
    const mapped = mappedIpv4(address);
    if (mapped) return addressRefusal(mapped, policy);
    if (ALWAYS_REFUSED_V6.check(address, 'ipv6'))
      return `${address} is a link-local, metadata or unspecified address`;
    if (!policy.allowPrivate && PRIVATE_V6.check(address, 'ipv6'))
      return `${address} is a loopback or private address (OUTBOUND_ALLOW_PRIVATE is off)`;
    return null;
  }
  if (ALWAYS_REFUSED_V4.check(address, 'ipv4'))
    return `${address} is a link-local, metadata or unspecified address`;
  if (!policy.allowPrivate && PRIVATE_V4.check(address, 'ipv4'))
    return `${address} is a loopback or private address (OUTBOUND_ALLOW_PRIVATE is off)`;
  return null;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:yyyy), if it is one. */
function mappedIpv4(address: string): string | null {
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export interface CheckedTarget {
  url: URL;
  /** The address the connection goes to: the one that was checked. */
  address: string;
  family: 4 | 6;
}

/** Resolves the URL's host and checks every address; throws OutboundRefused when any is not allowed. */
export async function checkTarget(
  rawUrl: string,
  policy: OutboundPolicy,
  resolve: (host: string) => Promise<Array<{ address: string; family: number }>> = resolveAll,
): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutboundRefused('the URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundRefused('only http:// and https:// addresses are allowed');
  if (url.username || url.password) throw new OutboundRefused('the URL may not carry a user or password');
  const host = hostOf(url);
  // A named host may be private; link-local and metadata addresses stay refused.
  const rule = isAllowedHost(url, policy) ? { allowPrivate: true } : policy;
  if (METADATA_NAMES.has(host)) throw new OutboundRefused(`${host} is a cloud metadata service`);
  let addresses: Array<{ address: string; family: number }>;
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      throw new OutboundRefused(`the name ${host} does not resolve (${(error as Error).message})`);
    }
  }
  if (!addresses.length) throw new OutboundRefused(`the name ${host} does not resolve`);
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, rule);
    if (refusal) throw new OutboundRefused(refusal);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

async function resolveAll(host: string) {
  return dns.promises.lookup(host, { all: true, verbatim: true });
}

export interface OutboundAnswer {
  status: number;
  durationMs: number;
  /** The start of the answer's body (at most 1 KiB), for the delivery log. */
  excerpt: string;
}

/** POSTs a webhook's JSON `body` to the checked target (see `sendChecked`). */
export async function postChecked(
  target: CheckedTarget,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<OutboundAnswer> {
  const answer = await sendChecked(
    target,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'PanelFleet-Webhooks/1', ...headers },
      body: Buffer.from(body, 'utf8'),
    },
    { timeoutMs, keepBytes: 1024 },
  );
  return {
    status: answer.status,
    durationMs: answer.durationMs,
    excerpt: answer.body.toString('utf8').slice(0, 1024),
  };
}

export interface CheckedRequest {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Ends the request early (the caller gave up). */
  signal?: AbortSignal;
}

export interface CheckedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The answer's body, at most `keepBytes` of it. */
  body: Buffer;
  /** False when the body was longer than `keepBytes` (the rest was read and dropped). */
  whole: boolean;
  durationMs: number;
}

/**
 * Sends a request to the checked target: to its checked address (TLS still checks the certificate
 * against the host name), no redirect followed (a 3xx is an answer like any other), the whole
 * exchange bounded by `timeoutMs`. Throws an Error whose message says what went wrong (timeout,
 * refused connection).
 */
export async function sendChecked(
  target: CheckedTarget,
  request: CheckedRequest,
  limits: { timeoutMs: number; keepBytes: number },
): Promise<CheckedAnswer> {
  // Real time, whatever clock the server runs on: this is how long the receiver took.
  const started = performance.now();
  const { url, address, family } = target;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<CheckedAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { answer: CheckedAnswer } | { error: Error }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      if ('answer' in outcome) resolve(outcome.answer);
      else reject(outcome.error);
    };
    const outgoing = client.request(
      url,
      {
        method: request.method,
        headers: {
          ...request.headers,
          ...(request.body ? { 'content-length': request.body.length.toString() } : {}),
        },
        // The connection goes to the address that was checked, whatever the name resolves to now.
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all)
            (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
              { address, family },
            ]);
          else callback(null, address, family);
        },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        let whole = true;
        response.on('data', (chunk: Buffer) => {
          if (kept + chunk.length <= limits.keepBytes) {
            chunks.push(chunk);
            kept += chunk.length;
          } else {
            if (kept < limits.keepBytes) chunks.push(chunk.subarray(0, limits.keepBytes - kept));
            kept = limits.keepBytes;
            whole = false;
          }
        });
        response.on('end', () =>
          finish({
            answer: {
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
              whole,
              durationMs: Math.round(performance.now() - started),
            },
          }),
        );
        response.on('error', (error) => finish({ error: new Error(describeNetworkError(error)) }));
      },
    );
    const timer = setTimeout(() => {
      const error = new Error(`no answer within ${limits.timeoutMs} ms (timeout)`);
      finish({ error });
      outgoing.destroy(error);
    }, limits.timeoutMs);
    const onAbort = () => {
      const error = new Error('the request was abandoned');
      finish({ error });
      outgoing.destroy(error);
    };
    if (request.signal?.aborted) onAbort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', (error) => finish({ error: new Error(describeNetworkError(error)) }));
    outgoing.end(request.body);
  });
}

function describeNetworkError(error: Error & { code?: string }): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'the receiver refused the connection';
    case 'ECONNRESET':
      return 'the receiver closed the connection';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the receiver cannot be reached';
    default:
      return error.code ? `${error.message} (${error.code})` : error.message;
  }
}
