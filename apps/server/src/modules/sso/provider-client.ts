import * as oidc from 'openid-client';
import { Refusal } from '../../refusal.js';
import { guardedFetch } from '../../security/outbound-fetch.js';
import { OutboundRefused, type OutboundPolicy } from '../../security/outbound.js';
import type { SecretSealer } from '../../security/sealed.js';
import type { ProviderRow } from './repository.js';

/** Every call to an identity provider ends within this. */
export const PROVIDER_TIMEOUT_MS = 5_000;
/** An identity provider's documents are a few KiB; a longer answer is refused. */
const PROVIDER_MAX_BYTES = 1024 * 1024;

/**
 * openid-client's view of an organisation's provider. Every call it makes (discovery, token,
 * JWKS, refresh) goes through the outbound guard (security/outbound.ts): https only unless
 * OUTBOUND_ALLOW_HOSTS names the host, no link-local or metadata address, private ones only when
 * the deployment allows them, the connection to the checked address, a timeout. The metadata
 * and keys are read again each time, so rotated keys are picked up at once.
 */
export class ProviderClients {
  private readonly fetch: ReturnType<typeof guardedFetch>;

  constructor(private readonly deps: { sealer: SecretSealer; policy: OutboundPolicy }) {
    this.fetch = guardedFetch(deps.policy, {
      timeoutMs: PROVIDER_TIMEOUT_MS,
      maxBytes: PROVIDER_MAX_BYTES,
      httpsOnly: true,
    });
  }

  /** The provider's configuration; a Refusal (`sso.issuerNotAllowed` or `sso.issuerUnreachable`) when it cannot be read. */
  async configuration(provider: ProviderRow): Promise<oidc.Configuration> {
    const issuer = new URL(provider.issuer);
    const secret = provider.client_secret === '' ? '' : this.deps.sealer.open(provider.client_secret);
    const customFetch = this.fetch as oidc.CustomFetch;
    try {
      const config = await oidc.discovery(
        issuer,
        provider.client_id,
        secret === '' ? undefined : secret,
        secret === '' ? oidc.None() : oidc.ClientSecretBasic(secret),
        {
          timeout: PROVIDER_TIMEOUT_MS / 1000,
          [oidc.customFetch]: customFetch,
          // The guarded fetch decides: plain http only to a host OUTBOUND_ALLOW_HOSTS names.
          execute: [oidc.allowInsecureRequests],
        },
      );
      config[oidc.customFetch] = customFetch;
      return config;
    } catch (error) {
      throw new Refusal(refusedByGuard(error) ? 'sso.issuerNotAllowed' : 'sso.issuerUnreachable', 'declined');
    }
  }
}

/** Whether the outbound guard refused the address (itself or as the cause openid-client wraps). */
export function refusedByGuard(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++)
    if (e instanceof OutboundRefused) return true;
  return false;
}
