import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface NoticeTarget {
  id: number;
  deviceKey: string;
}

/** The target device and the delivery of notifications; every query is scoped by org_id (label targets: LabelRepository). */
export class NotificationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  device(orgId: number, deviceId: number) {
    return this.db
      .selectFrom('devices')
      .select(['id', 'device_key as deviceKey', 'name', 'state'])
      .where('org_id', '=', orgId)
      .where('id', '=', deviceId)
      .executeTakeFirst();
  }

  /** Notification commands of the organisation with their devices. */
  deliveries(orgId: number, commandIds: string[]) {
    return this.db
      .selectFrom('commands')
      .innerJoin('devices', 'devices.id', 'commands.device_id')
      .select([
        'commands.id',
        'commands.status',
        'commands.detail',
        'commands.updated_at',
        'devices.id as device_id',
        'devices.name',
        'devices.device_key',
      ])
      .where('commands.org_id', '=', orgId)
      .where('commands.order_code', '=', 'NOTIFY')
      .where('commands.id', 'in', commandIds)
      .orderBy('devices.name')
      .execute();
  }
}
