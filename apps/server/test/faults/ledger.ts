import type { SimulatedPanel } from '../../../simulator/src/panel.js';

type Query = <T>(text: string) => Promise<T[]>;

export interface Count {
  sent: number;
  stored: number;
  lost: number;
  duplicated: number;
  /** Of the lost: named by a receipt all the same (the server confirmed what it did not store). */
  confirmedLost?: number;
}

const add = (a: Count, b: Count): Count => ({
  sent: a.sent + b.sent,
  stored: a.stored + b.stored,
  lost: a.lost + b.lost,
  duplicated: a.duplicated + b.duplicated,
});
export const NONE: Count = { sent: 0, stored: 0, lost: 0, duplicated: 0 };
export const total = (counts: Count[]) => counts.reduce(add, NONE);

const quoted = (ids: Iterable<string>) => [...ids].map((id) => `'${id}'`).join(',');

/**
 * What the panels reported while things were killed and stopped: every round, each panel sends
 * one screen-time (usage) report and every tenth an abnormal log, each with its own id. The panels
 * keep each until a receipt names it (protocol 5.9); the ledger then counts, from the database,
 * the ids stored, missing and stored more than once.
 */
export class ReportLedger {
  readonly usage = new Set<string>();
  readonly logs = new Set<string>();
  /** Ids the receipts named, as `usage:<id>` and `logs:<id>`. */
  private readonly confirmed = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private round = 0;

  constructor(
    private readonly panels: SimulatedPanel[],
    private readonly everyMs: number,
  ) {
    for (const panel of panels) {
      const confirm = panel.outbox.confirm.bind(panel.outbox);
      panel.outbox.confirm = (receipt) => {
        for (const list of ['usage', 'logs'] as const)
          for (const id of receipt[list] ?? []) this.confirmed.add(`${list}:${id}`);
        confirm(receipt);
      };
    }
  }

  start() {
    this.timer = setInterval(() => this.send(), this.everyMs);
  }

  stop() {
    clearInterval(this.timer);
  }

  private send() {
    const round = this.round++;
    this.panels.forEach((panel, i) => {
      const usage = panel.reportUsage();
      this.usage.add(usage.report.id);
      void usage.sent.catch(() => undefined);
      if ((i + round) % 10 === 0)
        void panel
          .reportLog({
            fileName: `fault-${round}.txt`,
            appName: 'Fault suite',
            occurredAt: panel.now(),
            text: `round ${round}`,
          })
          .then((id) => this.logs.add(id));
    });
  }

  /** Unconfirmed messages the panels still keep (0 once everything sent is confirmed stored). */
  unconfirmed() {
    return this.panels.reduce((n, p) => n + p.outbox.size, 0);
  }

  /**
   * Every panel sends what it keeps again now, as after a reconnect (protocol 5.9), instead of
   * waiting out a back-off that the outages stretched to minutes.
   */
  resendKept() {
    for (const panel of this.panels)
      if (panel.outbox.size) void panel.outbox.resendAll().catch(() => undefined);
  }

  async count(query: Query): Promise<{ usage: Count; logs: Count }> {
    const tally = async (table: string, list: 'usage' | 'logs', sent: Set<string>): Promise<Count> => {
      if (!sent.size) return NONE;
      const rows = await query<{ report_id: string; n: string | number }>(
        `SELECT report_id, count(*) AS n FROM ${table} WHERE report_id IN (${quoted(sent)}) GROUP BY report_id`,
      );
      const stored = new Set(rows.map((r) => r.report_id));
      const lost = [...sent].filter((id) => !stored.has(id));
      return {
        sent: sent.size,
        stored: rows.length,
        lost: lost.length,
        duplicated: rows.reduce((n, r) => n + Number(r.n) - 1, 0),
        confirmedLost: lost.filter((id) => this.confirmed.has(`${list}:${id}`)).length,
      };
    };
    return {
      usage: await tally('screen_time', 'usage', this.usage),
      logs: await tally('abnormal_logs', 'logs', this.logs),
    };
  }
}

/** Panels that ran the command (order, value) once, not at all, or more than once; and its rows. */
export async function countCommand(
  panels: SimulatedPanel[],
  order: string,
  value: string,
  query: Query,
): Promise<Count & { rows: Record<string, number> }> {
  const runs = panels.map(
    (p) => p.executed.filter((c) => c.order === order && String(c.value) === value).length,
  );
  const rows = await query<{ status: string; n: string | number }>(
    `SELECT status, count(*) AS n FROM commands WHERE order_code = '${order}' AND value = '${value}' GROUP BY status`,
  );
  return {
    sent: panels.length,
    stored: runs.filter((n) => n >= 1).length,
    lost: runs.filter((n) => n === 0).length,
    duplicated: runs.reduce((n, r) => n + Math.max(0, r - 1), 0),
    rows: Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])),
  };
}

/** Panels of an OTA task: each ran its OTA command once and installed once. */
export function countOta(panels: SimulatedPanel[], version: string): Count {
  const runs = panels.map((p) => p.executed.filter((c) => c.order === 'OTA').length);
  return {
    sent: panels.length,
    stored: panels.filter((p) => p.state.otaVersion === version).length,
    lost: runs.filter((n) => n === 0).length,
    duplicated:
      runs.reduce((n, r) => n + Math.max(0, r - 1), 0) +
      panels.reduce((n, p) => n + Math.max(0, p.otaInstalls - 1), 0),
  };
}
