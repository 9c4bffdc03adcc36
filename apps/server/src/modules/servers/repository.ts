import type { Insertable, Kysely } from 'kysely';
import type { ServersTable } from '../../db/schema-servers.js';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';

export interface ServerListFilter {
  companyName?: string;
  createdFrom?: number;
  createdTo?: number;
  /** Online: reported after `onlineSince`; offline: not. */
  online?: { is: boolean; since: number };
}

type ServerFields = Omit<Insertable<ServersTable>, 'id' | 'server_id' | 'created_at'>;

/** Private deployments known to the platform: platform-wide rows (type 0 only), no organisation scope. */
export class ServerRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findByServerId(serverId: string) {
    return this.db.selectFrom('servers').selectAll().where('server_id', '=', serverId).executeTakeFirst();
  }

  /**
   * Spends the license (enabled -> used) and records the deployment (a new row, or the existing
   * one of this server id), in one transaction. False, with nothing written, when the license
   * was spent meanwhile.
   */
  async enroll(
    licenseId: number,
    serverId: string,
    existingId: number | undefined,
    fields: ServerFields,
    now: number,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const spent = await trx
        .updateTable('licenses')
        .set({ state: 0 })
        .where('id', '=', licenseId)
        .where('state', '=', 1)
        .executeTakeFirst();
      if (Number(spent.numUpdatedRows) !== 1) return false;
      if (existingId !== undefined)
        await trx.updateTable('servers').set(fields).where('id', '=', existingId).execute();
      else
        await trx
          .insertInto('servers')
          .values({ ...fields, server_id: serverId, created_at: now })
          .execute();
      return true;
    });
  }

  async recordReport(id: number, report: { mac: string; os: string; last_report_at: number }) {
    await this.db.updateTable('servers').set(report).where('id', '=', id).execute();
  }

  async page(filter: ServerListFilter, offset: number, size: number) {
    const filtered = () => {
      let query = this.db.selectFrom('servers');
      if (filter.companyName) query = query.where(containsFolded('company_name', filter.companyName));
      if (filter.createdFrom !== undefined) query = query.where('created_at', '>=', filter.createdFrom);
      if (filter.createdTo !== undefined) query = query.where('created_at', '<', filter.createdTo);
      const online = filter.online;
      if (online?.is) query = query.where('last_report_at', '>', online.since);
      if (online && !online.is)
        query = query.where((eb) =>
          eb.or([eb('last_report_at', 'is', null), eb('last_report_at', '<=', online.since)]),
        );
      return query;
    };
    const [rows, count] = await Promise.all([
      filtered().selectAll().orderBy('id', 'desc').limit(size).offset(offset).execute(),
      filtered()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Stores each deployment's state from its validity at `now`; answers how many are in each state. */
  async syncStates(now: number): Promise<{ expired: number; available: number }> {
    await this.db.updateTable('servers').set({ state: 0 }).where('valid_end', '<', now).execute();
    await this.db.updateTable('servers').set({ state: 1 }).where('valid_end', '>=', now).execute();
    const counts = await this.db
      .selectFrom('servers')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
    const count = (state: number) => Number(counts.find((c) => c.state === state)?.n ?? 0);
    return { expired: count(0), available: count(1) };
  }
}
