import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Labels (groups) of one organisation and their devices. */
export class LabelRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(orgId: number) {
    return this.db.selectFrom('groups').select(['id', 'name']).where('org_id', '=', orgId).orderBy('name').execute();
  }

  findByName(orgId: number, name: string) {
    return this.db.selectFrom('groups').select('id').where('org_id', '=', orgId).where('name', '=', name).executeTakeFirst();
  }

  async insert(orgId: number, name: string, now: number): Promise<number> {
    const row = await this.db.insertInto('groups').values({ org_id: orgId, name, created_at: now }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  /** Adds every pair; ids of other organisations are ignored. Returns the number of pairs added. */
  async addDevices(orgId: number, groupIds: number[], deviceIds: number[]): Promise<number> {
    const groups = await this.db.selectFrom('groups').select('id').where('org_id', '=', orgId).where('id', 'in', groupIds).execute();
    const devices = await this.db.selectFrom('devices').select('id').where('org_id', '=', orgId).where('id', 'in', deviceIds).execute();
    const pairs = groups.flatMap((g) => devices.map((d) => ({ group_id: g.id, device_id: d.id, org_id: orgId })));
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < pairs.length; i += 500) {
        await trx.insertInto('group_devices').values(pairs.slice(i, i + 500)).onConflict((oc) => oc.columns(['group_id', 'device_id']).doNothing()).execute();
      }
    });
    return pairs.length;
  }

  /** Distinct devices of the labels, with their keys. */
  devicesOf(orgId: number, groupIds: number[]) {
    return this.db
      .selectFrom('group_devices')
      .innerJoin('devices', 'devices.id', 'group_devices.device_id')
      .select(['devices.id', 'devices.device_key as deviceKey'])
      .distinct()
      .where('group_devices.org_id', '=', orgId)
      .where('group_devices.group_id', 'in', groupIds)
      .orderBy('devices.id')
      .execute();
  }
}
