import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusMessage } from '../src/events/bus.js';
import { PostgresEventBus, type Notify } from '../src/events/postgres-bus.js';
import { waitFor } from './device-helpers.js';
import { backends } from './harness.js';
import { TcpProxy } from './tcp-proxy.js';

// Issue 23: an instance of the shared event bus that may have missed other instances' messages
// says so to its own subscribers (they drop what they keep on others' word), and a message that
// closes access is sent again until the database takes it.

const quiet = { warn: () => undefined, error: () => undefined };
const fast = { heartbeatMs: 100, heartbeatTimeoutMs: 300, retryMs: 100 };

describe.runIf(backends.includes('postgres'))('the PostgreSQL event bus across gaps', () => {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://localhost/test');
  const schema = `gap_${crypto.randomBytes(5).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  const notify: Notify = async (channel, payload) => {
    await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
  };
  const buses: PostgresEventBus[] = [];
  let proxy: TcpProxy;

  beforeAll(async () => {
    proxy = await TcpProxy.start(url.hostname, Number(url.port || 5432));
  });
  afterAll(async () => {
    for (const bus of buses) await bus.stop();
    await proxy.stop();
    await pool.end();
  });

  async function busOn(databaseUrl: string, send: Notify = notify) {
    const bus = new PostgresEventBus(databaseUrl, schema, send, quiet, fast);
    buses.push(bus);
    await bus.start();
    const seen: BusMessage[] = [];
    bus.subscribe((m) => seen.push(m));
    return { bus, seen };
  }

  it('finds a listening connection that went silent, listens again and says messages may be missed', async () => {
    const throughProxy = new URL(url);
    throughProxy.hostname = '127.0.0.1';
    throughProxy.port = String(proxy.port);
    const cut = await busOn(throughProxy.toString());
    const other = await busOn(url.toString());

    other.bus.publish({ kind: 'panelAccess', deviceKey: 'BEFORE-CUT' });
    await waitFor('the message before the cut', () =>
      cut.seen.some((m) => m.kind === 'panelAccess' && m.deviceKey === 'BEFORE-CUT'),
    );
    expect(cut.seen.some((m) => m.kind === 'eventsMissed')).toBe(false);

    proxy.blackhole();
    await waitFor('the gap announced', () => cut.seen.some((m) => m.kind === 'eventsMissed'));
    other.bus.publish({ kind: 'panelAccess', deviceKey: 'AFTER-CUT' });
    await waitFor('messages received again', () =>
      cut.seen.some((m) => m.kind === 'panelAccess' && m.deviceKey === 'AFTER-CUT'),
    );
    // The gap is this instance's own news: the other one never hears of it.
    expect(other.seen.filter((m) => m.kind === 'eventsMissed')).toEqual([]);
  });

  it('sends an access change again until the database takes it; a live event is dropped', async () => {
    let refusals = 2;
    const flaky: Notify = async (channel, payload) => {
      if (refusals-- > 0) throw new Error('connection terminated');
      await notify(channel, payload);
    };
    const sender = await busOn(url.toString(), flaky);
    const receiver = await busOn(url.toString());
    sender.bus.publish({
      kind: 'live',
      orgId: 1,
      event: { type: 'presenceReset', at: 1 },
    });
    sender.bus.publish({ kind: 'panelAccess', deviceKey: 'RETRIED' });
    await waitFor('the access change to arrive', () =>
      receiver.seen.some((m) => m.kind === 'panelAccess' && m.deviceKey === 'RETRIED'),
    );
    expect(receiver.seen.filter((m) => m.kind === 'live')).toEqual([]);
    expect(refusals).toBeLessThan(0);
  });
});
