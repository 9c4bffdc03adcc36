import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { SignalSourcesTable } from '../../db/schema-catalogs.js';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';

export type SourceRecord = Selectable<SignalSourcesTable> & {
  /** Kind of the owning organisation; null for the deployment's catalog. */
  owner_kind: 'platform' | 'distributor' | 'customer' | null;
};

/**
 * Signal sources: the deployment's catalog (org_id NULL) and those organisations added. Every
 * read takes the organisations whose sources the caller sees (`reach`: its own and those above
 * it); the catalog is seen by everyone.
 */
export class SourceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private visible(reach: number[]) {
    return this.db
      .selectFrom('signal_sources')
      .leftJoin('organisations', 'organisations.id', 'signal_sources.org_id')
      .where((eb) =>
        reach.length
          ? eb.or([eb('signal_sources.org_id', 'is', null), eb('signal_sources.org_id', 'in', reach)])
          : eb('signal_sources.org_id', 'is', null),
      );
  }

  private withOwner<Q extends ReturnType<SourceRepository['visible']>>(query: Q) {
    return query.selectAll('signal_sources').select('organisations.kind as owner_kind');
  }

  async page(reach: number[], offset: number, size: number, name?: string) {
    let query = this.visible(reach);
    if (name) query = query.where(containsFolded('signal_sources.name', name));
    const [rows, total] = await Promise.all([
      this.withOwner(query).orderBy('signal_sources.id').limit(size).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as SourceRecord[], total: Number(total.n) };
  }

  /** The catalog's sources in catalog order (a few dozen inputs at most): what machine types draw on. */
  async catalog(): Promise<SourceRecord[]> {
    const rows = await this.withOwner(this.visible([])).orderBy('signal_sources.id').limit(1000).execute();
    return rows as SourceRecord[];
  }

  /** The sources the organisations of `reach` added (not the catalog's), oldest first. */
  async ownedBy(reach: number[]): Promise<SourceRecord[]> {
    if (!reach.length) return [];
    const rows = await this.withOwner(
      this.db
        .selectFrom('signal_sources')
        .leftJoin('organisations', 'organisations.id', 'signal_sources.org_id')
        .where('signal_sources.org_id', 'in', reach),
    )
      .orderBy('signal_sources.id')
      .limit(1000)
      .execute();
    return rows as SourceRecord[];
  }

  async findVisible(reach: number[], id: number): Promise<SourceRecord | undefined> {
    return (await this.withOwner(this.visible(reach))
      .where('signal_sources.id', '=', id)
      .executeTakeFirst()) as SourceRecord | undefined;
  }

  /** A source with this key among those `reach` sees (the catalog included). */
  async findVisibleByKey(reach: number[], sourceKey: string): Promise<SourceRecord | undefined> {
    return (await this.withOwner(this.visible(reach))
      .where('signal_sources.source_key', '=', sourceKey)
      .executeTakeFirst()) as SourceRecord | undefined;
  }

  async insert(row: Insertable<SignalSourcesTable>): Promise<number> {
    const { id } = await this.db
      .insertInto('signal_sources')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async update(id: number, set: Updateable<SignalSourcesTable>) {
    await this.db.updateTable('signal_sources').set(set).where('id', '=', id).execute();
  }

  async delete(id: number) {
    await this.db.deleteFrom('signal_sources').where('id', '=', id).execute();
  }

  /** Names of the machine types that offer this source. */
  async machineTypesUsing(sourceId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('machine_type_sources')
      .innerJoin('machine_types', 'machine_types.id', 'machine_type_sources.machine_type_id')
      .select('machine_types.name')
      .where('machine_type_sources.source_id', '=', sourceId)
      .orderBy('machine_types.name')
      .execute();
    return rows.map((r) => r.name);
  }
}
