import { reports, reportTime, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import { Refusal } from '../../refusal.js';
import { inOrder } from './read-ahead.js';
import { contentOf } from '../operation-log/repository.js';
import type { DeviceFilter, OperationRow, PeriodBounds, ReportRepository } from './repository.js';

type Filter = reports.ReportFilter;
type OperationFilter = reports.OperationReportFilter;
type Kind = reports.ReportKind;

/** What a request covers: its periods (buckets of the mode) in the caller's zone and the days the filters named. */
export interface ReportPlan {
  sign: reportTime.ReportSign;
  zone: string;
  periods: reportTime.Bucket[];
  fromDay: string;
  toDay: string;
}

export type ReportRow =
  | ({ kind: 'errorLog'; period: reportTime.Bucket } & reports.ErrorLogRow)
  | ({ kind: 'deviceTime'; period: reportTime.Bucket } & reports.DeviceTimeRow)
  | ({ kind: 'appTime'; period: reportTime.Bucket } & reports.AppTimeRow)
  | ({ kind: 'proofOfPlay'; period: reportTime.Bucket } & reports.ProofOfPlayRow)
  | ({ kind: 'operationLog' } & reports.OperationLogRow);

/** Rows an export reads at a time from the operation log. */
const OPERATION_CHUNK = 2000;
/** Periods an export has read at once: one per reader thread (SQLite) or pool connection (PostgreSQL). */
const PERIODS_AHEAD = 2;

/**
 * The four reports of spec 3 section 2.7. A request's mode (sign) and days become periods in the
 * caller's zone: no days means the current one (today, this week, this month, this year, the
 * last 7 days); days are widened to whole periods. The contract has already refused a week
 * without a date, an end before its start and a range longer than the mode allows.
 */
export class ReportService {
  constructor(
    private readonly repository: ReportRepository,
    private readonly clock: Clock,
  ) {}

  plan(filter: {
    sign: reportTime.ReportSign;
    startTime?: string;
    endTime?: string;
    timeZone: string;
  }): ReportPlan {
    const zone = filter.timeZone;
    const today = reportTime.dayIn(this.clock.now(), zone);
    let from: reportTime.CalendarDay;
    let to: reportTime.CalendarDay;
    if (filter.startTime === undefined) ({ from, to } = reportTime.defaultRange(filter.sign, today));
    else {
      from = reportTime.parseDay(reports.toDay(filter.startTime, zone));
      to = reportTime.parseDay(reports.toDay(filter.endTime ?? filter.startTime, zone));
    }
    const periods = reportTime.bucketsOf(from, to, filter.sign, zone);
    // The contract counted the periods already; this holds for callers that skip it (benchmarks).
    if (periods.length > reportTime.MAX_BUCKETS[filter.sign])
      throw new Refusal('report.rangeTooLong', 'invalid');
    return {
      sign: filter.sign,
      zone,
      periods,
      fromDay: reportTime.formatDay(from),
      toDay: reportTime.formatDay(to),
    };
  }

  /** The operation-log report's range: the days named, or today. */
  operationPlan(filter: OperationFilter): ReportPlan {
    return this.plan({ ...filter, sign: 'day' });
  }

  private async devices(orgId: number, filter: Filter): Promise<DeviceFilter> {
    if (filter.deviceKey === undefined) return { deviceName: filter.deviceName };
    const found = await this.repository.deviceByKey(orgId, filter.deviceKey);
    if (!found) throw new Refusal('device.notFound', 'notFound');
    return { deviceName: filter.deviceName, deviceId: found.id };
  }

  /** One page of a grouped report. */
  async page(
    kind: Exclude<Kind, 'operationLog'>,
    orgId: number,
    filter: Filter & { start: number; size: number },
  ) {
    const plan = this.plan(filter);
    const devices = await this.devices(orgId, filter);
    const window = { limit: filter.size, offset: pageOffset(filter.start, filter.size) };
    const { rows, total } = await this.grouped(kind, orgId, plan.periods, devices, window);
    return { rows: rows.map(apiRow), total, plan };
  }

  async operationPage(
    orgId: number,
    filter: OperationFilter & { start: number; size: number },
    language: Language,
  ) {
    const plan = this.operationPlan(filter);
    const { from, to } = span(plan.periods);
    const { rows, total } = await this.repository.operationPage(orgId, from, to, {
      limit: filter.size,
      offset: pageOffset(filter.start, filter.size),
    });
    return { rows: rows.map((r) => toOperationRow(r, language)), total, plan };
  }

  private async grouped(
    kind: Exclude<Kind, 'operationLog'>,
    orgId: number,
    periods: reportTime.Bucket[],
    devices: DeviceFilter,
    window?: { limit: number; offset: number },
    first = 0,
  ): Promise<{ rows: ReportRow[]; total: number }> {
    const bounds: PeriodBounds[] = periods;
    const periodOf = (k: number) => periods[k - first]!;
    switch (kind) {
      case 'errorLog': {
        const { rows, total } = await this.repository.errorLog(orgId, bounds, devices, window, first);
        return {
          total,
          rows: rows.map((r) => ({
            kind,
            period: periodOf(r.k),
            deviceName: r.device_name,
            deviceKey: r.device_key,
            appName: r.app_name,
            model: r.model,
            total: r.total,
            groupDate: periodOf(r.k).label,
          })),
        };
      }
      case 'deviceTime': {
        const { rows, total } = await this.repository.deviceTime(orgId, bounds, devices, window, first);
        return {
          total,
          rows: rows.map((r) => ({
            kind,
            period: periodOf(r.k),
            deviceName: r.device_name,
            deviceKey: r.device_key,
            totalTime: r.total,
            groupDate: periodOf(r.k).label,
          })),
        };
      }
      case 'appTime': {
        const { rows, total } = await this.repository.appTime(orgId, bounds, devices, window, first);
        return {
          total,
          rows: rows.map((r) => ({
            kind,
            period: periodOf(r.k),
            deviceName: r.device_name,
            deviceKey: r.device_key,
            appName: r.app_name,
            packageName: r.package_name,
            totalTime: r.total,
            groupDate: periodOf(r.k).label,
          })),
        };
      }
      case 'proofOfPlay': {
        const { rows, total } = await this.repository.proofOfPlay(orgId, bounds, devices, window, first);
        return {
          total,
          rows: rows.map((r) => ({
            kind,
            period: periodOf(r.k),
            programId: Number(r.program_id),
            programName: r.program_name ?? '',
            deviceName: r.device_name,
            deviceKey: r.device_key,
            plays: r.plays,
            totalTime: r.total,
            cutShort: r.cut_short,
            groupDate: periodOf(r.k).label,
          })),
        };
      }
    }
  }

  /**
   * Every row of a report in page order, a period (or 2,000 log rows) at a time: an export
   * holds one chunk in memory, and the database is free between chunks.
   */
  async *rows(
    kind: Kind,
    orgId: number,
    filter: reports.DocumentParams,
    language: Language,
  ): AsyncGenerator<ReportRow[]> {
    if (kind === 'operationLog') {
      const { from, to } = span(this.operationPlan(filter).periods);
      let after: { createdAt: number; id: number } | undefined;
      for (;;) {
        const chunk = await this.repository.operationChunk(orgId, from, to, after, OPERATION_CHUNK);
        if (!chunk.length) return;
        yield chunk.map((r) => ({ kind, ...toOperationRow(r, language) }));
        const last = chunk[chunk.length - 1]!;
        after = { createdAt: last.created_at, id: last.id };
      }
    }
    const plan = this.plan(filter);
    const devices = await this.devices(orgId, filter);
    const reads = plan.periods.map(
      (period, k) => () => this.grouped(kind, orgId, [period], devices, undefined, k),
    );
    for await (const { rows } of inOrder(reads, PERIODS_AHEAD)) if (rows.length) yield rows;
  }

  /** The first and last day with data of a report, in the zone; nulls when there is none. */
  async dataRange(orgId: number, kind: Kind, zone: string) {
    const span = await this.repository.dataSpan(orgId, kind);
    const day = (t: number) => reportTime.formatDay(reportTime.dayIn(t, zone));
    return span ? { firstDay: day(span.first), lastDay: day(span.last) } : { firstDay: null, lastDay: null };
  }

  /** Checks what a document needs before any byte is sent (so a refusal is still a clean fail). */
  async prepare(kind: Kind, orgId: number, filter: reports.DocumentParams): Promise<ReportPlan> {
    if (kind === 'operationLog') return this.operationPlan(filter);
    await this.devices(orgId, filter);
    return this.plan(filter);
  }

  /** The grouped rows of periods without paging: the benchmark's page-free read. */
  aggregateOnly(orgId: number, periods: PeriodBounds[]) {
    return this.repository.appTimeAggregateOnly(orgId, periods);
  }
}

/** A row as the list call answers it (without the period bounds and the kind). */
function apiRow(row: ReportRow) {
  const copy: Partial<ReportRow> & Record<string, unknown> = { ...row };
  delete copy.kind;
  delete copy.period;
  return copy;
}

const span = (periods: reportTime.Bucket[]) => ({
  from: periods[0]!.start,
  to: periods[periods.length - 1]!.end,
});

function toOperationRow(r: OperationRow, language: Language): reports.OperationLogRow {
  return {
    userName: r.user_name,
    operationType: r.action,
    ...contentOf(r, language),
    operatorIp: r.ip,
    operatorTime: Number(r.created_at),
  };
}
