import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { DeviceRecord } from './repository.js';
import type { Dialect } from '../../db/database.js';
import type { Position } from './list-position.js';
import { containsText, phrase } from './search-repository.js';

export interface Bound {
  at: Position;
  inclusive: boolean;
}

export interface KeyScan {
  lower?: Bound;
  upper?: Bound;
  direction: 'asc' | 'desc';
  /** Rows skipped first; the planner keeps it small (never a deep OFFSET). */
  offset: number;
  limit: number;
}

export interface OrderChange extends Position {
  version: number;
  delta: number;
}

export interface Anchor extends Position {
  /** Devices strictly before this position when the anchors were built. */
  rank: number;
}

type DevicesEb = ExpressionBuilder<Database, 'devices'>;

/** Searches shorter than this match the start of the name; longer ones any part of name or key. */
export const TRIGRAM = 3;

function bound(eb: DevicesEb, b: Bound, side: 'lower' | 'upper'): Expression<SqlBool> {
  const op = side === 'lower' ? (b.inclusive ? '>=' : '>') : b.inclusive ? '<=' : '<';
  return eb(eb.refTuple('name_key', 'id'), op, eb.tuple(b.at.key, b.at.id));
}

/**
 * The device list's SQL: key scans on the (org_id, name_key, id) index, capped counts, the rank
 * index's build and the change log. Every statement is scoped by org_id.
 */
export class DeviceListRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** Positions of up to `limit` devices in order, read from the index alone. */
  async keys(orgId: number, scan: KeyScan): Promise<Position[]> {
    let query = this.db.selectFrom('devices').select(['name_key', 'id']).where('org_id', '=', orgId);
    if (scan.lower) query = query.where((eb) => bound(eb, scan.lower!, 'lower'));
    if (scan.upper) query = query.where((eb) => bound(eb, scan.upper!, 'upper'));
    const rows = await query
      .orderBy('name_key', scan.direction)
      .orderBy('id', scan.direction)
      .limit(scan.limit)
      .offset(scan.offset)
      .execute();
    return rows.map((r) => ({ key: r.name_key, id: r.id }));
  }

  /** Devices between the bounds, counting at most `cap` (so a count never walks the whole fleet). */
  async countUpTo(
    orgId: number,
    lower: Bound | undefined,
    upper: Bound | undefined,
    cap: number,
  ): Promise<number> {
    let inner = this.db.selectFrom('devices').select('id').where('org_id', '=', orgId);
    if (lower) inner = inner.where((eb) => bound(eb, lower, 'lower'));
    if (upper) inner = inner.where((eb) => bound(eb, upper, 'upper'));
    const row = await this.db
      .selectFrom(inner.limit(cap).as('t'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Whole rows in list order. Without a skip they are read in one statement; with one, the skip
   * walks the index alone and only the rows of the page are read from the table.
   */
  async rows(orgId: number, scan: KeyScan): Promise<DeviceRecord[]> {
    if (scan.offset > 0) {
      const positions = await this.keys(orgId, scan);
      return this.rowsInOrder(
        orgId,
        positions.map((p) => p.id),
      );
    }
    let query = this.db.selectFrom('devices').selectAll().where('org_id', '=', orgId);
    if (scan.lower) query = query.where((eb) => bound(eb, scan.lower!, 'lower'));
    if (scan.upper) query = query.where((eb) => bound(eb, scan.upper!, 'upper'));
    return query
      .orderBy('name_key', scan.direction)
      .orderBy('id', scan.direction)
      .limit(scan.limit)
      .execute();
  }

  private rowsByIds(orgId: number, ids: number[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('devices')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', 'in', ids)
      .execute();
  }

  /**
   * The first `limit` devices of the company, in id (enrollment) order, whose name or key
   * contains `text` (lowered by the database, at least TRIGRAM characters), with their list
   * positions. SQLite walks the FTS5 trigram index (migration 011) in rowid order and stops at
   * `limit`, so the cost is about `limit` index entries however many match. PostgreSQL's
   * pg_trgm GIN indexes cannot yield rows in id order: its planner either walks the primary key
   * checking each row (cheap when matches are common) or collects every match through the
   * indexes and keeps the smallest ids (cheap when they are few); see docs/benchmarks.md.
   */
  async firstContaining(orgId: number, text: string, limit: number): Promise<Position[]> {
    const rows =
      this.dialect === 'sqlite'
        ? await sql<{ id: number; name_key: string }>`SELECT devices.id, devices.name_key
            FROM device_search JOIN devices ON devices.id = device_search.rowid
            WHERE device_search MATCH ${phrase(text)} AND devices.org_id = ${orgId}
            ORDER BY device_search.rowid LIMIT ${limit}`.execute(this.db)
        : await sql<{ id: number; name_key: string }>`SELECT d.id, d.name_key FROM devices d
            WHERE d.org_id = ${orgId} AND ${containsText(this.dialect, text)}
            ORDER BY d.id LIMIT ${limit}`.execute(this.db);
    return rows.rows.map((r) => ({ key: r.name_key, id: Number(r.id) }));
  }

  /** Whole rows of the listed devices of the company, in the order of `ids`. */
  async rowsInOrder(orgId: number, ids: number[]): Promise<DeviceRecord[]> {
    const byId = new Map((await this.rowsByIds(orgId, ids)).map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
  }

  /** The search text as the database lowers it (the same function that fills name_key). */
  async lower(text: string): Promise<string> {
    // Both engines lower ASCII the same way as JavaScript; anything else is left to the database.
    if ([...text].every((ch) => ch.charCodeAt(0) < 128)) return text.toLowerCase();
    const row = await sql<{ k: string }>`SELECT lower(${text}) AS k`.execute(this.db);
    return row.rows[0]!.k;
  }

  async orderState(orgId: number): Promise<{ version: number; total: number }> {
    const row = await this.db
      .selectFrom('device_order_state')
      .select(['version', 'total'])
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return row ? { version: Number(row.version), total: Number(row.total) } : { version: 0, total: 0 };
  }

  /** Changes after `version`, oldest first, at most `limit`. */
  async changesSince(orgId: number, version: number, limit: number): Promise<OrderChange[]> {
    const rows = await this.db
      .selectFrom('device_order_changes')
      .select(['version', 'name_key', 'device_id', 'delta'])
      .where('org_id', '=', orgId)
      .where('version', '>', version)
      .orderBy('version')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      version: Number(r.version),
      key: r.name_key,
      id: r.device_id,
      delta: r.delta,
    }));
  }

  /**
   * Every `stride`-th position with its rank, and the version they belong to. PostgreSQL reads
   * them with one window query in a REPEATABLE READ snapshot (the query does not hold up this
   * process). SQLite's driver is synchronous, so one statement over a million rows would stall
   * the whole server: there the anchors are read a step at a time (skip `stride` index entries
   * from the previous anchor), yielding between steps; the result counts only if the version did
   * not move meanwhile (every change moves it), otherwise it is read again, at worst in one go.
   */
  async buildAnchors(
    orgId: number,
    stride: number,
  ): Promise<{ version: number; total: number; anchors: Anchor[] }> {
    if (this.dialect === 'sqlite') {
      for (let attempt = 0; attempt < 3; attempt++) {
        const stepped = await this.anchorsStepwise(orgId, stride);
        if (stepped) return stepped;
      }
    }
    const transaction = this.db.transaction();
    const read = (trx: Kysely<Database>) => this.anchorsAtOnce(trx, orgId, stride);
    return this.dialect === 'postgres'
      ? transaction.setIsolationLevel('repeatable read').execute(read)
      : transaction.execute(read);
  }

  private async anchorsAtOnce(trx: Kysely<Database>, orgId: number, stride: number) {
    const state = await trx
      .selectFrom('device_order_state')
      .select(['version', 'total'])
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    const rows = await sql<{ name_key: string; id: number; rank: number }>`
      SELECT name_key, id, rn - 1 AS rank FROM (
        SELECT name_key, id, row_number() OVER (ORDER BY name_key, id) AS rn FROM devices WHERE org_id = ${orgId}
      ) numbered WHERE rn > 1 AND (rn - 1) % ${stride} = 0 ORDER BY rn`.execute(trx);
    return {
      version: Number(state?.version ?? 0),
      total: Number(state?.total ?? 0),
      anchors: rows.rows.map((r) => ({ key: r.name_key, id: Number(r.id), rank: Number(r.rank) })),
    };
  }

  private async anchorsStepwise(orgId: number, stride: number) {
    const before = await this.orderState(orgId);
    const anchors: Anchor[] = [];
    let from: Position | undefined;
    for (;;) {
      const [next] = await this.keys(orgId, {
        lower: from && { at: from, inclusive: true },
        direction: 'asc',
        offset: stride,
        limit: 1,
      });
      if (!next) break;
      anchors.push({ ...next, rank: (anchors.length + 1) * stride });
      from = next;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const after = await this.orderState(orgId);
    return after.version === before.version ? { ...before, anchors } : undefined;
  }

  /**
   * Keeps about the newest `keep` changes of the organisation: everything at or below the
   * version of the keep+1-th newest row goes (a reader that still needs it sees the hole in the
   * versions and rebuilds).
   */
  async trimChanges(orgId: number, keep: number): Promise<number> {
    const cut = await this.db
      .selectFrom('device_order_changes')
      .select('version')
      .where('org_id', '=', orgId)
      .orderBy('version', 'desc')
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
    return cut ? this.pruneChanges(orgId, Number(cut.version) + 1) : 0;
  }

  /** Forgets changes older than `version`, a chunk at a time so no statement holds the database for long. */
  async pruneChanges(orgId: number, version: number, chunk = 1000): Promise<number> {
    let removed = 0;
    for (;;) {
      const result = await this.db
        .deleteFrom('device_order_changes')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('device_order_changes')
            .select('id')
            .where('org_id', '=', orgId)
            .where('version', '<', version)
            .limit(chunk),
        )
        .executeTakeFirst();
      const n = Number(result.numDeletedRows);
      removed += n;
      if (n < chunk) return removed;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
