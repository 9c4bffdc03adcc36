import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CertificatesTable } from '../../db/schema-settings.js';
import { OperationLog, type OperationEntry } from '../operation-log/repository.js';

export type CertificateRecord = Selectable<CertificatesTable>;

const OPEN = ['queued', 'sent', 'delivered'] as const;

/**
 * A distributor's platform certificate and what its customers' panels report holding. Reads are
 * scoped by the distributor's organisation id; the panel-side methods (`...ForPanel`) are keyed
 * by the panel's own organisation, which the gateway knows.
 */
export class CertificateRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  current(distributorId: number): Promise<CertificateRecord | undefined> {
    return this.db
      .selectFrom('certificates')
      .selectAll()
      .where('org_id', '=', distributorId)
      .executeTakeFirst();
  }

  /** Replaces the distributor's certificate and writes the log row, together. */
  async replace(row: Insertable<CertificatesTable>, log: OperationEntry) {
    await this.db.transaction().execute(async (trx) => {
      const { org_id: _orgId, ...rest } = row;
      await trx
        .insertInto('certificates')
        .values(row)
        .onConflict((oc) => oc.column('org_id').doUpdateSet(rest))
        .execute();
      await new OperationLog(trx, this.now).record(log);
    });
  }

  /** The enabled panels of the distributor's customers. */
  panelsOf(distributorId: number) {
    return this.db
      .selectFrom('devices')
      .innerJoin('organisations', 'organisations.id', 'devices.org_id')
      .select(['devices.id', 'devices.org_id', 'devices.device_key'])
      .where('organisations.parent_id', '=', distributorId)
      .where('devices.state', '=', 1)
      .orderBy('devices.id')
      .execute();
  }

  /** How many of those panels there are and how many reported holding `sha256`. */
  async holding(distributorId: number, sha256: string) {
    const row = await this.db
      .selectFrom('devices')
      .innerJoin('organisations', 'organisations.id', 'devices.org_id')
      .leftJoin('device_certificates', 'device_certificates.device_id', 'devices.id')
      .select([
        sql<number>`count(*)`.as('total'),
        sql<number>`sum(case when device_certificates.sha256 = ${sha256} then 1 else 0 end)`.as('holding'),
      ])
      .where('organisations.parent_id', '=', distributorId)
      .where('devices.state', '=', 1)
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), holding: Number(row.holding ?? 0) };
  }

  /** The certificate of the distributor above a panel's company, if it has one. */
  currentForPanel(panelOrgId: number): Promise<CertificateRecord | undefined> {
    return this.db
      .selectFrom('organisations')
      .innerJoin('certificates', 'certificates.org_id', 'organisations.parent_id')
      .selectAll('certificates')
      .where('organisations.id', '=', panelOrgId)
      .executeTakeFirst();
  }

  /** What a panel reported holding (nothing: the row goes). */
  async recordForPanel(orgId: number, deviceId: number, sha256: string | undefined, now: number) {
    if (!sha256) {
      await this.db.deleteFrom('device_certificates').where('device_id', '=', deviceId).execute();
      return;
    }
    await this.db
      .insertInto('device_certificates')
      .values({ device_id: deviceId, org_id: orgId, sha256, reported_at: now })
      .onConflict((oc) => oc.column('device_id').doUpdateSet({ org_id: orgId, sha256, reported_at: now }))
      .execute();
  }

  /** Whether a CERTIFICATE command carrying `sha256` is still on its way to the panel. */
  async pendingForPanel(deviceId: number, sha256: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('commands')
      .select('id')
      .where('device_id', '=', deviceId)
      .where('order_code', '=', 'CERTIFICATE')
      .where('status', 'in', [...OPEN])
      .where('value', 'like', `%"sha256":"${sha256}"%`)
      .executeTakeFirst();
    return row !== undefined;
  }
}
