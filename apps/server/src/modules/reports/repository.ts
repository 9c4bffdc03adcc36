import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect, LongReads } from '../../db/database.js';
import { jsonRows } from '../../db/json-rows.js';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';

/** A usage record or a screen-on interval never spans more than a day (protocol 5.3). */
const LONGEST_RECORD_MS = 86_400_000;

/** The periods a report groups by: [start, end) epoch ms, numbered in order. */
export interface PeriodBounds {
  start: number;
  end: number;
}

/** Which of the company's devices a report covers. */
export interface DeviceFilter {
  deviceName?: string;
  deviceId?: number;
}

export interface PageWindow {
  limit: number;
  offset: number;
}

export interface ErrorLogGroup {
  k: number;
  device_name: string;
  device_key: string;
  app_name: string;
  model: string;
  total: number;
}
export interface DeviceTimeGroup {
  k: number;
  device_name: string;
  device_key: string;
  total: number;
}
export interface AppTimeGroup {
  k: number;
  device_name: string;
  device_key: string;
  app_name: string;
  package_name: string;
  total: number;
}
export interface ProofOfPlayGroup {
  k: number;
  device_name: string;
  device_key: string;
  program_id: number;
  program_name: string | null;
  total: number;
  plays: number;
  cut_short: number;
}
export interface OperationRow {
  id: number;
  user_name: string;
  action: string;
  content: string;
  detail: string | null;
  ip: string;
  created_at: number;
}

/**
 * The reports' SQL. Each report is one aggregate over the company's rows, grouped by period
 * (the periods travel as one JSON parameter: a day, week, month or year in the caller's zone,
 * computed by the service with daylight saving in mind), device and what the report names;
 * time is clipped to each period. Pages are LIMIT/OFFSET over the grouped rows, ordered by
 * period, device (in enrollment order: the order the grouping produces, so no sort of all the
 * groups is needed) and the rest; exports read one period at a time. Every query is scoped
 * by org_id, and the same statements run on SQLite and PostgreSQL.
 */
export class ReportRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly longReads: LongReads,
  ) {}

  deviceByKey(orgId: number, deviceKey: string) {
    return this.db
      .selectFrom('devices')
      .select('id')
      .where('org_id', '=', orgId)
      .where('device_key', '=', deviceKey)
      .executeTakeFirst();
  }

  private periods(bounds: PeriodBounds[], first: number) {
    return jsonRows(
      this.dialect,
      { k: 'int4', s: 'int8', e: 'int8' },
      bounds.map((b, i) => [first + i, b.start, b.end]),
    );
  }

  private devices(column: string, orgId: number, filter: DeviceFilter): RawBuilder<unknown> {
    const parts: RawBuilder<unknown>[] = [];
    if (filter.deviceId !== undefined) parts.push(sql`AND ${sql.ref(column)} = ${filter.deviceId}`);
    if (filter.deviceName)
      parts.push(
        sql`AND ${sql.ref(column)} IN (SELECT id FROM devices WHERE org_id = ${orgId} AND ${containsFolded('name', filter.deviceName)})`,
      );
    return sql.join(parts, sql` `);
  }

  private page(window: PageWindow | undefined) {
    return window ? sql`LIMIT ${window.limit} OFFSET ${window.offset}` : sql``;
  }

  /** Abnormal logs counted per period, device, app and model. */
  private errorLogGroups(orgId: number, bounds: PeriodBounds[], first: number, filter: DeviceFilter) {
    return sql`SELECT v.k AS k, l.device_id AS device_id, l.app_name AS app_name, l.model AS model,
        CAST(count(*) AS bigint) AS total
      FROM ${this.periods(bounds, first)} CROSS JOIN abnormal_logs l
      WHERE l.org_id = ${orgId} AND l.upload_date >= v.s AND l.upload_date < v.e
        ${this.devices('l.device_id', orgId, filter)}
      GROUP BY v.k, l.device_id, l.app_name, l.model`;
  }

  /** Screen-on time per period and device: each interval's screen-on time shared out by its overlap. */
  private deviceTimeGroups(orgId: number, bounds: PeriodBounds[], first: number, filter: DeviceFilter) {
    const overlap = sql`(CASE WHEN t.to_at < v.e THEN t.to_at ELSE v.e END) - (CASE WHEN t.from_at > v.s THEN t.from_at ELSE v.s END)`;
    return sql`SELECT v.k AS k, t.device_id AS device_id,
        CAST(sum(CASE WHEN t.to_at > t.from_at THEN t.screen_on_ms * (${overlap}) / (t.to_at - t.from_at)
                      ELSE t.screen_on_ms END) AS bigint) AS total
      FROM ${this.periods(bounds, first)} CROSS JOIN screen_time t
      WHERE t.org_id = ${orgId} AND t.from_at >= v.s - ${LONGEST_RECORD_MS} AND t.from_at < v.e
        AND (t.to_at > v.s OR (t.to_at = t.from_at AND t.from_at >= v.s))
        ${this.devices('t.device_id', orgId, filter)}
      GROUP BY v.k, t.device_id`;
  }

  /**
   * How far before a period the app run-time report must look for records that run into it: the
   * company's longest record (one probe of `app_usage_org_duration_idx`), at most a day.
   */
  async usageLookback(orgId: number): Promise<number> {
    const row = await this.db
      .selectFrom('app_usage')
      .select((eb) => eb.fn.max('duration_ms').as('longest'))
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return Math.min(LONGEST_RECORD_MS, Number(row?.longest ?? 0));
  }

  /** Foreground time per period, device and app, each record clipped to the period. */
  private appTimeGroups(
    orgId: number,
    bounds: PeriodBounds[],
    first: number,
    filter: DeviceFilter,
    lookback: number,
  ) {
    const end = sql`u.started_at + u.duration_ms`;
    return sql`SELECT v.k AS k, u.device_id AS device_id, u.package_name AS package_name,
        max(u.app_name) AS app_name,
        CAST(sum((CASE WHEN ${end} < v.e THEN ${end} ELSE v.e END)
               - (CASE WHEN u.started_at > v.s THEN u.started_at ELSE v.s END)) AS bigint) AS total
      FROM ${this.periods(bounds, first)} CROSS JOIN app_usage u
      WHERE u.org_id = ${orgId} AND u.started_at >= v.s - ${lookback} AND u.started_at < v.e
        AND ${end} > v.s
        ${this.devices('u.device_id', orgId, filter)}
      GROUP BY v.k, u.device_id, u.package_name`;
  }

  /** Plays per period (of their start), device and program: how many, their time, how many were cut short. */
  private proofOfPlayGroups(orgId: number, bounds: PeriodBounds[], first: number, filter: DeviceFilter) {
    return sql`SELECT v.k AS k, p.device_id AS device_id, p.program_id AS program_id,
        CAST(count(*) AS bigint) AS plays,
        CAST(sum(p.ended_at - p.started_at) AS bigint) AS total,
        CAST(sum(CASE WHEN p.reason = 'finished' THEN 0 ELSE 1 END) AS bigint) AS cut_short
      FROM ${this.periods(bounds, first)} CROSS JOIN play_records p
      WHERE p.org_id = ${orgId} AND p.started_at >= v.s AND p.started_at < v.e
        ${this.devices('p.device_id', orgId, filter)}
      GROUP BY v.k, p.device_id, p.program_id`;
  }

  /**
   * One page of grouped rows with their total: the total is a window count over the groups
   * (computed once with the aggregate, not by a second aggregate); a page past the end has no
   * row to carry it and is counted on its own.
   */
  private async paged<Row extends { k: number; total: number }>(
    groups: RawBuilder<unknown>,
    select: RawBuilder<unknown>,
    order: RawBuilder<unknown>,
    window: PageWindow | undefined,
  ): Promise<{ rows: Row[]; total: number }> {
    const counted = window ? sql`, count(*) OVER () AS total_rows` : sql``;
    const rows = await this.longReads.all(sql<Row & { total_rows?: number }>`SELECT ${select}${counted}
      FROM (${groups}) g JOIN devices d ON d.id = g.device_id
      ORDER BY ${order} ${this.page(window)}`);
    const total = !window
      ? rows.length
      : rows.length
        ? Number(rows[0]!.total_rows)
        : window.offset === 0
          ? 0
          : await this.count(groups);
    return {
      // An export's rows (no window, no count) are taken as they came: one object each, not three.
      rows: window
        ? rows.map(({ total_rows: _count, ...row }) => numbers(row as unknown as Row))
        : rows.map(numbers),
      total,
    };
  }

  private async count(groups: RawBuilder<unknown>): Promise<number> {
    const rows = await this.longReads.all(
      sql<{ n: number }>`SELECT CAST(count(*) AS bigint) AS n FROM (${groups}) g`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  errorLog(orgId: number, bounds: PeriodBounds[], filter: DeviceFilter, window?: PageWindow, first = 0) {
    return this.paged<ErrorLogGroup>(
      this.errorLogGroups(orgId, bounds, first, filter),
      sql`g.k AS k, d.name AS device_name, d.device_key AS device_key, g.app_name AS app_name,
        g.model AS model, g.total AS total`,
      sql`g.k, g.device_id, g.app_name, g.model`,
      window,
    );
  }

  deviceTime(orgId: number, bounds: PeriodBounds[], filter: DeviceFilter, window?: PageWindow, first = 0) {
    return this.paged<DeviceTimeGroup>(
      this.deviceTimeGroups(orgId, bounds, first, filter),
      sql`g.k AS k, d.name AS device_name, d.device_key AS device_key, g.total AS total`,
      sql`g.k, g.device_id`,
      window,
    );
  }

  async appTime(orgId: number, bounds: PeriodBounds[], filter: DeviceFilter, window?: PageWindow, first = 0) {
    return this.paged<AppTimeGroup>(
      this.appTimeGroups(orgId, bounds, first, filter, await this.usageLookback(orgId)),
      sql`g.k AS k, d.name AS device_name, d.device_key AS device_key, g.app_name AS app_name,
        g.package_name AS package_name, g.total AS total`,
      sql`g.k, g.device_id, g.package_name`,
      window,
    );
  }

  async proofOfPlay(
    orgId: number,
    bounds: PeriodBounds[],
    filter: DeviceFilter,
    window?: PageWindow,
    first = 0,
  ) {
    const page = await this.paged<ProofOfPlayGroup>(
      this.proofOfPlayGroups(orgId, bounds, first, filter),
      sql`g.k AS k, d.name AS device_name, d.device_key AS device_key, g.program_id AS program_id,
        (SELECT name FROM programs WHERE programs.id = g.program_id) AS program_name,
        g.total AS total, g.plays AS plays, g.cut_short AS cut_short`,
      sql`g.k, g.device_id, g.program_id`,
      window,
    );
    return {
      total: page.total,
      rows: page.rows.map((r) => ({ ...r, plays: Number(r.plays), cut_short: Number(r.cut_short) })),
    };
  }

  /** The aggregate alone, without devices, order or paging: the benchmark's baseline. */
  async appTimeAggregateOnly(orgId: number, bounds: PeriodBounds[]) {
    const lookback = await this.usageLookback(orgId);
    const rows = await this.longReads.all(
      sql<{ k: number }>`${this.appTimeGroups(orgId, bounds, 0, {}, lookback)}`,
    );
    return rows.length;
  }

  /** The earliest and latest time of a report's rows in the company (the `(org_id, time)` indexes of migration 016). */
  async dataSpan(
    orgId: number,
    kind: 'errorLog' | 'deviceTime' | 'appTime' | 'operationLog' | 'proofOfPlay',
  ) {
    const source = {
      errorLog: { table: 'abnormal_logs', column: 'upload_date' },
      deviceTime: { table: 'screen_time', column: 'from_at' },
      appTime: { table: 'app_usage', column: 'started_at' },
      operationLog: { table: 'operation_logs', column: 'created_at' },
      proofOfPlay: { table: 'play_records', column: 'started_at' },
    } as const;
    const { table, column } = source[kind];
    const row = await sql<{ first: number | null; last: number | null }>`
      SELECT min(${sql.ref(column)}) AS first, max(${sql.ref(column)}) AS last
      FROM ${sql.table(table)} WHERE org_id = ${orgId}`.execute(this.db);
    const found = row.rows[0];
    return found?.first == null || found.last == null
      ? undefined
      : { first: Number(found.first), last: Number(found.last) };
  }

  private operations(orgId: number, from: number, to: number) {
    return this.db
      .selectFrom('operation_logs')
      .where('org_id', '=', orgId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to);
  }

  /** The company's operation log within [from, to), newest first, as a log is read on screen. */
  async operationPage(orgId: number, from: number, to: number, window: PageWindow) {
    const [rows, total] = await Promise.all([
      this.operations(orgId, from, to)
        .select(['id', 'user_name', 'action', 'content', 'detail', 'ip', 'created_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(window.limit)
        .offset(window.offset)
        .execute(),
      this.operations(orgId, from, to)
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as OperationRow[], total: Number(total.n) };
  }

  /** The rows after `after` (keyset on time and id), for exports that read in chunks. */
  operationChunk(
    orgId: number,
    from: number,
    to: number,
    after: { createdAt: number; id: number } | undefined,
    limit: number,
  ): Promise<OperationRow[]> {
    let query = this.operations(orgId, from, to);
    if (after)
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '>', after.createdAt),
          eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)]),
        ]),
      );
    return query
      .select(['id', 'user_name', 'action', 'content', 'detail', 'ip', 'created_at'])
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute() as Promise<OperationRow[]>;
  }
}

/**
 * PostgreSQL hands bigint sums back as numbers (database.ts), SQLite too; k may come back as text
 * from JSON. Sets them in place: the row objects are the driver's own, made for this read.
 */
function numbers<T extends { k: number; total: number }>(row: T): T {
  row.k = Number(row.k);
  row.total = Number(row.total);
  return row;
}
