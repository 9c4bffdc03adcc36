import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { OPEN_STATUSES } from '../commands/repository.js';

/** Uninstalls on their way: open UNINSTALL commands of one device. */
export class DeviceAppsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async uninstallingPackages(orgId: number, deviceId: number, now: number): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('commands')
      .select('value')
      .where('org_id', '=', orgId)
      .where('device_id', '=', deviceId)
      .where('order_code', '=', 'UNINSTALL')
      .where('status', 'in', OPEN_STATUSES)
      .where('expires_at', '>', now)
      .execute();
    const names = new Set<string>();
    for (const row of rows)
      for (const name of (JSON.parse(row.value) as { packageNames: string[] }).packageNames) names.add(name);
    return names;
  }
}
