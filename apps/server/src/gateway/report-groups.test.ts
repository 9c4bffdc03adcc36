import { describe, expect, it } from 'vitest';
import { BOOT_TOLERANCE_MS, madeAfter, mergePanelStates, panelState } from './report-groups.js';

describe('report groups', () => {
  it('orders reports of one boot by uptime, other reports by when they were received', () => {
    // One boot (receive time minus uptime within the tolerance): uptime decides, however late one came.
    expect(madeAfter({ at: 5_000, uptimeMs: 2_000 }, { at: 4_000, uptimeMs: 3_000 })).toBe(false);
    expect(madeAfter({ at: 4_000, uptimeMs: 3_000 }, { at: 5_000, uptimeMs: 2_000 })).toBe(true);
    // Uptime started again (a reboot): the receive time decides.
    const rebooted = { at: 100_000, uptimeMs: 1_000 };
    expect(madeAfter(rebooted, { at: 90_000, uptimeMs: 80_000 })).toBe(true);
    expect(madeAfter({ at: 90_000, uptimeMs: 80_000 }, rebooted)).toBe(false);
    expect(madeAfter({ at: 1_000 + BOOT_TOLERANCE_MS + 1, uptimeMs: 0 }, { at: 1_000, uptimeMs: 999 })).toBe(
      true,
    );
    // Without uptime on either side: the receive time, ties to the later message.
    expect(madeAfter({ at: 7 }, { at: 7, uptimeMs: 3 })).toBe(true);
    expect(madeAfter({ at: 6 }, { at: 7 })).toBe(false);
  });

  it('merges two reports of a panel to the same state whichever comes first', () => {
    const older = panelState(7, { cpu_temperature: 41, ram_used: 1, brightness: 20 }, { receivedAt: 1005 });
    const newer = panelState(7, { cpu_temperature: 55, volume: 30 }, { receivedAt: 2003, ts: 2000 });
    const expected = {
      id: 7,
      seenAt: 2003,
      groups: {
        telemetry: { at: 2003, set: { cpu_temperature: 55, ram_used: 1 } },
        brightness: { at: 1005, set: { brightness: 20 } },
        sound: { at: 2003, set: { volume: 30 } },
      },
      clock: { at: 2003, offsetMs: -3 },
    };
    expect(mergePanelStates(older, newer)).toEqual(expected);
    expect(mergePanelStates(newer, older)).toEqual(expected);
  });

  it('merges by uptime when a report made later arrived first, and keeps the latest boot', () => {
    const made2 = panelState(7, { volume: 2 }, { receivedAt: 10_000, uptimeMs: 2_000, ts: 1 });
    const made1 = panelState(7, { volume: 1, mute: 1 }, { receivedAt: 10_400, uptimeMs: 1_000 });
    const merged = mergePanelStates(made2, made1);
    expect(merged.groups.sound).toEqual({ at: 10_000, uptimeMs: 2_000, set: { volume: 2, mute: 1 } });
    expect(merged).toMatchObject({
      seenAt: 10_400,
      boot: { at: 10_400, uptimeMs: 1_000 },
      clock: { at: 10_000 },
    });
  });
});
