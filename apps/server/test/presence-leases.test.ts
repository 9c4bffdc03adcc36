import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PresenceLeaseRepository } from '../src/gateway/presence-lease-repository.js';
import { PresenceLeases } from '../src/gateway/presence-leases.js';
import { panelState } from '../src/gateway/report-groups.js';
import { DeviceStateStore } from '../src/gateway/state-store.js';
import { LabelRepository } from '../src/modules/labels/repository.js';
import { enroll, enrollmentSecretOf, operatorClient } from './device-helpers.js';
import { backends, startServer, TestClock, type TestServer } from './harness.js';

// Issue 28 item 3: `devices.online` stays true when the instance holding panels' connections dies.
// Instances A, B, C, D here are presence writers of their own (a state store each with its holder,
// leases of their own) beside the test server, on times far past the server's clock, so its own
// beats never find them lapsed. The two-instance processes are in presence-instances.test.ts.

const LAPSE = 1500;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.each(backends)('presence leases on %s', (backend) => {
  let server: TestServer;
  let base: number;
  let orgId: number;
  const ids: number[] = [];
  const keys: string[] = [];
  const db = () => server.app.db.kysely;
  const store = (owner: string) => new DeviceStateStore(db(), server.app.db.dialect, undefined, owner);
  const repository = () => new PresenceLeaseRepository(db(), server.app.db.dialect);
  const presence = (id: number, at: number, online: boolean) =>
    panelState(
      id,
      {},
      { receivedAt: at, presence: { online, reason: online ? 'connected' : 'disconnected' } },
    );
  const rowOf = (id: number) =>
    db()
      .selectFrom('devices')
      .select(['online', 'online_at', 'online_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const onlineCount = () => new LabelRepository(db()).countMatching(orgId, { online: true }, base);

  beforeAll(async () => {
    server = await startServer(backend);
    base = server.clock.now() + 1_000_000_000;
    const secret = await enrollmentSecretOf(await operatorClient(server));
    for (let i = 0; i < 4; i++) await enroll(server.url, `LEASE-${i}`, secret);
    const rows = await db()
      .selectFrom('devices')
      .select(['id', 'org_id', 'device_key'])
      .where('device_key', 'like', 'LEASE-%')
      .orderBy('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
    keys.push(...rows.map((r) => r.device_key));
    orgId = rows[0]!.org_id;
  });
  afterAll(() => server.stop());

  it('a dead instance’s panels go offline as of its last beat; a panel that reconnected elsewhere keeps that claim, written before or after the sweep', async () => {
    const [p0, p1, p2, p3] = ids as [number, number, number, number];
    const leases = repository();
    const a = store('A');
    const b = store('B');
    const t = base;
    await leases.enter('A', t, t + LAPSE);
    await leases.enter('B', t, t + LAPSE);
    await a.apply([presence(p0, t + 10, true), presence(p1, t + 10, true), presence(p2, t + 10, true)]);
    await b.apply([presence(p3, t + 20, true)]);
    expect(await rowOf(p0)).toEqual({ online: 1, online_at: t + 10, online_by: 'A' });
    expect(await onlineCount()).toBe(4);

    // A beats once more, then dies. p1 reconnects to B, which writes it before anyone sweeps.
    expect(await leases.renew('A', t + 1000, t + 1000 + LAPSE)).toBe(true);
    expect(await leases.renew('B', t + 3000, t + 3000 + LAPSE)).toBe(true);
    await b.apply([presence(p1, t + 1600, true)]);
    // (The test server's own lease lapses by then too: its clock is far behind.)
    expect((await leases.lapsed(t + 3000)).map((l) => l.owner).filter((o) => o.length === 1)).toEqual(['A']);
    // B sweeps: A's panels p0 and p2 go offline as of A's last beat.
    expect(await leases.sweep('A', t + 3000)).toBe(2);
    expect(await rowOf(p0)).toEqual({ online: 0, online_at: t + 1000, online_by: null });
    expect(await rowOf(p1)).toEqual({ online: 1, online_at: t + 1600, online_by: 'B' });
    // p2 had reconnected to B too (after A's last beat), but B's write lands after the sweep: it still wins.
    await b.apply([presence(p2, t + 1700, true)]);
    expect(await rowOf(p2)).toEqual({ online: 1, online_at: t + 1700, online_by: 'B' });
    // A's own late "gone" for p1 (seen before it died, written now) does not end B's claim.
    await a.apply([presence(p1, t + 2000, false)]);
    expect(await rowOf(p1)).toEqual({ online: 1, online_at: t + 1600, online_by: 'B' });
    expect(await rowOf(p3)).toEqual({ online: 1, online_at: t + 20, online_by: 'B' });
    expect(await onlineCount()).toBe(3);
    // Swept once: the lease is gone, a second sweep does nothing.
    expect(await leases.sweep('A', t + 4000)).toBeUndefined();
    const lost = await db()
      .selectFrom('panel_history')
      .select(['device_id', 'at', 'n1', 'txt'])
      .where('grp', '=', 'presence')
      .where('txt', '=', 'instanceLost')
      .where('device_id', 'in', ids)
      .orderBy('device_id')
      .execute();
    expect(lost.map((r) => ({ ...r, at: Number(r.at) }))).toEqual([
      { device_id: p0, at: t + 1000, n1: 0, txt: 'instanceLost' },
      { device_id: p2, at: t + 1000, n1: 0, txt: 'instanceLost' },
    ]);
    // B stops: what it still holds goes offline as of its last beat, its lease ends.
    expect(await leases.release('B', t + 3000)).toBe(3);
    expect(await onlineCount()).toBe(0);
    expect(await rowOf(p1)).toEqual({ online: 0, online_at: t + 3000, online_by: null });
    expect((await leases.lapsed(t + 1_000_000)).map((l) => l.owner).filter((o) => o.length === 1)).toEqual(
      [],
    );
  });

  it('an instance taken for dead that still lives writes the panels it holds online again, except one held elsewhere now', async () => {
    const [p0, p1] = ids as [number, number];
    const t = base + 100_000;
    const clock = new TestClock(t);
    const leases = repository();
    const c = new PresenceLeases(leases, 'C', clock, LAPSE / 3, silent, () => [keys[0]!, keys[1]!]);
    await c.beat();
    await store('C').apply([presence(p0, t + 1, true), presence(p1, t + 1, true)]);
    // C freezes past its lapse; another instance sweeps it; p1 meanwhile reconnected to B.
    expect(await leases.sweep('C', t + LAPSE)).toBe(2);
    await store('B').apply([presence(p1, t + LAPSE + 100, true)]);
    expect(await onlineCount()).toBe(1);
    clock.advance(LAPSE + 200);
    await c.beat();
    expect(await rowOf(p0)).toEqual({ online: 1, online_at: t + LAPSE + 200, online_by: 'C' });
    expect(await rowOf(p1)).toEqual({ online: 1, online_at: t + LAPSE + 100, online_by: 'B' });
    expect(await leases.renew('C', t + LAPSE + 300, t + 2 * LAPSE)).toBe(true);
    await leases.release('C', t + LAPSE + 300);
    await leases.release('B', t + LAPSE + 300);
    expect(await onlineCount()).toBe(0);
  });

  it('instances sweeping one dead lease at once mark its panels offline once', async () => {
    const [p0, p1, p2] = ids as [number, number, number];
    const t = base + 200_000;
    const leases = repository();
    await leases.enter('D', t, t + LAPSE);
    await store('D').apply([presence(p0, t + 1, true), presence(p1, t + 1, true), presence(p2, t + 1, true)]);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => repository().sweep('D', t + LAPSE + 1)),
    );
    expect(results.filter((r) => r !== undefined)).toEqual([3]);
    const rows = await db()
      .selectFrom('panel_history')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('txt', '=', 'instanceLost')
      .where('at', '=', t + 1)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(3);
    expect(await onlineCount()).toBe(0);
  });
});
