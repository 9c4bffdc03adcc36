import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export type SecretName = 'pepper' | 'firmwareSigningKey';

/** The recorded checks of the deployment's shared secrets (not tenant data: one set per database). */
export class DeploymentSecretRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async fingerprints(): Promise<Map<SecretName, string>> {
    const rows = await this.db.selectFrom('deployment_secrets').select(['name', 'fingerprint']).execute();
    return new Map(rows.map((r) => [r.name as SecretName, r.fingerprint]));
  }

  /** Records a check unless one is there already (the start-up lock makes the first one win). */
  async record(name: SecretName, fingerprint: string, now: number): Promise<void> {
    await this.db
      .insertInto('deployment_secrets')
      .values({ name, fingerprint, created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
}
