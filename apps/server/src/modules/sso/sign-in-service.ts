import type { FastifyReply, FastifyRequest } from 'fastify';
import { sso, oplog } from '@panelfleet/contract';
import * as oidc from 'openid-client';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { OperationLog } from '../operation-log/repository.js';
import { domainOf, mappedRole, parseMappings, typesOfKind } from './claims.js';
import type { SecretSealer } from '../../security/sealed.js';
import type { ProviderClients } from './provider-client.js';
import type { ProviderRow, SsoRepository } from './repository.js';
import { CALLBACK_PATH } from './settings-service.js';

/** The cookie binding a sign-in under way to the browser that started it. */
export const SSO_COOKIE = 'pf_sso';
/** A sign-in under way lives this long. */
export const LOGIN_TTL_MS = 10 * 60_000;
const DEFAULT_RETURN = '/home';

export interface SsoSignInDeps {
  repository: SsoRepository;
  clients: ProviderClients;
  /** Seals the refresh tokens the providers give (the check of the provider uses them). */
  refreshSealer: SecretSealer;
  clock: Clock;
  operations: OperationLog;
  baseUrl: string;
  secureCookies: boolean;
  /** Starts a normal console session and gives its id (the session module's). */
  startSession: (request: FastifyRequest, reply: FastifyReply, userId: number) => Promise<string>;
}

/**
 * The scopes asked: offline_access too where the provider offers it, so that it gives a refresh
 * token the check of the provider (idp-check.ts) can use.
 */
function scopeFor(config: oidc.Configuration): string {
  const offered = config.serverMetadata().scopes_supported ?? [];
  return offered.includes('offline_access') ? 'openid email profile offline_access' : 'openid email profile';
}

/** A refusal of the flow with the reason kept for the operation log. */
class SsoRefusal extends Refusal {
  constructor(
    key: string,
    readonly why: string,
  ) {
    super(key, 'declined');
  }
}

/**
 * Sign-in through an organisation's OIDC provider: authorization code flow with PKCE, state and
 * nonce bound to the browser and used once; the ID token is checked by openid-client (issuer,
 * audience, expiry, signature). The provider's metadata and keys are read again at every sign-in,
 * so rotated keys are picked up at once. The refresh token it gives is kept, sealed, for the
 * check of the provider.
 */
export class SsoSignInService {
  constructor(private readonly deps: SsoSignInDeps) {}

  /** The provider for an organisation name or an e-mail address of one of its domains. */
  async find(name: string) {
    const wanted = name.trim().toLowerCase();
    const providers = await this.deps.repository.enabledProviders();
    const found = wanted.includes('@')
      ? providers.find((p) => p.email_domains.split(',').includes(domainOf(wanted)))
      : providers.find((p) => p.org_name.toLowerCase() === wanted);
    if (!found) throw new Refusal('sso.notFound', 'declined');
    return { providerId: found.id, displayName: found.display_name };
  }

  /** The provider's authorization URL; the browser's sign-in is kept under the state's hash. */
  async start(request: FastifyRequest, reply: FastifyReply, providerId: number, returnTo?: string) {
    const { repository, clock, secureCookies } = this.deps;
    const provider = await repository.enabledProvider(providerId);
    if (!provider) throw new Refusal('sso.notFound', 'notFound');
    const config = await this.deps.clients.configuration(provider);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const browser = request.cookies[SSO_COOKIE] ?? randomToken();
    await repository.insertLogin({
      id: tokenHash(state),
      browser: tokenHash(browser),
      provider_id: provider.id,
      nonce,
      verifier,
      return_to: returnTo && sso.isConsolePath(returnTo) ? returnTo : DEFAULT_RETURN,
      created_at: clock.now(),
    });
    reply.setCookie(SSO_COOKIE, browser, {
      path: '/platform/sso',
      httpOnly: true,
      // Lax: the provider's redirect back is a top-level navigation from its site.
      sameSite: 'lax',
      secure: secureCookies,
      maxAge: LOGIN_TTL_MS / 1000,
    });
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(),
      scope: scopeFor(config),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
  }

  private redirectUri() {
    return `${this.deps.baseUrl}${CALLBACK_PATH}`;
  }

  /**
   * The provider's answer: the console path to go to with a new session, or a Refusal whose key
   * the sign-in page shows. Every outcome is in the operation log.
   */
  async finish(request: FastifyRequest, reply: FastifyReply, query: { state?: string; error?: string }) {
    const { repository, clock } = this.deps;
    const browser = request.cookies[SSO_COOKIE];
    reply.clearCookie(SSO_COOKIE, { path: '/platform/sso' });
    const login =
      query.state && browser
        ? await repository.takeLogin(tokenHash(query.state), tokenHash(browser))
        : undefined;
    if (!login || clock.now() - login.created_at > LOGIN_TTL_MS)
      throw new Refusal('sso.stateInvalid', 'declined');
    const provider = await repository.enabledProvider(login.provider_id);
    if (!provider) throw new Refusal('sso.notFound', 'declined');
    let email = '';
    try {
      if (query.error) throw new SsoRefusal('sso.providerRefused', query.error);
      const { claims, refreshToken } = await this.verifiedClaims(provider, request, login);
      email = typeof claims.email === 'string' ? claims.email : '';
      const user = await this.userFor(provider, claims, email);
      await repository.signedInThrough(
        provider.id,
        String(claims.sub),
        refreshToken === undefined ? null : this.deps.refreshSealer.seal(refreshToken),
        clock.now(),
      );
      const sessionId = await this.deps.startSession(request, reply, user.id);
      await repository.recordSession(sessionId, provider.id, user.id, clock.now());
      await this.audit(
        provider,
        request.ip,
        email,
        { id: user.id, name: user.user_name, type: user.user_type },
        'success',
      );
      return login.return_to;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      const why = error instanceof SsoRefusal ? error.why : error.key;
      await this.audit(provider, request.ip, email, undefined, why);
      throw new Refusal(error.key, 'declined');
    }
  }

  private async verifiedClaims(
    provider: ProviderRow,
    request: FastifyRequest,
    login: { nonce: string; verifier: string; id: string },
  ): Promise<{ claims: Record<string, unknown>; refreshToken: string | undefined }> {
    const config = await this.deps.clients.configuration(provider);
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const current = new URL(`${this.redirectUri()}${query}`);
    const state = current.searchParams.get('state') ?? '';
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: login.verifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new SsoRefusal('sso.tokenInvalid', 'no ID token');
      return { claims: claims as Record<string, unknown>, refreshToken: tokens.refresh_token };
    } catch (error) {
      if (error instanceof Refusal) throw error;
      const why =
        error instanceof Error
          ? `${(error as { code?: string }).code ?? error.name}: ${error.message}`
          : 'unknown';
      throw new SsoRefusal('sso.tokenInvalid', why.slice(0, 160));
    }
  }

  private async userFor(provider: ProviderRow, claims: Record<string, unknown>, email: string) {
    const { repository, clock } = this.deps;
    const subject = String(claims.sub);
    const linked = await repository.userOfIdentity(provider, subject);
    const user = linked ?? (await this.linkOrCreate(provider, claims, email, subject));
    const now = clock.now();
    if (user.enabled !== 1) throw new SsoRefusal('sso.disabled', 'disabled');
    if (
      (user.valid_begin !== null && now < user.valid_begin) ||
      (user.valid_end !== null && now > user.valid_end)
    )
      throw new SsoRefusal('login.outsideValidity', 'outside validity');
    return user;
  }

  private async linkOrCreate(
    provider: ProviderRow,
    claims: Record<string, unknown>,
    email: string,
    subject: string,
  ) {
    const { repository, clock } = this.deps;
    if (email === '' || claims.email_verified !== true)
      throw new SsoRefusal('sso.emailUnverified', 'e-mail unverified');
    const domains = provider.email_domains.split(',').filter(Boolean);
    if (!domains.includes(domainOf(email)))
      throw new SsoRefusal('sso.domainNotAllowed', `domain ${domainOf(email)}`);
    const existing = await repository.usersByEmail(provider.org_id, email);
    if (existing.length === 1 && existing[0]) {
      await repository.linkIdentity(provider.id, subject, existing[0].id, clock.now());
      return existing[0];
    }
    if (existing.length > 1) throw new SsoRefusal('sso.noAccount', 'several users with this e-mail');
    if (provider.jit !== 1) throw new SsoRefusal('sso.noAccount', 'no user, no just-in-time creation');
    const organisation = await repository.organisationKind(provider.org_id);
    const role = mappedRole(claims, parseMappings(provider.mappings), typesOfKind(organisation?.kind ?? ''));
    if (!role) throw new SsoRefusal('sso.noUserType', 'no mapping matched');
    const userName = await this.freeUserName(email);
    const now = clock.now();
    const id = await repository.createLinkedUser(
      {
        org_id: provider.org_id,
        user_name: userName,
        password_hash: '!sso',
        user_type: role.userType,
        activated: 1,
        enabled: 1,
        email,
        program_role: role.programRole,
        valid_begin: null,
        valid_end: null,
        created_at: now,
      },
      provider.id,
      subject,
    );
    return {
      id,
      org_id: provider.org_id,
      user_name: userName,
      user_type: role.userType,
      enabled: 1,
      valid_begin: null,
      valid_end: null,
      email,
    };
  }

  /** The e-mail address as user name, or with a number after it when taken. */
  private async freeUserName(email: string): Promise<string> {
    const base = email.slice(0, 60);
    for (let n = 1; n < 100; n++) {
      const name = n === 1 ? base : `${base.slice(0, 60 - String(n).length)}~${n}`;
      if (!(await this.deps.repository.userNameTaken(name))) return name;
    }
    throw new SsoRefusal('sso.noAccount', 'no free user name');
  }

  private audit(
    provider: ProviderRow,
    ip: string,
    email: string,
    user: { id: number; name: string; type: string } | undefined,
    why: string,
  ) {
    return this.deps.operations.record({
      orgId: provider.org_id,
      userId: user?.id ?? null,
      userName: user?.name ?? (email || '-'),
      userType: user?.type ?? '',
      action: 'sso.signIn',
      content: {
        k: 'sso.signIn',
        v: {
          name: provider.display_name,
          email: email || '-',
          result:
            why === 'success' ? oplog.term('ssoResult.success') : oplog.term('ssoResult.refused', { why }),
        },
      },
      ip,
    });
  }

  async purge() {
    await this.deps.repository.purgeLogins(this.deps.clock.now() - LOGIN_TTL_MS);
  }
}
