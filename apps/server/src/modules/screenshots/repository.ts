import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { labelMembers } from '../label-membership/repository.js';
import type { ScreenshotsTable } from '../../db/schema-screenshots.js';

export type ScreenshotRow = Selectable<ScreenshotsTable>;

/** What an accepted upload stores on its row. */
export interface StoredPicture {
  width: number;
  height: number;
  bytes: number;
  mediaType: string;
  fileKey: string;
  thumbKey: string;
  takenAt: number;
}

/**
 * Screenshots of panels. Every user-side statement takes the caller's organisation; the panel
 * side (`…ForPanel(s)`) takes the id the server signed into a panel's upload URL together with
 * the panel's authenticated serial, or the ids of the panel's own acknowledged commands.
 */
export class ScreenshotRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertPending(row: {
    orgId: number;
    deviceId: number;
    deviceKey: string;
    userId: number | null;
    now: number;
    expiresAt: number;
  }): Promise<number> {
    const inserted = await this.db
      .insertInto('screenshots')
      .values({
        org_id: row.orgId,
        device_id: row.deviceId,
        device_key: row.deviceKey,
        status: 'pending',
        failure: null,
        requested_by: row.userId,
        requested_at: row.now,
        expires_at: row.expiresAt,
        taken_at: null,
        command_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  async setCommand(orgId: number, id: number, commandId: string) {
    await this.db
      .updateTable('screenshots')
      .set({ command_id: commandId })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
  }

  /** Marks a pending screenshot of the organisation failed (the panel was offline when asked). */
  async fail(orgId: number, id: number, failure: string) {
    await this.db
      .updateTable('screenshots')
      .set({ status: 'failed', failure })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  find(orgId: number, id: number): Promise<ScreenshotRow | undefined> {
    return this.db
      .selectFrom('screenshots')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The newest stored screenshot of each of the organisation's devices named (those with one). */
  async latestStored(orgId: number, deviceIds: number[]): Promise<Map<number, ScreenshotRow>> {
    const found = new Map<number, ScreenshotRow>();
    if (!deviceIds.length) return found;
    const newest = this.db
      .selectFrom('screenshots')
      .select(({ fn }) => ['device_id', fn.max('taken_at').as('taken')])
      .where('org_id', '=', orgId)
      .where('status', '=', 'stored')
      .where('device_id', 'in', deviceIds)
      .groupBy('device_id')
      .as('newest');
    const rows = await this.db
      .selectFrom('screenshots')
      .innerJoin(newest, (j) =>
        j
          .onRef('newest.device_id', '=', 'screenshots.device_id')
          .onRef('newest.taken', '=', 'screenshots.taken_at'),
      )
      .selectAll('screenshots')
      .where('screenshots.org_id', '=', orgId)
      .where('screenshots.status', '=', 'stored')
      .execute();
    for (const row of rows) {
      const had = found.get(row.device_id);
      if (!had || had.id < row.id) found.set(row.device_id, row);
    }
    return found;
  }

  /**
   * The stored screenshots of one device of the organisation taken in [from, to) (ms), oldest
   * first: what a panel's history lists beside its other events.
   */
  storedInRange(
    orgId: number,
    deviceId: number,
    from: number,
    to: number,
    limit = 500,
  ): Promise<ScreenshotRow[]> {
    return this.db
      .selectFrom('screenshots')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('device_id', '=', deviceId)
      .where('status', '=', 'stored')
      .where('taken_at', '>=', from)
      .where('taken_at', '<', to)
      .orderBy('taken_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  labelName(orgId: number, labelId: number) {
    return this.db
      .selectFrom('labels')
      .select('name')
      .where('org_id', '=', orgId)
      .where('id', '=', labelId)
      .executeTakeFirst();
  }

  /** Up to `limit` devices of the organisation carrying the label (listed or dynamic), by name. */
  async devicesOfLabel(orgId: number, labelId: number, limit: number) {
    const members = await labelMembers(this.db, orgId, [labelId]);
    return this.db
      .selectFrom('devices')
      .select(['devices.id', 'devices.name', 'devices.device_key'])
      .where(members.anyOf('devices', [labelId]))
      .orderBy('devices.name_key')
      .orderBy('devices.id')
      .limit(limit)
      .execute();
  }

  // ---- the panel side ----

  findForPanel(id: number, deviceKey: string): Promise<ScreenshotRow | undefined> {
    return this.db
      .selectFrom('screenshots')
      .selectAll()
      .where('id', '=', id)
      .where('device_key', '=', deviceKey)
      .executeTakeFirst();
  }

  /**
   * Takes the upload of a pending screenshot of this panel, once: true for the one call whose
   * conditional update changed the row; a replay (or a parallel second upload) finds it taken.
   */
  async claimForPanel(id: number, deviceKey: string): Promise<boolean> {
    const result = await this.db
      .updateTable('screenshots')
      .set({ status: 'receiving' })
      .where('id', '=', id)
      .where('device_key', '=', deviceKey)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async storeForPanel(id: number, deviceKey: string, picture: StoredPicture) {
    await this.db
      .updateTable('screenshots')
      .set({
        status: 'stored',
        failure: null,
        taken_at: picture.takenAt,
        width: picture.width,
        height: picture.height,
        bytes: picture.bytes,
        media_type: picture.mediaType,
        file_key: picture.fileKey,
        thumb_key: picture.thumbKey,
      })
      .where('id', '=', id)
      .where('device_key', '=', deviceKey)
      .execute();
  }

  /** A refused or failed upload of this panel: the screenshot failed, nothing stored. */
  async failForPanel(id: number, deviceKey: string, failure: string) {
    await this.db
      .updateTable('screenshots')
      .set({ status: 'failed', failure })
      .where('id', '=', id)
      .where('device_key', '=', deviceKey)
      .where('status', 'in', ['pending', 'receiving'])
      .execute();
  }

  /** Screenshots whose SCREENSHOT command the panel answered `failed`. */
  async failByCommandsForPanels(failures: Array<{ commandId: string; failure: string }>) {
    for (const { commandId, failure } of failures)
      await this.db
        .updateTable('screenshots')
        .set({ status: 'failed', failure })
        .where('command_id', '=', commandId)
        .where('status', '=', 'pending')
        .execute();
  }
}
