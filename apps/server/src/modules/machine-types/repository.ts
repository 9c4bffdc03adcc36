import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { MachineTypesTable } from '../../db/schema-catalogs.js';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';
import type { CustomerScope } from '../customers/policy.js';

export type MachineTypeRecord = Selectable<MachineTypesTable>;

export interface LinkedSource {
  id: number;
  machine_type_id: number;
  source_id: number;
  name: string;
  source_key: string;
}

/** Machine types, their input sources, and the devices that refer to them by name. */
export class MachineTypeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(offset: number, size: number, name?: string) {
    let query = this.db.selectFrom('machine_types');
    if (name) query = query.where(containsFolded('name', name));
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('id').limit(size).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  findById(id: number): Promise<MachineTypeRecord | undefined> {
    return this.db.selectFrom('machine_types').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByName(name: string): Promise<MachineTypeRecord | undefined> {
    return this.db.selectFrom('machine_types').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /**
   * The machine type id of each reported name that the catalog knows (a device's
   * machineTypeId). Names are unique, and locked while devices use them, so the match holds.
   */
  async idsByNames(names: string[]): Promise<Map<string, number>> {
    const distinct = [...new Set(names.filter((n) => n !== ''))];
    if (!distinct.length) return new Map();
    const rows = await this.db
      .selectFrom('machine_types')
      .select(['id', 'name'])
      .where('name', 'in', distinct)
      .execute();
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  /** Input sources of the machine types, each type's in its chosen order. */
  async sourcesOf(machineTypeIds: number[]): Promise<Map<number, LinkedSource[]>> {
    const map = new Map<number, LinkedSource[]>();
    if (!machineTypeIds.length) return map;
    const rows = await this.db
      .selectFrom('machine_type_sources')
      .innerJoin('signal_sources', 'signal_sources.id', 'machine_type_sources.source_id')
      .select([
        'machine_type_sources.id',
        'machine_type_sources.machine_type_id',
        'machine_type_sources.source_id',
        'signal_sources.name',
        'signal_sources.source_key',
      ])
      .where('machine_type_sources.machine_type_id', 'in', machineTypeIds)
      .orderBy('machine_type_sources.machine_type_id')
      .orderBy('machine_type_sources.position')
      .execute();
    for (const r of rows) map.set(r.machine_type_id, [...(map.get(r.machine_type_id) ?? []), r]);
    return map;
  }

  /**
   * Devices in the scope that report each name, plus the OTA files that name the machine type.
   */
  async referenceCounts(names: string[], scope: CustomerScope): Promise<Map<string, number>> {
    const map = new Map<string, number>();
    if (!names.length) return map;
    let query = this.db
      .selectFrom('devices')
      .select(['devices.machine_type', (eb) => eb.fn.countAll<number>().as('n')])
      .where('devices.machine_type', 'in', names);
    if (scope.kind === 'own') query = query.where('devices.org_id', '=', scope.orgId);
    if (scope.kind === 'children') {
      query = query.where('devices.org_id', 'in', (eb) =>
        eb.selectFrom('organisations').select('id').where('parent_id', '=', scope.parentId),
      );
    }
    for (const r of await query.groupBy('devices.machine_type').execute())
      map.set(r.machine_type, Number(r.n));
    // OTA files name the machine types they fit (whoever published them): they lock it too.
    const files = await this.db
      .selectFrom('ota_file_machine_types')
      .innerJoin('machine_types', 'machine_types.id', 'ota_file_machine_types.machine_type_id')
      .select(['machine_types.name', (eb) => eb.fn.countAll<number>().as('n')])
      .where('machine_types.name', 'in', names)
      .groupBy('machine_types.name')
      .execute();
    for (const r of files) map.set(r.name, (map.get(r.name) ?? 0) + Number(r.n));
    return map;
  }

  /** How many of the ids are sources of the catalog (not an organisation's own). */
  async countSources(ids: number[]): Promise<number> {
    if (!ids.length) return 0;
    const row = await this.db
      .selectFrom('signal_sources')
      .select(sql<number>`count(*)`.as('n'))
      .where('id', 'in', ids)
      .where('org_id', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: Insertable<MachineTypesTable>, sourceIds: number[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('machine_types')
        .values(row)
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.link(trx, id, sourceIds);
      return id;
    });
  }

  async update(id: number, set: { name: string; enabled: number; updated_at: number }, sourceIds: number[]) {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('machine_types').set(set).where('id', '=', id).execute();
      await trx.deleteFrom('machine_type_sources').where('machine_type_id', '=', id).execute();
      await this.link(trx, id, sourceIds);
    });
  }

  async delete(id: number) {
    await this.db.deleteFrom('machine_types').where('id', '=', id).execute();
  }

  /** The source switch's options: name and key of each input, in order. */
  sourceOptions(machineTypeId: number) {
    return this.db
      .selectFrom('machine_type_sources')
      .innerJoin('signal_sources', 'signal_sources.id', 'machine_type_sources.source_id')
      .select(['signal_sources.name', 'signal_sources.source_key'])
      .where('machine_type_sources.machine_type_id', '=', machineTypeId)
      .orderBy('machine_type_sources.position')
      .execute();
  }

  private async link(trx: Transaction<Database>, machineTypeId: number, sourceIds: number[]) {
    if (!sourceIds.length) return;
    await trx
      .insertInto('machine_type_sources')
      .values(
        sourceIds.map((sourceId, position) => ({
          machine_type_id: machineTypeId,
          source_id: sourceId,
          position,
        })),
      )
      .execute();
  }
}
