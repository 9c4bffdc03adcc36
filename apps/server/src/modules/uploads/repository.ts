import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { UploadsTable } from '../../db/schema-ota.js';

export type UploadRecord = Selectable<UploadsTable>;

/** Upload rows: every read of a caller's upload is scoped by its organisation. */
export class UploadRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<UploadsTable>) {
    await this.db.insertInto('uploads').values(row).execute();
  }

  find(orgId: number, id: string): Promise<UploadRecord | undefined> {
    return this.db
      .selectFrom('uploads')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The server's own read (tus hooks, which know the upload only by its id). */
  findById(id: string): Promise<UploadRecord | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async complete(id: string, digests: { sha256: string; md5: string }, now: number) {
    await this.db
      .updateTable('uploads')
      .set({ state: 'complete', sha256: digests.sha256, md5: digests.md5, completed_at: now })
      .where('id', '=', id)
      .where('state', '=', 'receiving')
      .execute();
  }

  async delete(orgId: number, id: string) {
    await this.db
      .deleteFrom('uploads')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('state', '!=', 'used')
      .execute();
  }

  /** Uploads never finished, or finished and never used, since before `before`. */
  stale(before: number, limit: number) {
    return this.db
      .selectFrom('uploads')
      .select(['id', 'state'])
      .where('state', 'in', ['receiving', 'complete'])
      .where('created_at', '<', before)
      .limit(limit)
      .execute();
  }

  async deleteById(id: string) {
    await this.db.deleteFrom('uploads').where('id', '=', id).where('state', '!=', 'used').execute();
  }

  /** Ids of every upload row (the start-up sweep removes files that have none). */
  async knownIds(ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.db.selectFrom('uploads').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }
}

/** Claims and releases: a finished upload is used for one file, at most once, even under parallel requests. */
export class UploadClaims {
  constructor(private readonly db: Kysely<Database>) {}

  /** Marks a complete upload of the organisation used; undefined when it is not (any more) available. */
  async claim(orgId: number, id: string, kind: string): Promise<UploadRecord | undefined> {
    return this.db
      .updateTable('uploads')
      .set({ state: 'used' })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('kind', '=', kind)
      .where('state', '=', 'complete')
      .returningAll()
      .executeTakeFirst();
  }

  /** Gives a claimed upload back (the file it was meant for could not be made). */
  async release(orgId: number, id: string) {
    await this.db
      .updateTable('uploads')
      .set({ state: 'complete' })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('state', '=', 'used')
      .execute();
  }

  async forget(id: string) {
    await this.db.deleteFrom('uploads').where('id', '=', id).where('state', '=', 'used').execute();
  }
}
