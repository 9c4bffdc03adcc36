import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

const CHUNK = 500;

/** Labels (groups) of one organisation and their devices; every statement is scoped by org_id. */
export class LabelRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(orgId: number) {
    return this.db.selectFrom('groups').select(['id', 'name']).where('org_id', '=', orgId).orderBy('name').orderBy('id').execute();
  }

  findByName(orgId: number, name: string) {
    return this.db.selectFrom('groups').select('id').where('org_id', '=', orgId).where('name', '=', name).executeTakeFirst();
  }

  async insert(orgId: number, name: string, now: number): Promise<number> {
    const row = await this.db.insertInto('groups').values({ org_id: orgId, name, created_at: now }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  /** How many of the ids are labels of the organisation. */
  async ownedCount(orgId: number, groupIds: number[]): Promise<number> {
    const unique = [...new Set(groupIds)];
    if (!unique.length) return 0;
    const row = await this.db
      .selectFrom('groups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('id', 'in', unique)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Ids of the named labels, creating the ones that do not exist yet. */
  async ensureNames(orgId: number, names: string[], now: number): Promise<number[]> {
    if (!names.length) return [];
    await this.db
      .insertInto('groups')
      .values(names.map((name) => ({ org_id: orgId, name, created_at: now })))
      .onConflict((oc) => oc.columns(['org_id', 'name']).doNothing())
      .execute();
    const rows = await this.db.selectFrom('groups').select(['id', 'name']).where('org_id', '=', orgId).where('name', 'in', names).execute();
    return rows.map((r) => r.id);
  }

  /** The devices get exactly these labels (their other labels are removed). */
  async replaceLabelsOf(orgId: number, deviceIds: number[], groupIds: number[]) {
    for (let i = 0; i < deviceIds.length; i += CHUNK) {
      const part = deviceIds.slice(i, i + CHUNK);
      await this.db.deleteFrom('group_devices').where('org_id', '=', orgId).where('device_id', 'in', part).execute();
      const pairs = part.flatMap((deviceId) => groupIds.map((groupId) => ({ group_id: groupId, device_id: deviceId, org_id: orgId })));
      for (let j = 0; j < pairs.length; j += CHUNK) await this.db.insertInto('group_devices').values(pairs.slice(j, j + CHUNK)).execute();
    }
  }

  /** Distinct enabled devices of the labels, with their keys (the targets of a label command). */
  devicesOf(orgId: number, groupIds: number[]) {
    return this.db
      .selectFrom('group_devices')
      .innerJoin('devices', 'devices.id', 'group_devices.device_id')
      .select(['devices.id', 'devices.device_key as deviceKey'])
      .distinct()
      .where('group_devices.org_id', '=', orgId)
      .where('group_devices.group_id', 'in', groupIds)
      .where('devices.state', '=', 1)
      .orderBy('devices.id')
      .execute();
  }

  /**
   * One page of the devices in any of the labels, by name. The page is read from the labels'
   * members (group_devices), so its cost follows the labels' size, not the fleet's.
   */
  async devicePage(orgId: number, groupIds: number[], offset: number, size: number) {
    const members = this.db
      .selectFrom('devices')
      .where('devices.org_id', '=', orgId)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('group_devices')
            .select('group_devices.device_id')
            .whereRef('group_devices.device_id', '=', 'devices.id')
            .where('group_devices.group_id', 'in', groupIds),
        ),
      );
    const [rows, total] = await Promise.all([
      members
        .select(['devices.id', 'devices.name', 'devices.device_key', 'devices.machine_type', 'devices.state'])
        .orderBy('devices.name_key')
        .orderBy('devices.id')
        .limit(size)
        .offset(offset)
        .execute(),
      members.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }
}
