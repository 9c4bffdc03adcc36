import { device } from '@panelfleet/contract';
import { describe, expect, it } from 'vitest';
import { initialApps } from './apps.js';
import { historyReports } from './history.js';

const NOW = Date.UTC(2026, 0, 20, 12);

describe('the history a panel sends after connecting', () => {
  it('is valid protocol, the same on every start (so sending it again stores nothing), and covers the days asked', () => {
    const first = historyReports('DEMO-00001', 'PF-86', initialApps(1), 14, NOW);
    const again = historyReports('DEMO-00001', 'PF-86', initialApps(1), 14, NOW + 3_600_000);
    expect(again).toEqual(first);
    expect(first.usage.length).toBeGreaterThan(30);
    for (const report of first.usage) expect(device.appUsageReport.safeParse(report).success).toBe(true);
    for (const log of first.logs) expect(device.abnormalLog.safeParse(log).success).toBe(true);
    expect(new Set(first.usage.map((r) => r.id)).size).toBe(first.usage.length);
    const days = new Set(first.usage.map((r) => Math.floor(r.from / 86_400_000)));
    expect(Math.min(...days)).toBeGreaterThanOrEqual(Math.floor(NOW / 86_400_000) - 14);
    expect(Math.max(...days)).toBeLessThan(Math.floor(NOW / 86_400_000));
    // Another panel has a history of its own.
    expect(historyReports('DEMO-00002', 'PF-86', initialApps(2), 14, NOW).usage[0]!.id).not.toBe(
      first.usage[0]!.id,
    );
  });
});
