import { oplog, type sso } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import { Refusal } from '../../refusal.js';
import type { SecretSealer } from '../../security/sealed.js';
import { parseMappings, typesOfKind } from './claims.js';
import type { SsoRepository } from './repository.js';

export type SsoSettingsInput = sso.SaveSettingsParams;

/** The path the identity provider sends the browser back to; the redirect URL to register. */
export const CALLBACK_PATH = '/platform/sso/callback';

/** An organisation's administrator sets up its single sign-on. */
export class SsoSettingsService {
  constructor(
    private readonly deps: {
      repository: SsoRepository;
      /** Seals the client secrets. */
      sealer: SecretSealer;
      clock: Clock;
      operations: OperationLog;
      baseUrl: string;
    },
  ) {}

  async read(caller: SessionUser) {
    const { repository, baseUrl } = this.deps;
    const row = await repository.providerOf(caller.orgId);
    const breakGlass = row?.break_glass_user_id
      ? await repository.userNameOf(caller.orgId, row.break_glass_user_id)
      : undefined;
    return {
      enabled: (row?.enabled === 1 ? 1 : 0) as 0 | 1,
      displayName: row?.display_name ?? '',
      issuer: row?.issuer ?? '',
      clientId: row?.client_id ?? '',
      hasSecret: (row && row.client_secret !== '' ? 1 : 0) as 0 | 1,
      emailDomains: row?.email_domains ?? '',
      mappings: row ? parseMappings(row.mappings) : [],
      jit: (row?.jit === 1 ? 1 : 0) as 0 | 1,
      ssoOnly: (row?.sso_only === 1 ? 1 : 0) as 0 | 1,
      breakGlassUser: breakGlass?.user_name ?? '',
      redirectUrl: `${baseUrl}${CALLBACK_PATH}`,
    };
  }

  async save(caller: SessionUser, ip: string, input: SsoSettingsInput): Promise<void> {
    const { repository, sealer, clock, operations } = this.deps;
    const organisation = await repository.organisationKind(caller.orgId);
    if (!organisation) throw new Refusal('common.notFound', 'notFound');
    const allowed = typesOfKind(organisation.kind);
    if (input.mappings.some((m) => !allowed.includes(m.userType)))
      throw new Refusal('sso.userTypeNotAllowed', 'invalid');
    const current = await repository.providerOf(caller.orgId);
    const secret =
      input.clientSecret !== undefined && input.clientSecret !== ''
        ? sealer.seal(input.clientSecret)
        : (current?.client_secret ?? '');
    let breakGlassId: number | null = null;
    if (input.breakGlassUser !== '') {
      const user = await repository.userIdByName(caller.orgId, input.breakGlassUser);
      if (!user) throw new Refusal('sso.breakGlassUnknown', 'invalid');
      breakGlassId = user.id;
    }
    const domains = input.emailDomains
      .split(/[\s,;]+/)
      .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
      .filter(Boolean);
    await repository.saveProvider(caller.orgId, {
      enabled: input.enabled,
      display_name: input.displayName,
      issuer: input.issuer.replace(/\/+$/, ''),
      client_id: input.clientId,
      client_secret: secret,
      email_domains: [...new Set(domains)].join(','),
      mappings: JSON.stringify(input.mappings),
      jit: input.jit,
      sso_only: input.ssoOnly,
      break_glass_user_id: breakGlassId,
      updated_at: clock.now(),
    });
    await operations.recordBy(caller, ip, 'sso.configure', {
      k: 'sso.configure',
      v: {
        name: input.displayName,
        issuer: input.issuer,
        state: oplog.term(input.enabled === 1 ? 'ssoResult.on' : 'ssoResult.off'),
      },
    });
  }
}
