import { BOOT_TOLERANCE_MS, type ReportTiming } from './report-groups.js';

/** A boot or a clock offset this instance wrote is written again at least this often. */
const REWRITE_MS = 60_000;
/** A clock offset that moved less than this since this instance wrote it is not written again. */
const CLOCK_STEP_MS = 1_000;

interface Written {
  value: number;
  at: number;
}

/**
 * What this instance last wrote of each panel's boot (receive time minus uptime) and clock offset
 * (`ts` minus receive time). A state report asks to write them only when they moved, or a minute
 * later: most reports of a panel carry neither, so the stream of telemetry writes costs no more
 * SQL than before (bench:ingest). Other instances write their own; the database keeps the newest.
 */
export class PanelClocks {
  private readonly boots = new Map<number, Written>();
  private readonly clocks = new Map<number, Written>();

  timing(deviceId: number, receivedAt: number, uptimeMs?: number, ts?: number): ReportTiming {
    const anchorsBoot =
      uptimeMs !== undefined &&
      this.moved(this.boots, deviceId, receivedAt - uptimeMs, BOOT_TOLERANCE_MS, receivedAt);
    const keepsClock =
      ts !== undefined && this.moved(this.clocks, deviceId, ts - receivedAt, CLOCK_STEP_MS, receivedAt);
    return { receivedAt, uptimeMs, ts, anchorsBoot, keepsClock };
  }

  private moved(written: Map<number, Written>, deviceId: number, value: number, step: number, now: number) {
    const last = written.get(deviceId);
    if (last && Math.abs(value - last.value) <= step && now - last.at < REWRITE_MS) return false;
    written.set(deviceId, { value, at: now });
    return true;
  }
}
