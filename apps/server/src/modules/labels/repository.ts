import type { Kysely } from 'kysely';
import { onPostgres } from '../../db/dialect-of.js';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { device } from '@panelfleet/contract';
import { LabelMembership, labelMembers } from '../label-membership/repository.js';

const CHUNK = 500;

/** Labels of one organisation and their devices; every statement is scoped by org_id. */
export class LabelRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(orgId: number) {
    return this.db
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('org_id', '=', orgId)
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  /** The labels with their stored filters (null: a label of listed panels), by name. */
  listWithFilters(orgId: number) {
    return this.db
      .selectFrom('labels')
      .select(['id', 'name', 'filter'])
      .where('org_id', '=', orgId)
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  /**
   * The new label's id, or undefined when the organisation has a label of this name. The unique
   * index (org_id, name) decides, so parallel inserts of one name make one label and no error
   * (on PostgreSQL a second insert waits for the first to commit, then does nothing).
   */
  async insert(
    orgId: number,
    name: string,
    now: number,
    filter: string | null = null,
  ): Promise<number | undefined> {
    const row = await this.db
      .insertInto('labels')
      .values({ org_id: orgId, name, created_at: now, filter })
      .onConflict((oc) => oc.columns(['org_id', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  /** A label of the organisation with its stored filter (null: listed panels), or undefined. */
  find(orgId: number, labelId: number) {
    return this.db
      .selectFrom('labels')
      .select(['id', 'name', 'filter'])
      .where('org_id', '=', orgId)
      .where('id', '=', labelId)
      .executeTakeFirst();
  }

  /** Renames a dynamic label and sets its filter; false when another label of the company has the name. */
  async updateDynamic(orgId: number, labelId: number, name: string, filter: string): Promise<boolean> {
    const taken = await this.db
      .selectFrom('labels')
      .select('id')
      .where('org_id', '=', orgId)
      .where('name', '=', name)
      .where('id', '<>', labelId)
      .executeTakeFirst();
    if (taken) return false;
    await this.db
      .updateTable('labels')
      .set({ name, filter })
      .where('org_id', '=', orgId)
      .where('id', '=', labelId)
      .where('filter', 'is not', null)
      .execute();
    return true;
  }

  /** How many of the ids are dynamic labels of the organisation. */
  async dynamicCount(orgId: number, labelIds: number[]): Promise<number> {
    const unique = [...new Set(labelIds)];
    if (!unique.length) return 0;
    const row = await this.db
      .selectFrom('labels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('id', 'in', unique)
      .where('filter', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** How many of the company's panels a filter matches now (the console's live count). */
  async countMatching(orgId: number, filter: device.LabelFilter, now: number): Promise<number> {
    const row = await (await this.countQuery(orgId, filter, now)).execute(this.db);
    return Number(row.rows[0]!.n);
  }

  /** The count `countMatching` runs (benchmarks print its plan). */
  async countQuery(orgId: number, filter: device.LabelFilter, now: number) {
    const members = await LabelMembership.load(this.db, orgId, [], now, filter);
    return sql<{
      n: number | string;
    }>`SELECT count(*) AS n FROM devices d WHERE ${members.matches('d', filter)}`;
  }

  /** How many of the ids are labels of the organisation. */
  async ownedCount(orgId: number, labelIds: number[]): Promise<number> {
    const unique = [...new Set(labelIds)];
    if (!unique.length) return 0;
    const row = await this.db
      .selectFrom('labels')
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
      .insertInto('labels')
      .values(names.map((name) => ({ org_id: orgId, name, created_at: now })))
      .onConflict((oc) => oc.columns(['org_id', 'name']).doNothing())
      .execute();
    const rows = await this.db
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('org_id', '=', orgId)
      .where('name', 'in', names)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * The devices get exactly these labels (their other labels are removed). Run it in a
   * transaction: on PostgreSQL the company's label assignments are taken one at a time (a
   * transaction-scoped advisory lock per schema and company), so edits of the same device at once
   * apply one after the other, the last one whole, instead of colliding on the label-device key.
   * Not by locking the devices' rows: the gateway's state batches and the map's positions update
   * those rows all the time, in their own order, and a label save of many devices then deadlocked
   * with them under load. SQLite runs one write transaction at a time.
   */
  async replaceLabelsOf(orgId: number, deviceIds: number[], labelIds: number[]) {
    if (onPostgres(this.db as Kysely<unknown>) && deviceIds.length)
      await sql`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':label_devices'), ${orgId}::int4)`.execute(
        this.db,
      );
    // Dynamic labels follow their filters: they get no listed panels.
    const listed = labelIds.length
      ? (
          await this.db
            .selectFrom('labels')
            .select('id')
            .where('org_id', '=', orgId)
            .where('id', 'in', labelIds)
            .where('filter', 'is', null)
            .execute()
        ).map((r) => r.id)
      : [];
    for (let i = 0; i < deviceIds.length; i += CHUNK) {
      const part = deviceIds.slice(i, i + CHUNK);
      await this.db
        .deleteFrom('label_devices')
        .where('org_id', '=', orgId)
        .where('device_id', 'in', part)
        .execute();
      const pairs = part.flatMap((deviceId) =>
        listed.map((labelId) => ({ label_id: labelId, device_id: deviceId, org_id: orgId })),
      );
      for (let j = 0; j < pairs.length; j += CHUNK)
        await this.db
          .insertInto('label_devices')
          .values(pairs.slice(j, j + CHUNK))
          .execute();
    }
  }

  /** Distinct enabled devices of the labels, listed or dynamic, with their keys (the targets of a label command). */
  async devicesOf(orgId: number, labelIds: number[], now = Date.now()) {
    const members = await labelMembers(this.db, orgId, labelIds, now);
    return this.db
      .selectFrom('devices')
      .select(['devices.id', 'devices.device_key as deviceKey'])
      .where(members.anyOf('devices', labelIds))
      .where('devices.state', '=', 1)
      .orderBy('devices.id')
      .execute();
  }

  /**
   * One page of the devices in any of the labels, by name. The page of listed labels is read from
   * their members (label_devices), so its cost follows the labels' size, not the fleet's.
   */
  async devicePage(
    orgId: number,
    labelIds: number[],
    offset: number,
    size: number,
    fit: { machineTypes?: string[]; fromVersions?: string[] } = {},
  ) {
    const membership = await labelMembers(this.db, orgId, labelIds);
    let members = this.db.selectFrom('devices').where(membership.anyOf('devices', labelIds));
    if (fit.machineTypes)
      members = fit.machineTypes.length
        ? members.where('devices.machine_type', 'in', fit.machineTypes)
        : members.where(sql<boolean>`1 = 0`);
    if (fit.fromVersions?.length) members = members.where('devices.ota_version', 'in', fit.fromVersions);
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
