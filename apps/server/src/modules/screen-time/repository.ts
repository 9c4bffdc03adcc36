import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** A report interval never spans more than a day (docs/device-protocol.md 5.3). */
const LONGEST_REPORT_MS = 86_400_000;

/** Reads of the app-usage reports panels send; every query is scoped by org_id. */
export class ScreenTimeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  deviceByKey(orgId: number, deviceKey: string) {
    return this.db
      .selectFrom('devices')
      .select('id')
      .where('org_id', '=', orgId)
      .where('device_key', '=', deviceKey)
      .executeTakeFirst();
  }

  /** App foreground records that may overlap [from, to). */
  appUsage(orgId: number, deviceId: number, from: number, to: number) {
    return this.db
      .selectFrom('app_usage')
      .select(['package_name', 'app_name', 'started_at', 'duration_ms'])
      .where('device_id', '=', deviceId)
      .where('org_id', '=', orgId)
      .where('started_at', '>=', from - LONGEST_REPORT_MS)
      .where('started_at', '<', to)
      .orderBy('started_at')
      .execute();
  }

  /** Screen-on report intervals that may overlap [from, to). */
  screenOn(orgId: number, deviceId: number, from: number, to: number) {
    return this.db
      .selectFrom('screen_time')
      .select(['from_at', 'to_at', 'screen_on_ms'])
      .where('device_id', '=', deviceId)
      .where('org_id', '=', orgId)
      .where('from_at', '>=', from - LONGEST_REPORT_MS)
      .where('from_at', '<', to)
      .where('to_at', '>', from)
      .execute();
  }

  /** Icon names the panel reported for its installed apps. */
  async icons(orgId: number, deviceId: number): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('device_apps')
      .select(['package_name', 'icon_name'])
      .where('org_id', '=', orgId)
      .where('device_id', '=', deviceId)
      .execute();
    return new Map(rows.map((r) => [r.package_name, r.icon_name]));
  }
}
