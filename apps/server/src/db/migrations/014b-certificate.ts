import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The certificate a distributor's customers' panels trust for the platform's endpoints
  // (docs/ARCHITECTURE.md "Platform certificate"): one per distributor organisation, replaced on
  // update. Only certificates are stored, never a key.
  await db.schema
    .createTable('certificates')
    .addColumn('org_id', 'integer', (c) => c.primaryKey().references('organisations.id'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    // The certificates (leaf first) as normalised PEM.
    .addColumn('pem', 'text', (c) => c.notNull())
    // SHA-256 of the chain's DER bytes: what panels report back.
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject', 'varchar(1024)', (c) => c.notNull())
    .addColumn('issuer', 'varchar(1024)', (c) => c.notNull())
    .addColumn('valid_from', 'bigint', (c) => c.notNull())
    .addColumn('valid_to', 'bigint', (c) => c.notNull())
    .addColumn('chain_length', 'integer', (c) => c.notNull())
    .addColumn('uploaded_by', 'integer')
    .addColumn('uploaded_by_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
    .execute();
  // The certificate each panel reported holding (settings report: certificateSha256).
  await db.schema
    .createTable('device_certificates')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('reported_at', 'bigint', (c) => c.notNull())
    .execute();
}
