import type { KnownDevice } from './device-directory.js';

/**
 * The online panels by company, kept beside the gateway's presence: a dashboard's "online
 * devices" is one map read, whatever the fleet's size. Keyed by device key, so a panel that
 * goes offline is removed even when its device row is gone (deleted, disabled).
 */
export class PresenceIndex {
  private readonly byKey = new Map<string, KnownDevice>();
  private readonly counts = new Map<number, number>();

  /** Counts the panel online; false when it already was. */
  add(known: KnownDevice): boolean {
    const previous = this.byKey.get(known.deviceKey);
    if (previous && previous.orgId === known.orgId) return false;
    if (previous) this.decrement(previous.orgId);
    this.byKey.set(known.deviceKey, known);
    this.counts.set(known.orgId, (this.counts.get(known.orgId) ?? 0) + 1);
    return true;
  }

  /** Counts the panel offline; returns it if it was counted online. */
  remove(deviceKey: string): KnownDevice | undefined {
    const known = this.byKey.get(deviceKey);
    if (!known) return undefined;
    this.byKey.delete(deviceKey);
    this.decrement(known.orgId);
    return known;
  }

  /** Forgets everything; returns the companies that had panels online. */
  clear(): number[] {
    const orgs = [...this.counts.keys()];
    this.byKey.clear();
    this.counts.clear();
    return orgs;
  }

  onlineIn(orgId: number): number {
    return this.counts.get(orgId) ?? 0;
  }

  get size() {
    return this.byKey.size;
  }

  private decrement(orgId: number) {
    const left = (this.counts.get(orgId) ?? 1) - 1;
    if (left > 0) this.counts.set(orgId, left);
    else this.counts.delete(orgId);
  }
}
