import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { AbnormalLogsTable, AppUsageTable, Database, DevicesTable, ScreenTimeTable } from '../../db/schema.js';
import type { device } from '@panelfleet/contract';

export type DeviceRecord = Selectable<DevicesTable>;
export interface DeviceCredentials {
  id: number;
  org_id: number;
  device_key: string;
  secret_hash: string;
  state: number;
}

const CHUNK = 500;
const chunks = <T>(items: T[], size = CHUNK) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Device rows and what panels report about themselves; every read is scoped by org_id. */
export class DeviceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findCredentials(deviceKey: string): Promise<DeviceCredentials | undefined> {
    return this.db
      .selectFrom('devices')
      .select(['id', 'org_id', 'device_key', 'secret_hash', 'state'])
      .where('device_key', '=', deviceKey)
      .executeTakeFirst();
  }

  async insert(row: Insertable<DevicesTable>): Promise<number> {
    const inserted = await this.db.insertInto('devices').values(row).returning('id').executeTakeFirstOrThrow();
    return inserted.id;
  }

  async updateSecret(id: number, secretHash: string, extra: Updateable<DevicesTable>) {
    await this.db.updateTable('devices').set({ ...extra, secret_hash: secretHash }).where('id', '=', id).execute();
  }

  /** Applies many state updates in one transaction (the buffered writer's flush). */
  async applyUpdates(updates: Array<{ id: number; set: Updateable<DevicesTable> }>) {
    await this.db.transaction().execute(async (trx) => {
      for (const u of updates) await trx.updateTable('devices').set(u.set).where('id', '=', u.id).execute();
    });
  }

  findById(orgId: number, id: number): Promise<DeviceRecord | undefined> {
    return this.db.selectFrom('devices').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  }

  findByIds(orgId: number, ids: number[]): Promise<DeviceRecord[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('devices').selectAll().where('org_id', '=', orgId).where('id', 'in', ids).execute();
  }

  /** Keys of devices by id, across organisations (the gateway's own lookups). */
  async keysByIds(ids: number[]): Promise<Map<number, string>> {
    const map = new Map<number, string>();
    for (const part of chunks(ids)) {
      const rows = await this.db.selectFrom('devices').select(['id', 'device_key']).where('id', 'in', part).execute();
      for (const r of rows) map.set(r.id, r.device_key);
    }
    return map;
  }

  async ownedKeys(orgId: number, keys: string[]): Promise<string[]> {
    if (!keys.length) return [];
    const rows = await this.db.selectFrom('devices').select('device_key').where('org_id', '=', orgId).where('device_key', 'in', keys).execute();
    const owned = new Set(rows.map((r) => r.device_key));
    return keys.filter((k) => owned.has(k));
  }

  /** What an operator may change: name, remark, state (1 enabled, 0 disabled). */
  async updateEditable(orgId: number, id: number, set: { name: string; remark: string; state: number }) {
    await this.db.updateTable('devices').set(set).where('org_id', '=', orgId).where('id', '=', id).execute();
  }

  async tagsOf(orgId: number, deviceIds: number[]): Promise<Map<number, string[]>> {
    const map = new Map<number, string[]>();
    if (!deviceIds.length) return map;
    const rows = await this.db
      .selectFrom('group_devices')
      .innerJoin('groups', 'groups.id', 'group_devices.group_id')
      .select(['group_devices.device_id', 'groups.name'])
      .where('group_devices.org_id', '=', orgId)
      .where('group_devices.device_id', 'in', deviceIds)
      .orderBy('groups.name')
      .execute();
    for (const r of rows) map.set(r.device_id, [...(map.get(r.device_id) ?? []), r.name]);
    return map;
  }

  /** Panels of the organisation whose last report puts them on a LAN (for Wake-on-LAN relays). */
  lanCandidates(orgId: number) {
    return this.db
      .selectFrom('devices')
      .select(['id', 'device_key', 'local_ip', 'netmask'])
      .where('org_id', '=', orgId)
      .where('local_ip', '!=', '')
      .execute();
  }

  async replaceApps(deviceId: number, orgId: number, apps: device.InstalledApp[]) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('device_apps').where('device_id', '=', deviceId).execute();
      for (const part of chunks(apps, 200)) {
        await trx
          .insertInto('device_apps')
          .values(
            part.map((a) => ({
              device_id: deviceId,
              org_id: orgId,
              package_name: a.packageName,
              app_name: a.appName,
              version_name: a.versionName,
              app_size: a.appSize,
              app_level: a.appLevel,
              icon_name: a.iconName ?? '',
            })),
          )
          .execute();
      }
    });
  }

  apps(orgId: number, deviceId: number) {
    return this.db.selectFrom('device_apps').selectAll().where('org_id', '=', orgId).where('device_id', '=', deviceId).orderBy('app_name').execute();
  }

  async insertUsage(screen: Insertable<ScreenTimeTable>, records: Insertable<AppUsageTable>[]) {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('screen_time').values(screen).execute();
      for (const part of chunks(records, 200)) await trx.insertInto('app_usage').values(part).execute();
    });
  }

  async insertAbnormalLog(row: Insertable<AbnormalLogsTable>) {
    await this.db.insertInto('abnormal_logs').values(row).execute();
  }
}
