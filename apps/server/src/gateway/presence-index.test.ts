import { describe, expect, it } from 'vitest';
import { PresenceIndex } from './presence-index.js';

const panel = (id: number, orgId: number) => ({ id, orgId, deviceKey: `K${id}` });

describe('PresenceIndex', () => {
  it('counts online panels per company, once each', () => {
    const index = new PresenceIndex();
    expect(index.add(panel(1, 10))).toBe(true);
    expect(index.add(panel(1, 10))).toBe(false);
    index.add(panel(2, 10));
    index.add(panel(3, 20));
    expect(index.onlineIn(10)).toBe(2);
    expect(index.onlineIn(20)).toBe(1);
    expect(index.remove('K1')?.id).toBe(1);
    expect(index.remove('K1')).toBeUndefined();
    expect(index.onlineIn(10)).toBe(1);
    expect(index.size).toBe(2);
  });

  it('moves a panel that reappears under another company', () => {
    const index = new PresenceIndex();
    index.add(panel(1, 10));
    index.add(panel(1, 20));
    expect(index.onlineIn(10)).toBe(0);
    expect(index.onlineIn(20)).toBe(1);
  });

  it('clears everything and names the companies that had panels online', () => {
    const index = new PresenceIndex();
    index.add(panel(1, 10));
    index.add(panel(2, 20));
    expect(index.clear().sort()).toEqual([10, 20]);
    expect(index.onlineIn(10)).toBe(0);
    expect(index.size).toBe(0);
  });
});
