import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { DeviceSettingsTable } from '../../db/schema-device-detail.js';

export type DeviceSettingRecord = Selectable<DeviceSettingsTable>;

/** The settings panels report, one row per section; every read is scoped by org_id. */
export class DeviceSettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Replaces a panel's settings with a complete report; sections it still has keep their ids. */
  async replace(
    orgId: number,
    deviceId: number,
    platform: string,
    sections: Record<string, unknown>,
    now: number,
  ) {
    const names = Object.keys(sections);
    await this.db.transaction().execute(async (trx) => {
      let gone = trx.deleteFrom('device_settings').where('device_id', '=', deviceId);
      if (names.length) gone = gone.where('section', 'not in', names);
      await gone.execute();
      for (const [section, value] of Object.entries(sections)) {
        const row = {
          org_id: orgId,
          device_id: deviceId,
          platform,
          section,
          value: JSON.stringify(value),
          reported_at: now,
        };
        await trx
          .insertInto('device_settings')
          .values(row)
          .onConflict((oc) =>
            oc
              .columns(['device_id', 'section'])
              .doUpdateSet({ platform, value: row.value, reported_at: now, org_id: orgId }),
          )
          .execute();
      }
    });
  }

  ofDevice(orgId: number, deviceId: number): Promise<DeviceSettingRecord[]> {
    return this.db
      .selectFrom('device_settings')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('device_id', '=', deviceId)
      .orderBy('id')
      .execute();
  }

  byIds(orgId: number, ids: number[]): Promise<DeviceSettingRecord[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('device_settings')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', 'in', ids)
      .execute();
  }
}
