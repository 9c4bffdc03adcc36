import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { device } from '@panelfleet/contract';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { SessionUser } from '../../http/router.js';
import { prefixRange } from './list-position.js';
import { DeviceListRepository, TRIGRAM } from './list-repository.js';
import { containsText } from './search-repository.js';
import { labelMembers } from '../label-membership/repository.js';
import { Refusal } from '../../refusal.js';

/** Who resolves a selection: the organisation, and the labels an API token is restricted to. */
export interface PanelReach {
  orgId: number;
  /** Empty: every panel of the organisation. */
  labelIds: readonly number[];
}

export const reachOf = (user: SessionUser): PanelReach => ({
  orgId: user.orgId,
  labelIds: user.token?.labelIds ?? [],
});

/**
 * The device list's filter as a condition on `devices d`, every page of it, never capped: the
 * devices of the caller's organisation (and of its token's labels) that the list shows for the
 * same deviceName. Bulk actions insert from it (INSERT ... SELECT), so the set is what matches
 * when the action runs, not ids the browser held.
 */
export class MatchingDevices {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {
    this.list = new DeviceListRepository(db, dialect);
  }

  private readonly list: Pick<DeviceListRepository, 'lower'>;

  /** Matching devices, enabled or not (the list shows both): `d` is `devices`. */
  async condition(reach: PanelReach, matching: device.PanelMatching): Promise<RawBuilder<boolean>> {
    const parts = [sql<boolean>`d.org_id = ${reach.orgId}`];
    const search = matching.deviceName ? await this.list.lower(matching.deviceName) : '';
    if ([...search].length >= TRIGRAM) parts.push(containsText(this.dialect, search));
    else if (search) {
      const { lo, hi } = prefixRange(search);
      parts.push(sql<boolean>`d.name_key >= ${lo.key} AND d.name_key < ${hi.key}`);
    }
    // A panel picker's filter: panels of any of its labels (of this organisation only).
    if (matching.tagIds?.length) {
      const picked = await labelMembers(this.db, reach.orgId, [...matching.tagIds]);
      parts.push(picked.anyOf('d', [...matching.tagIds]));
    }
    // A token restricted to labels reaches their members, listed or dynamic (one membership module).
    if (reach.labelIds.length) {
      const members = await labelMembers(this.db, reach.orgId, [...reach.labelIds]);
      parts.push(members.anyOf('d', [...reach.labelIds]));
    }
    return sql<boolean>`(${sql.join(parts, sql` AND `)})`;
  }

  /** The enabled matching panels (an action's targets) and the disabled ones it leaves out, counted exactly. */
  async count(reach: PanelReach, matching: device.PanelMatching) {
    const where = await this.condition(reach, matching);
    const { rows } = await sql<{ enabled: number | string | null; disabled: number | string | null }>`
      SELECT SUM(CASE WHEN d.state = 1 THEN 1 ELSE 0 END) AS enabled,
             SUM(CASE WHEN d.state = 1 THEN 0 ELSE 1 END) AS disabled
      FROM devices d WHERE ${where}`.execute(this.db);
    return { count: Number(rows[0]?.enabled ?? 0), disabled: Number(rows[0]?.disabled ?? 0) };
  }

  /**
   * The enabled matching panels' ids, by id, for a call that takes panels one by one (a task's
   * rows, a clone): refused with their count when more than `max` match, and when none does.
   */
  async ids(reach: PanelReach, matching: device.PanelMatching, max: number): Promise<number[]> {
    const where = await this.condition(reach, matching);
    const { rows } = await sql<{ id: number | string }>`
      SELECT d.id FROM devices d WHERE ${where} AND d.state = 1 ORDER BY d.id LIMIT ${max + 1}`.execute(
      this.db,
    );
    if (!rows.length) throw new Refusal('allMatching.noneMatching', 'invalid');
    if (rows.length > max) {
      const { count } = await this.count(reach, matching);
      throw new Refusal('allMatching.tooMany', 'invalid', { count, max });
    }
    return rows.map((r) => Number(r.id));
  }

  /** Up to `limit` enabled matching panels of another series than `series`, by name. */
  otherSeries(reach: PanelReach, matching: device.PanelMatching, series: string, limit: number) {
    return this.someWhere(reach, matching, sql<boolean>`d.machine_type <> ${series}`, limit);
  }

  /** Up to `limit` enabled matching panels that reported another system than `system`, by name. */
  otherSystem(reach: PanelReach, matching: device.PanelMatching, system: string, limit: number) {
    const unfit = sql<boolean>`d.id IN (SELECT p.device_id FROM device_pictures p
      WHERE p.org_id = ${reach.orgId} AND p.system IS NOT NULL AND p.system <> ${system})`;
    return this.someWhere(reach, matching, unfit, limit);
  }

  private async someWhere(
    reach: PanelReach,
    matching: device.PanelMatching,
    unfit: RawBuilder<boolean>,
    limit: number,
  ) {
    const where = await this.condition(reach, matching);
    const { rows } = await sql<{ id: number; name: string; machine_type: string }>`
      SELECT d.id, d.name, d.machine_type FROM devices d WHERE ${where} AND d.state = 1 AND ${unfit}
      ORDER BY d.name_key, d.id LIMIT ${limit}`.execute(this.db);
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  }
}
