import dns from 'node:dns/promises';
import net from 'node:net';
import type { CustomFetch } from 'openid-client';
import { Refusal } from '../../refusal.js';

/** Every call to an identity provider ends within this. */
export const OUTBOUND_TIMEOUT_MS = 5_000;

/** Loopback, private, link-local, unique-local and unspecified addresses. */
export function isInternalAddress(address: string): boolean {
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (net.isIPv4(ip)) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  const lower = ip.toLowerCase();
  return (
    lower === '::' ||
    lower === '::1' ||
    lower.startsWith('fc') ||
    lower.startsWith('fd') ||
    lower.startsWith('fe8') ||
    lower.startsWith('fe9') ||
    lower.startsWith('fea') ||
    lower.startsWith('feb')
  );
}

/**
 * The minimal outbound rule of the SSO module (the lead unifies it with security/outbound.ts of
 * the webhooks branch): https to public addresses; a host named in OUTBOUND_ALLOW_HOSTS may also be
 * internal and plain http. Refuses with `sso.issuerNotAllowed`.
 */
export async function checkOutbound(url: URL, allowHosts: readonly string[]): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (allowHosts.includes(host)) return;
  if (url.protocol !== 'https:') throw new Refusal('sso.issuerNotAllowed', 'invalid');
  const addresses = net.isIP(host)
    ? [host]
    : await dns.lookup(host, { all: true }).then(
        (found) => found.map((a) => a.address),
        () => {
          throw new Refusal('sso.issuerUnreachable', 'declined');
        },
      );
  if (addresses.some(isInternalAddress)) throw new Refusal('sso.issuerNotAllowed', 'invalid');
}

/** A fetch for openid-client: every URL checked, every call bounded in time. */
export function guardedFetch(allowHosts: readonly string[]): CustomFetch {
  return async (input, init) => {
    await checkOutbound(new URL(input), allowHosts);
    const timeout = AbortSignal.timeout(OUTBOUND_TIMEOUT_MS);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(input, {
      method: init.method,
      headers: init.headers,
      body: init.body as RequestInit['body'],
      signal,
      redirect: 'manual',
    });
  };
}
