import type { webhooks as contract } from '@panelfleet/contract';
import type { WebhookTarget } from './outbox.js';

type LookUp = (companyId: number, type: contract.WebhookEventType) => Promise<WebhookTarget[]>;

/** How long an answer is kept at most: it bounds how stale a missed change can leave it. */
const KEEP_MS = 60_000;
/** Companies times event types kept before the cache starts over. */
const MAX_ENTRIES = 20_000;

/**
 * Which webhooks want a company's plain events, kept per company and event type. Every panel's
 * presence and every command result asks, and almost every answer is "none": asked of the
 * database each time, three queries per event cost a panel connect more than the gateway's own
 * work (bench:guard's connect path). Emptied when any webhook changes (`webhooksChanged` on the
 * event bus, from every instance) or when this instance may have missed such a message; an
 * answer is also kept no longer than a minute, which bounds what a change of an organisation's
 * distributor leaves stale.
 */
export class SubscriberCache {
  private readonly entries = new Map<string, { keptAt: number; targets: Promise<WebhookTarget[]> }>();

  constructor(
    private readonly lookUp: LookUp,
    private readonly now: () => number,
  ) {}

  targets(companyId: number, type: contract.WebhookEventType): Promise<WebhookTarget[]> {
    const key = `${companyId}:${type}`;
    const now = this.now();
    const kept = this.entries.get(key);
    if (kept && now - kept.keptAt < KEEP_MS) return kept.targets;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const targets = this.lookUp(companyId, type);
    this.entries.set(key, { keptAt: now, targets });
    // A failed look-up is not kept: the next event asks again.
    targets.catch(() => {
      if (this.entries.get(key)?.targets === targets) this.entries.delete(key);
    });
    return targets;
  }

  clear() {
    this.entries.clear();
  }
}
