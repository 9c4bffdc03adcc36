import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandRepository, settleStatement } from '../src/modules/commands/repository.js';
import { backends, startServer, type TestServer } from './harness.js';
import { enroll, enrollmentSecretOf, operatorClient } from './device-helpers.js';

describe.each(backends)('batched command acknowledgements on %s', (backend) => {
  let server: TestServer;
  let repo: CommandRepository;
  let deviceA: number;
  let deviceB: number;
  let orgId: number;

  const command = async (
    deviceId: number,
    order = '00',
    status: 'queued' | 'sent' | 'succeeded' = 'sent',
  ) => {
    const id = crypto.randomUUID();
    const now = server.clock.now();
    await repo.insertMany([
      {
        id,
        org_id: orgId,
        device_id: deviceId,
        order_code: order,
        value: '1',
        status,
        detail: '',
        attempts: 0,
        expires_at: now + 60_000,
        created_by: null,
        relay_for: null,
        created_at: now,
        updated_at: now,
      },
    ]);
    return id;
  };
  const row = (id: string) =>
    server.app.db.kysely
      .selectFrom('commands')
      .select(['status', 'detail'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    server = await startServer(backend);
    repo = new CommandRepository(server.app.db.kysely, server.app.db.dialect);
    const secret = await enrollmentSecretOf(await operatorClient(server));
    await enroll(server.url, 'ACKS-A', secret);
    await enroll(server.url, 'ACKS-B', secret);
    const devices = await server.app.db.kysely
      .selectFrom('devices')
      .select(['id', 'device_key', 'org_id'])
      .where('device_key', 'in', ['ACKS-A', 'ACKS-B'])
      .execute();
    deviceA = devices.find((d) => d.device_key === 'ACKS-A')!.id;
    deviceB = devices.find((d) => d.device_key === 'ACKS-B')!.id;
    orgId = devices[0]!.org_id;
  });
  afterAll(() => server.stop());

  it('settles a mixed batch set-based: own commands only, final wins over received, final never changes', async () => {
    const ok = await command(deviceA);
    const failed = await command(deviceA);
    const foreign = await command(deviceB);
    const received = await command(deviceA, '03');
    const both = await command(deviceA);
    const done = await command(deviceA, '00', 'succeeded');
    const many = await Promise.all(Array.from({ length: 620 }, () => command(deviceB)));
    const changed = await repo.applyAcksForPanels(
      [
        { id: ok, deviceId: deviceA, status: 'succeeded', detail: '' },
        { id: failed, deviceId: deviceA, status: 'failed', detail: 'unsupported' },
        { id: foreign, deviceId: deviceA, status: 'succeeded', detail: '' },
        { id: received, deviceId: deviceA, status: 'delivered', detail: '' },
        { id: both, deviceId: deviceA, status: 'delivered', detail: '' },
        { id: both, deviceId: deviceA, status: 'succeeded', detail: '' },
        { id: done, deviceId: deviceA, status: 'failed', detail: 'late' },
        { id: crypto.randomUUID(), deviceId: deviceA, status: 'succeeded', detail: '' },
        ...many.map((id) => ({ id, deviceId: deviceB, status: 'succeeded' as const, detail: '' })),
      ],
      server.clock.now(),
    );

    expect(await row(ok)).toEqual({ status: 'succeeded', detail: '' });
    expect(await row(failed)).toEqual({ status: 'failed', detail: 'unsupported' });
    expect(await row(foreign)).toEqual({ status: 'sent', detail: '' });
    expect(await row(received)).toEqual({ status: 'delivered', detail: '' });
    expect(await row(both)).toEqual({ status: 'succeeded', detail: '' });
    expect(await row(done)).toEqual({ status: 'succeeded', detail: '' });
    expect(new Set(changed.map((c) => c.id))).toEqual(new Set([ok, failed, received, both, ...many]));
    expect(changed.find((c) => c.id === failed)).toMatchObject({
      status: 'failed',
      device_id: deviceA,
      order_code: '00',
    });

    // A late `received` after the final result changes nothing.
    expect(
      await repo.applyAcksForPanels(
        [{ id: ok, deviceId: deviceA, status: 'delivered', detail: '' }],
        server.clock.now(),
      ),
    ).toEqual([]);
    expect((await row(ok)).status).toBe('succeeded');
  });

  it('marks the POWERUP commands of many reconnecting panels succeeded at once', async () => {
    const upA = await command(deviceA, 'POWERUP', 'queued');
    const upB = await command(deviceB, 'POWERUP', 'sent');
    const other = await command(deviceB, '01', 'sent');
    await repo.succeedPowerUpsForPanels([deviceA, deviceB], server.clock.now());
    expect(await row(upA)).toEqual({ status: 'succeeded', detail: 'online' });
    expect(await row(upB)).toEqual({ status: 'succeeded', detail: 'online' });
    expect((await row(other)).status).toBe('sent');
  });
});

describe('settling acknowledgements on SQLite', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(() => server.stop());

  it('looks each acknowledged command up by its id, not through the status index', async () => {
    const statement = settleStatement(
      'sqlite',
      [{ id: crypto.randomUUID(), deviceId: 1, status: 'succeeded', detail: '' }],
      server.clock.now(),
    );
    const compiled = statement.compile(server.app.db.kysely);
    const explained = await server.app.db.kysely.executeQuery<{ detail: string }>({
      ...compiled,
      sql: `EXPLAIN QUERY PLAN ${compiled.sql}`,
    });
    const steps = explained.rows.map((r) => r.detail);
    expect(steps).toContainEqual(
      expect.stringMatching(/^SEARCH commands USING INDEX sqlite_autoindex_commands_1 \(id=\?\)/),
    );
    expect(steps.join('\n')).not.toMatch(/commands_status/);
  });
});
