import { describe, expect, it } from 'vitest';
import { mergePanelStates, panelState, REPORT_TIME_TOLERANCE_MS, reportTime } from './report-groups.js';

describe('report groups', () => {
  it('orders a report by its own time when plausible, else by when it was received', () => {
    const received = 10_000_000;
    expect(reportTime(undefined, received)).toBe(received);
    expect(reportTime(received - 1500, received)).toBe(received - 1500);
    // A panel clock ahead of the server, or far behind it, counts as the receive time (or the tolerance).
    expect(reportTime(received + 5000, received)).toBe(received);
    expect(reportTime(0, received)).toBe(received - REPORT_TIME_TOLERANCE_MS);
  });

  it('merges two reports of a panel to the same state whichever comes first', () => {
    const older = panelState(7, { cpu_temperature: 41, ram_used: 1, brightness: 20 }, 1000, 1005);
    const newer = panelState(7, { cpu_temperature: 55, volume: 30 }, 2000, 2003);
    const expected = {
      id: 7,
      seenAt: 2003,
      groups: {
        telemetry: { at: 2000, set: { cpu_temperature: 55, ram_used: 1 } },
        brightness: { at: 1000, set: { brightness: 20 } },
        sound: { at: 2000, set: { volume: 30 } },
      },
    };
    expect(mergePanelStates(older, newer)).toEqual(expected);
    expect(mergePanelStates(newer, older)).toEqual(expected);
  });
});
