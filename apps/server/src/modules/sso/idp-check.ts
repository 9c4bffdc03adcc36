import * as oidc from 'openid-client';
import type { Clock } from '../../clock.js';
import type { SecretSealer } from '../../security/sealed.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { ProviderClients } from './provider-client.js';
import type { ProviderRow, SsoRepository } from './repository.js';

/** Identities one run checks at most; the rest wait for the next run (oldest check first). */
const CHECK_BATCH = 500;

type DueIdentity = Awaited<ReturnType<SsoRepository['dueForCheck']>>[number];

export interface IdpCheckSettings {
  /** How often each user with a refresh token is checked at the provider (SSO_CHECK_MINUTES). */
  everyMs: number;
  /** How long a session through a provider that gave no refresh token lives (SSO_SESSION_MAX_MINUTES). */
  sessionMaxMs: number;
  /** How long API tokens live after such a user's last sign-in through the provider (SSO_UNCHECKED_TOKEN_DAYS). */
  uncheckedTokenMs: number;
}

/** What one run did. */
export interface IdpCheckSummary {
  /** Users the provider still answers for. */
  kept: number;
  /** Users whose grant the provider ended: sessions and API tokens ended. */
  ended: number;
  /** Users not checked this time (provider unreachable or answering an error): checked again next run. */
  failed: number;
  /** Sessions ended because they outlived SSO_SESSION_MAX_MINUTES without a refresh token. */
  expired: number;
  /** API tokens revoked because their user has not signed in through such a provider for SSO_UNCHECKED_TOKEN_DAYS. */
  tokensExpired: number;
}

export interface IdpCheckDeps {
  repository: SsoRepository;
  clients: ProviderClients;
  refreshSealer: SecretSealer;
  clock: Clock;
  operations: OperationLog;
  settings: IdpCheckSettings;
  /**
   * How long one run may make calls (real time): well within the job's lease, so that no other
   * instance starts a run beside it and spends a refresh token twice (which a provider that
   * rotates them takes for a stolen token). Users not reached wait for the next run.
   */
  runBudgetMs: number;
  /** Ends every session of a user (the session module's). */
  endSessions: (userId: number) => Promise<number>;
  /** Ends one session (the session module's). */
  endSession: (sessionId: string) => Promise<void>;
  /** Revokes every API token of a user (the API token module's). */
  revokeTokens: (userId: number) => Promise<number>;
  warn: (details: Record<string, unknown>, message: string) => void;
}

/** `unreachable`: no answer from the provider at all (counted as failed). */
type Outcome = 'kept' | 'ended' | 'failed' | 'unreachable';

/**
 * The check of the identity providers: a user disabled at the organisation's provider loses
 * sessions and API tokens at the next check. Each user signed in through a provider that gave a
 * refresh token is checked every SSO_CHECK_MINUTES with a refresh grant: `invalid_grant` (the
 * grant revoked, the account disabled or deleted) ends all the user's sessions and API tokens,
 * is written in the operation log, and the user must sign in through the provider again (the
 * password is refused until then). A provider that cannot be reached or answers another error
 * ends nothing: the user is checked again at the next run. A session through a provider that
 * gave no refresh token cannot be checked, so it lives at most SSO_SESSION_MAX_MINUTES.
 */
export class IdpCheck {
  constructor(private readonly deps: IdpCheckDeps) {}

  async run(): Promise<IdpCheckSummary> {
    const { repository, clock, settings } = this.deps;
    const summary: IdpCheckSummary = { kept: 0, ended: 0, failed: 0, expired: 0, tokensExpired: 0 };
    await repository.purgeEndedSessions();
    for (const sessionId of await repository.uncheckableSessionsBefore(clock.now() - settings.sessionMaxMs)) {
      await this.deps.endSession(sessionId);
      await repository.forgetSession(sessionId);
      summary.expired++;
    }
    summary.tokensExpired = await this.expireUncheckableTokens();
    const due = await repository.dueForCheck(clock.now() - settings.everyMs, CHECK_BATCH);
    const configurations = new Map<number, Promise<oidc.Configuration | undefined>>();
    // Real time, whatever clock the server runs on: the budget guards the job's lease.
    const started = performance.now();
    for (const identity of due) {
      if (performance.now() - started > this.deps.runBudgetMs) break;
      let configuration = configurations.get(identity.provider_id);
      if (!configuration) {
        configuration = this.configurationOf(identity.provider_id);
        configurations.set(identity.provider_id, configuration);
      }
      const outcome = await this.checkOne(identity, await configuration);
      summary[outcome === 'unreachable' ? 'failed' : outcome]++;
      // A provider that did not answer is not asked again this run (its users wait for the next).
      if (outcome === 'unreachable') configurations.set(identity.provider_id, Promise.resolve(undefined));
    }
    return summary;
  }

  /**
   * API tokens outlive sessions, so those of a user the provider cannot be asked about end when
   * the user has not signed in through it for SSO_UNCHECKED_TOKEN_DAYS: a user disabled there
   * can no longer sign in, and loses the tokens at most that long after (logged).
   */
  private async expireUncheckableTokens(): Promise<number> {
    const { repository, clock, settings, operations } = this.deps;
    let revoked = 0;
    for (const owner of await repository.uncheckableTokenOwners(clock.now() - settings.uncheckedTokenMs)) {
      const tokens = await this.deps.revokeTokens(owner.user_id);
      if (!tokens) continue;
      revoked += tokens;
      await operations.record({
        orgId: owner.org_id,
        userId: owner.user_id,
        userName: owner.user_name,
        userType: owner.user_type,
        action: 'sso.tokensExpired',
        content: {
          k: 'sso.tokensExpired',
          v: { name: owner.display_name, tokens, days: Math.round(settings.uncheckedTokenMs / 86_400_000) },
        },
        ip: '-',
      });
    }
    return revoked;
  }

  private async configurationOf(providerId: number): Promise<oidc.Configuration | undefined> {
    const provider: ProviderRow | undefined = await this.deps.repository.enabledProvider(providerId);
    if (!provider) return undefined;
    try {
      return await this.deps.clients.configuration(provider);
    } catch (error) {
      this.deps.warn(
        { providerId, issuer: provider.issuer, err: error },
        'identity provider check: the provider cannot be read; its users are checked at the next run',
      );
      return undefined;
    }
  }

  private async checkOne(
    identity: DueIdentity,
    configuration: oidc.Configuration | undefined,
  ): Promise<Outcome> {
    const { repository, refreshSealer, clock } = this.deps;
    if (!configuration || identity.refresh_token === null) return 'unreachable';
    try {
      const tokens = await oidc.refreshTokenGrant(configuration, refreshSealer.open(identity.refresh_token));
      await repository.checked(
        identity.provider_id,
        identity.subject,
        tokens.refresh_token === undefined ? undefined : refreshSealer.seal(tokens.refresh_token),
        clock.now(),
      );
      return 'kept';
    } catch (error) {
      if (error instanceof oidc.ResponseBodyError && error.error === 'invalid_grant') {
        await this.endUser(identity, error.error_description ?? error.error);
        return 'ended';
      }
      this.deps.warn(
        { providerId: identity.provider_id, userId: identity.user_id, err: error },
        'identity provider check: no answer for the user; checked again at the next run',
      );
      // The provider answered something else (invalid_client, a server error): the next user may
      // fare better. No answer at all: the provider is down for this run.
      return error instanceof oidc.ResponseBodyError ? 'failed' : 'unreachable';
    }
  }

  private async endUser(identity: DueIdentity, why: string): Promise<void> {
    const { repository, clock, operations } = this.deps;
    await repository.grantEnded(identity.provider_id, identity.subject, clock.now());
    const sessions = await this.deps.endSessions(identity.user_id);
    const tokens = await this.deps.revokeTokens(identity.user_id);
    await repository.forgetSessionsOf(identity.user_id);
    await operations.record({
      orgId: identity.org_id,
      userId: identity.user_id,
      userName: identity.user_name,
      userType: identity.user_type,
      action: 'sso.accessEnded',
      content: {
        k: 'sso.accessEnded',
        v: { name: identity.display_name, sessions, tokens, why: why.slice(0, 160) },
      },
      ip: '-',
    });
  }
}
