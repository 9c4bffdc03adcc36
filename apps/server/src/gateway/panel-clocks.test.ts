import { describe, expect, it } from 'vitest';
import { PanelClocks } from './panel-clocks.js';

describe('PanelClocks', () => {
  it("asks to write a panel's boot and clock offset when they moved, or a minute on, not with every report", () => {
    const clocks = new PanelClocks();
    const at = 10_000_000;
    expect(clocks.timing(1, at, 5_000, at - 600_000)).toMatchObject({ anchorsBoot: true, keepsClock: true });
    // The same boot and offset (within the transit times' wobble): neither is written again.
    expect(clocks.timing(1, at + 1_000, 6_300, at + 1_000 - 600_400)).toMatchObject({
      anchorsBoot: false,
      keepsClock: false,
    });
    // Another panel is its own.
    expect(clocks.timing(2, at + 1_000, 6_000, at)).toMatchObject({ anchorsBoot: true, keepsClock: true });
    // The clock was set right; then the panel rebooted.
    expect(clocks.timing(1, at + 2_000, 7_000, at + 2_000)).toMatchObject({
      anchorsBoot: false,
      keepsClock: true,
    });
    expect(clocks.timing(1, at + 30_000, 1_000, at + 30_000)).toMatchObject({
      anchorsBoot: true,
      keepsClock: false,
    });
    // A minute after they were last written, both go again.
    expect(clocks.timing(1, at + 91_000, 62_000, at + 91_000)).toMatchObject({
      anchorsBoot: true,
      keepsClock: true,
    });
    // Nothing to write without uptime or time.
    expect(clocks.timing(3, at)).toEqual({
      receivedAt: at,
      uptimeMs: undefined,
      ts: undefined,
      anchorsBoot: false,
      keepsClock: false,
    });
  });
});
