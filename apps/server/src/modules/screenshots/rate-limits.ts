import { screenshots } from '@panelfleet/contract';

/**
 * The screenshot rate limits of this instance: one request per panel per PANEL_GAP_MS, and at
 * most ORG_BURST per organisation in any ORG_WINDOW_MS. Check and reservation happen in one
 * synchronous step, so parallel requests cannot both pass a limit.
 */
export class ScreenshotLimits {
  private readonly lastOfPanel = new Map<number, number>();
  private readonly recentOfOrg = new Map<number, number[]>();

  constructor(
    private readonly panelGapMs = screenshots.SCREENSHOT_PANEL_GAP_MS,
    private readonly orgBurst = screenshots.SCREENSHOT_ORG_BURST,
    private readonly orgWindowMs = screenshots.SCREENSHOT_ORG_WINDOW_MS,
  ) {}

  /** Reserves a request, or says which limit refuses it. */
  reserve(orgId: number, deviceId: number, now: number): 'ok' | 'panel' | 'org' {
    const last = this.lastOfPanel.get(deviceId);
    if (last !== undefined && now - last < this.panelGapMs) return 'panel';
    const recent = (this.recentOfOrg.get(orgId) ?? []).filter((t) => now - t < this.orgWindowMs);
    if (recent.length >= this.orgBurst) {
      this.recentOfOrg.set(orgId, recent);
      return 'org';
    }
    recent.push(now);
    this.recentOfOrg.set(orgId, recent);
    this.lastOfPanel.set(deviceId, now);
    if (this.lastOfPanel.size > 100_000) this.forgetOlderThan(now - this.panelGapMs);
    return 'ok';
  }

  private forgetOlderThan(cutoff: number) {
    for (const [id, at] of this.lastOfPanel) if (at < cutoff) this.lastOfPanel.delete(id);
  }
}
