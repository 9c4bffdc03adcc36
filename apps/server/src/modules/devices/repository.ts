import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type {
  AbnormalLogsTable,
  AppUsageTable,
  Database,
  DevicesTable,
  ScreenTimeTable,
} from '../../db/schema.js';
import type { PlayRecordsTable } from '../../db/schema-programs.js';
import type { device } from '@panelfleet/contract';
import { APP_HISTORY_GROUP, appChanges } from './app-changes.js';
import { labelMembers } from '../label-membership/repository.js';

/** Devices per statement when their dynamic labels are worked out. */
const LABEL_NAMES_CHUNK = 500;

export type DeviceRecord = Selectable<DevicesTable>;
export interface DeviceCredentials {
  id: number;
  org_id: number;
  device_key: string;
  secret_hash: string;
  state: number;
}

const CHUNK = 500;
const chunks = <T>(items: T[], size = CHUNK) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * Device rows and what panels report about themselves. The console's reads and writes take the
 * caller's organisation. The device side's methods (named …ForPanel / …ForPanels) are not scoped
 * by organisation: they take a panel's authenticated identity or ids the server made itself,
 * never an id from a user's request, and only device-side code calls them (scripts/check-architecture.mjs).
 */
export class DeviceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A panel's credentials by serial number (enrollment, broker and HTTP authentication). */
  credentialsForPanel(deviceKey: string): Promise<DeviceCredentials | undefined> {
    return this.db
      .selectFrom('devices')
      .select(['id', 'org_id', 'device_key', 'secret_hash', 'state'])
      .where('device_key', '=', deviceKey)
      .executeTakeFirst();
  }

  /** Several panels' credentials at once (the broker's connects, read together). */
  async credentialsForPanels(deviceKeys: string[]): Promise<DeviceCredentials[]> {
    const found: DeviceCredentials[] = [];
    for (const part of chunks(deviceKeys))
      found.push(
        ...(await this.db
          .selectFrom('devices')
          .select(['id', 'org_id', 'device_key', 'secret_hash', 'state'])
          .where('device_key', 'in', part)
          .execute()),
      );
    return found;
  }

  findById(orgId: number, id: number): Promise<DeviceRecord | undefined> {
    return this.db
      .selectFrom('devices')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findByIds(orgId: number, ids: number[]): Promise<DeviceRecord[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('devices')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', 'in', ids)
      .execute();
  }

  /** Keys of devices by id, across organisations (command delivery's own lookups). */
  async keysByIdsForPanels(ids: number[]): Promise<Map<number, string>> {
    const map = new Map<number, string>();
    for (const part of chunks(ids)) {
      const rows = await this.db
        .selectFrom('devices')
        .select(['id', 'device_key'])
        .where('id', 'in', part)
        .execute();
      for (const r of rows) map.set(r.id, r.device_key);
    }
    return map;
  }

  async ownedKeys(orgId: number, keys: string[]): Promise<string[]> {
    if (!keys.length) return [];
    const rows = await this.db
      .selectFrom('devices')
      .select('device_key')
      .where('org_id', '=', orgId)
      .where('device_key', 'in', keys)
      .execute();
    const owned = new Set(rows.map((r) => r.device_key));
    return keys.filter((k) => owned.has(k));
  }

  /** What an operator may change: name, remark, location, state (1 enabled, 0 disabled). */
  async updateEditable(
    orgId: number,
    id: number,
    set: { name: string; remark: string; location: string; state: number },
  ) {
    await this.db.updateTable('devices').set(set).where('org_id', '=', orgId).where('id', '=', id).execute();
  }

  /**
   * Removes a panel with everything it reported (the history tables cascade from the device row;
   * the triggers take it out of the list's order, the name search and the dashboards' facets).
   */
  async deleteDevice(orgId: number, id: number) {
    await this.db.deleteFrom('devices').where('org_id', '=', orgId).where('id', '=', id).execute();
  }

  /**
   * Removes a panel keeping its history: the row moves to the archive organisation (no scope
   * reaches it), disabled and without a password or labels; the rows it reported keep the company.
   */
  async retire(orgId: number, id: number) {
    const archive = await this.archiveOrgId();
    await this.db
      .deleteFrom('label_devices')
      .where('org_id', '=', orgId)
      .where('device_id', '=', id)
      .execute();
    await this.db
      .updateTable('devices')
      .set({ org_id: archive, removed_from: orgId, state: 0, secret_hash: '' })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
  }

  /** The organisation of removed panels, made at the first removal that keeps history. */
  private async archiveOrgId(): Promise<number> {
    const find = () =>
      this.db
        .selectFrom('organisations')
        .select('id')
        .where('kind', '=', 'archive')
        .orderBy('id')
        .executeTakeFirst();
    const found = await find();
    if (found) return found.id;
    await this.db
      .insertInto('organisations')
      .values({ parent_id: null, kind: 'archive', name: 'Removed panels', user_quota: 0, created_at: 0 })
      .execute();
    return (await find())!.id;
  }

  /** The names of each device's labels, listed and dynamic, by name. */
  async labelNamesOf(orgId: number, deviceIds: number[], now = Date.now()): Promise<Map<number, string[]>> {
    const map = new Map<number, string[]>();
    if (!deviceIds.length) return map;
    const rows = await this.db
      .selectFrom('label_devices')
      .innerJoin('labels', 'labels.id', 'label_devices.label_id')
      .select(['label_devices.device_id', 'labels.name'])
      .where('label_devices.org_id', '=', orgId)
      .where('labels.filter', 'is', null)
      .where('label_devices.device_id', 'in', deviceIds)
      .execute();
    const add = (deviceId: number, name: string) => map.set(deviceId, [...(map.get(deviceId) ?? []), name]);
    for (const r of rows) add(r.device_id, r.name);
    const dynamic = await this.db
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('org_id', '=', orgId)
      .where('filter', 'is not', null)
      .execute();
    if (dynamic.length) {
      const members = await labelMembers(
        this.db,
        orgId,
        dynamic.map((l) => l.id),
        now,
      );
      // One pass over the devices: a 0/1 column per dynamic label.
      const columns = dynamic.map(
        (l, i) => sql`CASE WHEN ${members.anyOf('d', [l.id])} THEN 1 ELSE 0 END AS ${sql.ref(`m${i}`)}`,
      );
      for (let i = 0; i < deviceIds.length; i += LABEL_NAMES_CHUNK) {
        const part = deviceIds.slice(i, i + LABEL_NAMES_CHUNK);
        const found = await sql<Record<string, number>>`SELECT d.id, ${sql.join(columns)} FROM devices d
          WHERE d.org_id = ${orgId} AND d.id IN (${sql.join(part)})`.execute(this.db);
        for (const row of found.rows)
          dynamic.forEach((l, j) => Number(row[`m${j}`]) === 1 && add(Number(row.id), l.name));
      }
    }
    for (const names of map.values()) names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
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

  /** The panel's whole app list replaces the one before; `now` dates the changes in its history. */
  async replaceAppsForPanel(deviceId: number, orgId: number, apps: device.InstalledApp[], now: number) {
    await this.db.transaction().execute(async (trx) => {
      await lockDevice(trx, deviceId);
      await replaceApps(trx, deviceId, orgId, apps, now);
    });
  }

  /**
   * One part of an app report in several messages (protocol 5.2). The part is kept; when every
   * part of its report is there, the list is replaced by all of them in order and the parts go.
   * A part of another report supersedes an unfinished one. The device row is locked first, so
   * two parts arriving at two instances at once are judged one after the other. Answers whether
   * the list was replaced; 'tooMany' when the parts hold more apps than a list may.
   */
  async storeAppReportPartForPanel(
    deviceId: number,
    orgId: number,
    report: { id: string; part: number; parts: number; apps: device.InstalledApp[] },
    now: number,
    maxApps: number,
  ): Promise<'stored' | 'replaced' | 'tooMany'> {
    return this.db.transaction().execute(async (trx) => {
      await lockDevice(trx, deviceId);
      await trx
        .deleteFrom('device_app_parts')
        .where('device_id', '=', deviceId)
        .where('report_id', '<>', report.id)
        .execute();
      await trx
        .insertInto('device_app_parts')
        .values({
          device_id: deviceId,
          report_id: report.id,
          part: report.part,
          parts: report.parts,
          apps: JSON.stringify(report.apps),
          received_at: now,
        })
        .onConflict((oc) => oc.columns(['device_id', 'report_id', 'part']).doNothing())
        .execute();
      const stored = await trx
        .selectFrom('device_app_parts')
        .select(['part', 'apps'])
        .where('device_id', '=', deviceId)
        .where('report_id', '=', report.id)
        .where('parts', '=', report.parts)
        .orderBy('part')
        .execute();
      if (stored.length < report.parts) return 'stored';
      await trx.deleteFrom('device_app_parts').where('device_id', '=', deviceId).execute();
      const apps = stored.flatMap((row) => JSON.parse(row.apps) as device.InstalledApp[]);
      if (apps.length > maxApps) return 'tooMany';
      await replaceApps(trx, deviceId, orgId, apps, now);
      return 'replaced';
    });
  }

  apps(orgId: number, deviceId: number) {
    return this.db
      .selectFrom('device_apps')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('device_id', '=', deviceId)
      .orderBy('app_name')
      .execute();
  }

  /**
   * A usage report once per device and report id (protocol 5.3): a report delivered again adds
   * nothing. Answers whether it was new.
   */
  async insertUsageForPanel(
    screen: Insertable<ScreenTimeTable>,
    records: Insertable<AppUsageTable>[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('screen_time')
        .values(screen)
        .onConflict((oc) => oc.columns(['device_id', 'report_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return false;
      for (const part of chunks(records, 200)) await trx.insertInto('app_usage').values(part).execute();
      return true;
    });
  }

  /** A proof-of-play record once per device and report id (protocol 5.10); answers whether it was new. */
  async insertPlayForPanel(row: Insertable<PlayRecordsTable>): Promise<boolean> {
    const inserted = await this.db
      .insertInto('play_records')
      .values(row)
      .onConflict((oc) => oc.columns(['device_id', 'report_id']).doNothing())
      .returning('report_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** An abnormal log once per device and report id (protocol 5.4); answers whether it was new. */
  async insertAbnormalLogForPanel(row: Insertable<AbnormalLogsTable>): Promise<boolean> {
    const inserted = await this.db
      .insertInto('abnormal_logs')
      .values(row)
      .onConflict((oc) => oc.columns(['device_id', 'report_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }
}

/**
 * Locks the panel's row for the transaction, so that two app lists of one panel arriving at two
 * instances are compared with the list before them one after the other.
 */
async function lockDevice(trx: Kysely<Database>, deviceId: number) {
  await trx
    .updateTable('devices')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', deviceId)
    .execute();
}

/**
 * The complete list of a panel's apps replaces the one before (a package listed twice counts
 * once); what changed from that list goes to the panel's history.
 */
async function replaceApps(
  trx: Kysely<Database>,
  deviceId: number,
  orgId: number,
  reported: device.InstalledApp[],
  now: number,
) {
  const apps = [...new Map(reported.map((a) => [a.packageName, a])).values()];
  const before = await trx
    .selectFrom('device_apps')
    .select(['package_name as packageName', 'app_name as appName', 'version_name as versionName'])
    .where('device_id', '=', deviceId)
    .execute();
  const changes = appChanges(before, apps);
  for (const part of chunks(changes, 200))
    await trx
      .insertInto('panel_history')
      .values(
        part.map((c) => ({
          org_id: orgId,
          device_id: deviceId,
          grp: APP_HISTORY_GROUP,
          at: now,
          n1: null,
          n2: null,
          n3: null,
          txt: JSON.stringify(c),
        })),
      )
      .execute();
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
          version_code: a.versionCode ?? null,
          signer_sha256: a.signerSha256 ?? '',
        })),
      )
      .execute();
  }
}
