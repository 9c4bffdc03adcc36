import { dayBounds, type servers } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { LicenseRepository } from '../licenses/repository.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { OrganisationRepository } from '../organisations/repository.js';
import type { ServerRepository } from './repository.js';

interface Identity {
  serverId: string;
  mac: string;
  os: string;
}

/** The platform's side of private deployments: activation with server licenses, reports, the list. */
export class ServerRegistry {
  constructor(
    private readonly deps: {
      servers: ServerRepository;
      licenses: Pick<LicenseRepository, 'findByKey'>;
      organisations: Pick<OrganisationRepository, 'findPlatform'>;
      clock: Clock;
      log: OperationLog;
      reportIntervalMs: number;
    },
  ) {}

  /** First activation or re-activation; spends the license and returns the reporting secret. */
  async enroll(input: Identity & { license: string; mode: 'first' | 'renew' }) {
    const { servers, clock } = this.deps;
    const now = clock.now();
    const license = await this.deps.licenses.findByKey(input.license);
    if (!license) throw new Refusal('register.licenseInvalid');
    if (license.type !== 1) throw new Refusal('serverLicense.wrongType');
    if (license.state === 0) throw new Refusal('register.licenseUsed');
    if (license.state !== 1) throw new Refusal('register.licenseInvalid');
    if (now < license.valid_begin || now > license.valid_end) throw new Refusal('register.licenseExpired');
    const existing = await servers.findByServerId(input.serverId);
    if (input.mode === 'first' && existing) throw new Refusal('serverLicense.alreadyActivated');
    if (input.mode === 'renew' && !existing)
      throw new Refusal('serverLicense.notActivated', 'declined', {}, '3004');

    const secret = randomToken(32);
    const enrolled = await servers.enroll(
      license.id,
      input.serverId,
      existing?.id,
      {
        license_id: license.id,
        company_name: license.company_name,
        secret_hash: tokenHash(secret),
        mac: input.mac,
        os: input.os,
        state: 1,
        valid_begin: license.valid_begin,
        valid_end: license.valid_end,
        last_report_at: now,
      },
      now,
    );
    if (!enrolled) throw new Refusal('register.licenseUsed');
    await this.deps.log.record({
      orgId: await this.platformId(),
      userId: null,
      userName: input.serverId,
      userType: 'server',
      action: input.mode === 'first' ? 'server.first' : 'server.renew',
      content: { k: 'server', v: { company: license.company_name, license: license.license_key } },
      ip: '',
    });
    return {
      secret,
      companyName: license.company_name,
      validBegin: license.valid_begin,
      validEnd: license.valid_end,
    };
  }

  async report(input: Identity & { secret: string }) {
    const { servers, clock } = this.deps;
    const row = await servers.findByServerId(input.serverId);
    if (!row || row.secret_hash !== tokenHash(input.secret))
      throw new Refusal('common.forbidden', 'forbidden');
    await servers.recordReport(row.id, { mac: input.mac, os: input.os, last_report_at: clock.now() });
    return { validEnd: row.valid_end };
  }

  async list(
    caller: SessionUser,
    params: {
      start: number;
      size: number;
      companyName?: string;
      createDate?: string;
      utcOffset?: number;
      isOnline?: '0' | '1';
    },
  ) {
    const now = this.deps.clock.now();
    const onlineSince = now - 3 * this.deps.reportIntervalMs;
    const day = params.createDate ? dayBounds(params.createDate, params.utcOffset) : undefined;
    const { rows, total } = await this.deps.servers.page(
      {
        companyName: params.companyName,
        createdFrom: day?.from,
        createdTo: day?.to,
        online:
          params.isOnline === undefined ? undefined : { is: params.isOnline === '1', since: onlineSince },
      },
      pageOffset(params.start, params.size),
      params.size,
    );
    const list: servers.ServerRow[] = rows.map((r) => ({
      id: r.id,
      companyName: r.company_name,
      isOnline: r.last_report_at !== null && r.last_report_at > onlineSince ? 1 : 0,
      mac: r.mac,
      os: r.os,
      state: r.state === 1 && r.valid_end >= now ? 1 : 0,
      beginDate: r.valid_begin,
      endDate: r.valid_end,
      createDate: r.created_at,
    }));
    return { rows: list, total };
  }

  /** Stores each deployment's state as its license validity says now. */
  async sync() {
    return this.deps.servers.syncStates(this.deps.clock.now());
  }

  private async platformId(): Promise<number> {
    const platform = await this.deps.organisations.findPlatform();
    if (!platform) throw new Error('the platform organisation is missing');
    return platform.id;
  }
}
