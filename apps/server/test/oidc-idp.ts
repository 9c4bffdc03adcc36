import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/** An account of the test identity provider. */
export interface IdpAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  groups: string[];
}

/** How the provider's token answer is tampered with, to prove the client's checks. */
export type Tamper = (claims: jose.JWTPayload) => jose.JWTPayload;

/**
 * A real OIDC provider (panva's `oidc-provider`) in process on a loopback port. Its login and
 * consent are answered at once for `idp.account` (remembered as one of its accounts); `tamper`
 * re-signs the ID token of the next token answers with the provider's own key and changed claims;
 * `rotateKeys` restarts it with new keys on the same address. It gives refresh tokens (as Keycloak
 * and Entra ID do) unless `refreshTokens` is off (as Google without offline access); `disable`
 * and `revokeGrants` end an account's access; `down` makes every connection fail.
 */
export class TestIdp {
  account: IdpAccount = { sub: 'u1', email: 'ann@school.test', email_verified: true, groups: [] };
  /** Refresh tokens issued at the code exchange. */
  refreshTokens = true;
  /** Every connection is closed unanswered (the provider is down). */
  down = false;
  private readonly accounts = new Map<string, IdpAccount>();
  private readonly disabled = new Set<string>();
  private readonly grants = new Map<string, string[]>();
  private provider!: Provider;
  tamper: Tamper | undefined;
  /** The ID tokens issued, in order (a replay test sends an old one again). */
  issued: string[] = [];
  replay: string | undefined;
  private server!: http.Server;
  private keys!: jose.JWK[];
  issuer = '';

  static async start(client: { clientId: string; clientSecret: string; redirectUri: string }) {
    const idp = new TestIdp(client);
    idp.keys = [await TestIdp.newKey('k1')];
    await idp.listen(0);
    return idp;
  }

  private constructor(
    private readonly client: { clientId: string; clientSecret: string; redirectUri: string },
  ) {}

  private static async newKey(kid: string): Promise<jose.JWK> {
    const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
    return { ...(await jose.exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  }

  private async listen(port: number) {
    const placeholder = http.createServer();
    await new Promise<void>((resolve) => placeholder.listen(port, '127.0.0.1', resolve));
    const actual = (placeholder.address() as AddressInfo).port;
    this.issuer = `http://127.0.0.1:${actual}`;
    const provider = new Provider(this.issuer, this.configuration());
    this.provider = provider;
    provider.on('server_error', () => undefined);
    provider.use(async (ctx, next) => {
      if (ctx.path.startsWith('/interaction/')) {
        const details = await provider.interactionDetails(ctx.req, ctx.res);
        const grant = new provider.Grant({
          accountId: this.account.sub,
          clientId: String(details.params.client_id),
        });
        grant.addOIDCScope('openid email profile offline_access');
        const grantId = await grant.save();
        this.accounts.set(this.account.sub, { ...this.account });
        this.grants.set(this.account.sub, [...(this.grants.get(this.account.sub) ?? []), grantId]);
        await provider.interactionFinished(
          ctx.req,
          ctx.res,
          { login: { accountId: this.account.sub }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
        ctx.respond = false;
        return;
      }
      await next();
      if (ctx.path === '/token' && ctx.status === 200) {
        const body = ctx.body as { id_token?: string };
        if (body.id_token) {
          if (this.replay) body.id_token = this.replay;
          else if (this.tamper) body.id_token = await this.resign(body.id_token, this.tamper);
          this.issued.push(body.id_token);
        }
      }
    });
    this.server = placeholder;
    const answer = provider.callback();
    placeholder.on('request', (request, response) => {
      if (this.down) request.socket.destroy();
      else answer(request, response);
    });
  }

  private async resign(token: string, tamper: Tamper): Promise<string> {
    const claims = tamper(jose.decodeJwt(token));
    const key = this.keys[0]!;
    return new jose.SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid! })
      .sign(await jose.importJWK(key, 'RS256'));
  }

  private configuration(): Configuration {
    return {
      clients: [
        {
          client_id: this.client.clientId,
          client_secret: this.client.clientSecret,
          redirect_uris: [this.client.redirectUri],
          response_types: ['code'],
          grant_types: ['authorization_code', 'refresh_token'],
        },
      ],
      jwks: { keys: this.keys },
      cookies: { keys: ['test-cookie-key'] },
      // Groups in the ID token whatever the scope, as Entra ID and Keycloak's group mapper give them.
      claims: { openid: ['sub', 'groups'], email: ['email', 'email_verified'], profile: ['name'] },
      scopes: ['openid', 'email', 'profile', 'offline_access'],
      // Refresh tokens whatever the prompt (Keycloak's and Entra ID's way), unless turned off.
      issueRefreshToken: (_ctx, client) => this.refreshTokens && client.grantTypeAllowed('refresh_token'),
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, sub) => {
        const account = sub === this.account.sub ? this.account : this.accounts.get(sub);
        return account && !this.disabled.has(sub)
          ? { accountId: sub, claims: () => ({ ...account, name: account.email }) }
          : undefined;
      },
    };
  }

  /** The account is disabled: the provider no longer knows it (its refresh grants fail). */
  disable(sub: string) {
    this.disabled.add(sub);
  }

  /** Every grant the account gave the client is revoked (an administrator's "sign out everywhere"). */
  async revokeGrants(sub: string) {
    for (const id of this.grants.get(sub) ?? []) await (await this.provider.Grant.find(id))?.destroy();
    this.grants.delete(sub);
  }

  /** Restarts the provider on the same address with a new signing key (the old one withdrawn). */
  async rotateKeys(kid: string) {
    const port = Number(new URL(this.issuer).port);
    await this.stop();
    this.keys = [await TestIdp.newKey(kid)];
    await this.listen(port);
  }

  currentKid() {
    return this.keys[0]!.kid!;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Follows the provider's redirects (with its cookies) from the authorization URL until it sends
 * the browser back to `callbackPrefix`; gives that URL.
 */
export async function throughProvider(authorizationUrl: string, callbackPrefix: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(callbackPrefix)) return url;
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      signal: AbortSignal.timeout(10_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`provider stopped at ${url} with ${response.status}: ${await response.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects at the provider');
}
