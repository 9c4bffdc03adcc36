import type { Kysely, Selectable } from 'kysely';
import type { Database, EnrollmentSecretsTable } from '../../db/schema.js';

export type EnrollmentSecret = Selectable<EnrollmentSecretsTable>;

/** Each company's enrollment secret: the console reads and rotates its own, a panel presents one. */
export class EnrollmentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findByOrg(orgId: number): Promise<EnrollmentSecret | undefined> {
    return this.db
      .selectFrom('enrollment_secrets')
      .selectAll()
      .where('org_id', '=', orgId)
      .executeTakeFirst();
  }

  /** The company whose secret a panel presented (enrollment: no organisation is known yet). */
  findByHashForPanel(secretHash: string): Promise<EnrollmentSecret | undefined> {
    return this.db
      .selectFrom('enrollment_secrets')
      .selectAll()
      .where('secret_hash', '=', secretHash)
      .executeTakeFirst();
  }

  async upsert(row: EnrollmentSecret) {
    await this.db
      .insertInto('enrollment_secrets')
      .values(row)
      .onConflict((oc) =>
        oc
          .column('org_id')
          .doUpdateSet({ secret: row.secret, secret_hash: row.secret_hash, rotated_at: row.rotated_at }),
      )
      .execute();
  }
}
