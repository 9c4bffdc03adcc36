import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, EnrollmentSecretsTable } from '../../db/schema.js';

export type EnrollmentSecret = Selectable<EnrollmentSecretsTable>;

/** What an enrolling panel is given and told (model and machine type only when it reported them). */
export interface EnrollingPanel {
  deviceKey: string;
  passwordHash: string;
  enrolledAt: number;
  model?: string;
  machineType?: string;
}

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

  /**
   * Enrolls a panel in one statement (after bringing a removed one back): the company is the one whose secret it presented; a serial
   * nobody holds becomes that company's device, a serial the company already holds gets the new
   * password (re-enrollment: the old one stops working) and what the panel reported, as does a
   * serial the company removed keeping its history (it returns first, with that history). A secret
   * nobody has, or a serial of another company, changes nothing: undefined. One statement takes
   * no lock between a read and a write, and two enrollments of one serial at once are ordered by
   * its unique key: the one that comes second re-enrolls, so the password issued last is valid.
   */
  async enrollForPanel(
    secretHash: string,
    panel: EnrollingPanel,
  ): Promise<{ id: number; org_id: number } | undefined> {
    // A serial the company removed keeping its history returns to it, enabled, with that history.
    // (A statement of its own: SQLite runs the list's triggers under the upsert's conflict rule.)
    await sql`UPDATE devices SET org_id = removed_from, removed_from = NULL, state = 1
      WHERE device_key = ${panel.deviceKey}
        AND removed_from = (SELECT org_id FROM enrollment_secrets WHERE secret_hash = ${secretHash})`.execute(
      this.db,
    );
    const reported = [
      ...(panel.model !== undefined ? [sql`model = excluded.model`] : []),
      ...(panel.machineType !== undefined ? [sql`machine_type = excluded.machine_type`] : []),
    ];
    const { rows } = await sql<{ id: number; org_id: number }>`
      INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at, model, machine_type)
      SELECT s.org_id, ${panel.deviceKey}, ${panel.deviceKey}, ${panel.passwordHash}, CAST(${panel.enrolledAt} AS bigint),
        ${panel.model ?? ''}, ${panel.machineType ?? ''}
      FROM enrollment_secrets s WHERE s.secret_hash = ${secretHash}
      ON CONFLICT (device_key) DO UPDATE SET
        ${sql.join([sql`secret_hash = excluded.secret_hash`, sql`enrolled_at = excluded.enrolled_at`, ...reported])}
      WHERE devices.org_id = excluded.org_id
      RETURNING id, org_id`.execute(this.db);
    return rows[0];
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
