import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';
import type { CustomerScope } from '../customers/policy.js';

export interface AbnormalLogFilter {
  deviceKey?: string;
  from?: number;
  to?: number;
  model?: string;
  appName?: string;
}

/** Reads of the operation log and the abnormal logs; every method takes the caller's organisation or scope. */
export class LogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async operationPage(orgId: number, offset: number, size: number, content?: string) {
    let query = this.db.selectFrom('operation_logs').where('org_id', '=', orgId);
    if (content) query = query.where(containsFolded('content', content));
    const [rows, total] = await Promise.all([
      query
        .select(['id', 'user_name', 'action', 'content', 'detail', 'ip', 'created_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(size)
        .offset(offset)
        .execute(),
      query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  private scoped(scope: CustomerScope) {
    let query = this.db.selectFrom('abnormal_logs as l');
    if (scope.kind === 'own') query = query.where('l.org_id', '=', scope.orgId);
    if (scope.kind === 'children')
      query = query.where('l.org_id', 'in', (eb) =>
        eb.selectFrom('organisations').select('id').where('parent_id', '=', scope.parentId),
      );
    return query;
  }

  async abnormalPage(scope: CustomerScope, offset: number, size: number, filter: AbnormalLogFilter) {
    let query = this.scoped(scope);
    if (filter.deviceKey) query = query.where(containsFolded('l.device_key', filter.deviceKey));
    if (filter.model) query = query.where(containsFolded('l.model', filter.model));
    if (filter.appName) query = query.where(containsFolded('l.app_name', filter.appName));
    if (filter.from !== undefined) query = query.where('l.upload_date', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('l.upload_date', '<', filter.to);
    const [rows, total] = await Promise.all([
      query
        .leftJoin('devices as d', 'd.id', 'l.device_id')
        .select([
          'l.id',
          'l.file_name',
          'l.device_key',
          'd.name as device_name',
          'l.upload_date',
          'l.occurred_at',
          'l.model',
          'l.app_name',
          'l.status',
          'l.processed_by',
          sql<number>`coalesce(l.text_length, length(l.text))`.as('text_length'),
        ])
        .orderBy('l.upload_date', 'desc')
        .orderBy('l.id', 'desc')
        .limit(size)
        .offset(offset)
        .execute(),
      query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** A log in the caller's reach, without its text. */
  findAbnormal(scope: CustomerScope, id: number) {
    return this.scoped(scope)
      .select([
        'l.id',
        'l.file_name',
        'l.status',
        'l.device_key',
        sql<number>`coalesce(l.text_length, length(l.text))`.as('text_length'),
      ])
      .where('l.id', '=', id)
      .executeTakeFirst();
  }

  /** `length` characters of a log's text from character `offset` (0-based). */
  async textSlice(scope: CustomerScope, id: number, offset: number, length: number): Promise<string> {
    const row = await this.scoped(scope)
      .select(sql<string>`substr(l.text, ${offset + 1}, ${length})`.as('part'))
      .where('l.id', '=', id)
      .executeTakeFirst();
    return row?.part ?? '';
  }

  /** Marks a log processed once: false when it was not in reach or already processed. */
  async markProcessed(scope: CustomerScope, id: number, by: string, at: number): Promise<boolean> {
    const inReach = this.scoped(scope).select('l.id').where('l.id', '=', id);
    const result = await this.db
      .updateTable('abnormal_logs')
      .set({ status: 1, processed_by: by, processed_at: at })
      .where('id', 'in', inReach)
      .where('status', '!=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
