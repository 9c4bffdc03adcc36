import type { Kysely } from 'kysely';
import { dayBounds, type servers } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';
import { pageOffset, requireType } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { OperationLog } from '../operation-log/repository.js';

interface Identity {
  serverId: string;
  mac: string;
  os: string;
}

/** The platform's side of private deployments: activation with server licenses, reports, the list. */
export class ServerRegistry {
  constructor(
    private readonly deps: { db: Kysely<Database>; clock: Clock; log: OperationLog; reportIntervalMs: number },
  ) {}

  /** First activation or re-activation; spends the license and returns the reporting secret. */
  async enroll(input: Identity & { license: string; mode: 'first' | 'renew' }) {
    const { db, clock } = this.deps;
    const now = clock.now();
    const license = await db.selectFrom('licenses').selectAll().where('license_key', '=', input.license).executeTakeFirst();
    if (!license) throw new AppError('register.licenseInvalid');
    if (license.type !== 1) throw new AppError('serverLicense.wrongType');
    if (license.state === 0) throw new AppError('register.licenseUsed');
    if (license.state !== 1) throw new AppError('register.licenseInvalid');
    if (now < license.valid_begin || now > license.valid_end) throw new AppError('register.licenseExpired');
    const existing = await db.selectFrom('servers').select(['id']).where('server_id', '=', input.serverId).executeTakeFirst();
    if (input.mode === 'first' && existing) throw new AppError('serverLicense.alreadyActivated');
    if (input.mode === 'renew' && !existing) throw new AppError('serverLicense.notActivated', 200, {}, '3004');

    const secret = randomToken(32);
    await db.transaction().execute(async (trx) => {
      const spent = await trx.updateTable('licenses').set({ state: 0 }).where('id', '=', license.id).where('state', '=', 1).executeTakeFirst();
      if (Number(spent.numUpdatedRows) !== 1) throw new AppError('register.licenseUsed');
      const fields = {
        license_id: license.id, company_name: license.company_name, secret_hash: tokenHash(secret), mac: input.mac, os: input.os,
        state: 1, valid_begin: license.valid_begin, valid_end: license.valid_end, last_report_at: now,
      };
      if (existing) await trx.updateTable('servers').set(fields).where('id', '=', existing.id).execute();
      else await trx.insertInto('servers').values({ ...fields, server_id: input.serverId, created_at: now }).execute();
    });
    await this.deps.log.record({
      orgId: await this.platformId(), userId: null, userName: input.serverId, userType: 'server', action: `server.${input.mode}`,
      content: `${license.company_name} ${input.mode === 'first' ? 'activated' : 're-activated'} a private server with ${license.license_key}`, ip: '',
    });
    return { secret, companyName: license.company_name, validBegin: license.valid_begin, validEnd: license.valid_end };
  }

  async report(input: Identity & { secret: string }) {
    const { db, clock } = this.deps;
    const row = await db.selectFrom('servers').select(['id', 'secret_hash', 'valid_end']).where('server_id', '=', input.serverId).executeTakeFirst();
    if (!row || row.secret_hash !== tokenHash(input.secret)) throw new AppError('common.forbidden', 403);
    await db.updateTable('servers').set({ mac: input.mac, os: input.os, last_report_at: clock.now() }).where('id', '=', row.id).execute();
    return { validEnd: row.valid_end };
  }

  async list(caller: SessionUser, params: { start: number; size: number; companyName?: string; createDate?: string; utcOffset?: number; isOnline?: '0' | '1' }) {
    requireType(caller, '0');
    const now = this.deps.clock.now();
    const onlineSince = now - 3 * this.deps.reportIntervalMs;
    const filtered = () => {
      let query = this.deps.db.selectFrom('servers');
      if (params.companyName) query = query.where(containsFolded('company_name', params.companyName));
      if (params.createDate) {
        const day = dayBounds(params.createDate, params.utcOffset);
        query = query.where('created_at', '>=', day.from).where('created_at', '<', day.to);
      }
      if (params.isOnline === '1') query = query.where('last_report_at', '>', onlineSince);
      if (params.isOnline === '0') query = query.where((eb) => eb.or([eb('last_report_at', 'is', null), eb('last_report_at', '<=', onlineSince)]));
      return query;
    };
    const [rows, count] = await Promise.all([
      filtered().selectAll().orderBy('id', 'desc').limit(params.size).offset(pageOffset(params.start, params.size)).execute(),
      filtered().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const list: servers.ServerRow[] = rows.map((r) => ({
      id: r.id, companyName: r.company_name, isOnline: r.last_report_at !== null && r.last_report_at > onlineSince ? 1 : 0,
      mac: r.mac, os: r.os, state: r.state === 1 && r.valid_end >= now ? 1 : 0, beginDate: r.valid_begin, endDate: r.valid_end, createDate: r.created_at,
    }));
    return { rows: list, total: Number(count.n) };
  }

  /** Stores each deployment's state as its license validity says now. */
  async sync(caller: SessionUser) {
    requireType(caller, '0');
    const now = this.deps.clock.now();
    await this.deps.db.updateTable('servers').set({ state: 0 }).where('valid_end', '<', now).execute();
    await this.deps.db.updateTable('servers').set({ state: 1 }).where('valid_end', '>=', now).execute();
    const counts = await this.deps.db.selectFrom('servers').select(['state', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('state').execute();
    const count = (state: number) => Number(counts.find((c) => c.state === state)?.n ?? 0);
    return { expired: count(0), available: count(1) };
  }

  private async platformId(): Promise<number> {
    const platform = await this.deps.db.selectFrom('organisations').select('id').where('kind', '=', 'platform').executeTakeFirstOrThrow();
    return platform.id;
  }
}
