import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { DeviceListRepository } from '../src/modules/devices/list-repository.js';
import { DeviceListService } from '../src/modules/devices/list-service.js';
import { comparePositions } from '../src/modules/devices/list-position.js';
import { DeviceOrderIndex } from '../src/modules/devices/order-index.js';
import { DeviceRepository } from '../src/modules/devices/repository.js';
import { backends } from './harness.js';

/**
 * The device list's pages against the plain truth (ORDER BY lower(name), id with OFFSET on the
 * same data), with a rank index stride and keyset reach small enough that every way of reaching
 * a page (cursor next/previous, short hops, either end, seeks through the index) is exercised.
 */
describe.each(backends)('device list paging on %s', (backend) => {
  let db: Db;
  let dir: string;
  let schema: string | undefined;
  let orgA: number;
  let orgB: number;
  let service: DeviceListService;
  let index: DeviceOrderIndex;
  let random = 7;
  const next = () => (random = (random * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = [
    'Room',
    'room',
    'Hall',
    'hall',
    'Lab',
    'Gym',
    'Office',
    '教室',
    'Éclair',
    'Z',
    'a-b',
    'a_b',
    'a%b',
    '',
  ];
  const nameOf = () =>
    `${words[Math.floor(next() * words.length)]}${Math.floor(next() * 40)}${next() < 0.2 ? ' 😀' : ''}`;

  const insertDevices = async (orgId: number, count: number, prefix: string) => {
    const rows = Array.from({ length: count }, (_, i) => ({
      org_id: orgId,
      device_key: `${prefix}-${crypto.randomBytes(4).toString('hex')}-${i}`,
      name: nameOf(),
      secret_hash: 'x',
      enrolled_at: 0,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await db.kysely
        .insertInto('devices')
        .values(rows.slice(i, i + 200))
        .execute();
  };

  /** The test's search cap: small, so that common searches are capped and rare ones are not. */
  const SEARCH_CAP = 40;

  /**
   * The truth: ids of one page by plain ORDER BY and OFFSET; a search of three characters or more
   * matches anywhere in the name or the device key, in any case (filtered here in JavaScript),
   * and lists the first SEARCH_CAP matches by id, ordered by name.
   */
  const truth = async (orgId: number, page: number, size: number, prefix?: string) => {
    if (prefix && [...prefix].length >= 3) {
      const text = prefix.toLowerCase();
      const all = await db.kysely
        .selectFrom('devices')
        .select(['id', 'name', 'name_key', 'device_key'])
        .where('org_id', '=', orgId)
        .orderBy('id')
        .execute();
      const found = all.filter(
        (d) => d.name.toLowerCase().includes(text) || d.device_key.toLowerCase().includes(text),
      );
      const matches = found
        .slice(0, SEARCH_CAP)
        .sort((a, b) => comparePositions({ key: a.name_key, id: a.id }, { key: b.name_key, id: b.id }));
      const from = (Math.max(page, 1) - 1) * size;
      return {
        ids: matches.slice(from, from + size).map((d) => d.id),
        total: matches.length,
        capped: found.length > SEARCH_CAP,
        found: found.length,
      };
    }
    let query = db.kysely.selectFrom('devices').select('id').where('org_id', '=', orgId);
    if (prefix)
      query = query.where(sql<boolean>`substr(name_key, 1, ${[...prefix].length}) = lower(${prefix})`);
    const total = Number(
      (
        await query
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    // Past the end is an empty page, as in every other list; page 0 reads as page 1.
    const rows = await query
      .orderBy('name_key')
      .orderBy('id')
      .limit(size)
      .offset((Math.max(page, 1) - 1) * size)
      .execute();
    return { ids: rows.map((r) => r.id), total, capped: false, found: total };
  };

  const read = (orgId: number, start: number, size: number, deviceName?: string, cursor?: string) =>
    service.page(orgId, { start, size, deviceName, cursor }, () => false);

  const expectPage = async (
    orgId: number,
    start: number,
    size: number,
    deviceName?: string,
    cursor?: string,
  ) => {
    const got = await read(orgId, start, size, deviceName, cursor);
    const want = await truth(orgId, start, size, deviceName);
    expect({
      page: start,
      ids: got.rows.map((r) => r.deviceId),
      total: got.total,
      capped: got.totalCapped ?? false,
    }).toEqual({ page: start, ids: want.ids, total: want.total, capped: want.capped });
    return got;
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-list-'));
    if (backend === 'postgres') {
      schema = `t_${crypto.randomBytes(6).toString('hex')}`;
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.end();
      db = openDatabase({ kind: 'postgres', url: process.env.TEST_DATABASE_URL! }, { schema });
    } else {
      db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'list.db') });
    }
    await migrateToLatest(db);
    const org = (name: string) =>
      db.kysely
        .insertInto('organisations')
        .values({
          parent_id: null,
          kind: 'customer',
          name,
          user_quota: 5,
          created_at: 0,
          salesperson_id: null,
          license_id: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    orgA = (await org('A')).id;
    orgB = (await org('B')).id;
    await insertDevices(orgA, 700, 'A');
    await insertDevices(orgB, 150, 'B');
    const repository = new DeviceListRepository(db.kysely, db.dialect);
    index = new DeviceOrderIndex(repository, {
      stride: 16,
      rebuildAfterChanges: 1_000_000,
      keepChanges: 1_000_000,
      driftLimit: 1_000_000,
      pruneEveryMs: 0,
    });
    // Reach 20, search cap 40: common searches anywhere are capped, rare ones are not.
    service = new DeviceListService(repository, new DeviceRepository(db.kysely), index, 20, SEARCH_CAP);
  });

  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
    if (schema) {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    }
  });

  it('walks every page forward and back through cursors, the same rows as ORDER BY ... OFFSET', async () => {
    const size = 30;
    const pages = Math.ceil(700 / size);
    let cursor: string | undefined;
    for (let page = 1; page <= pages; page++)
      cursor = (await expectPage(orgA, page, size, undefined, cursor)).cursor;
    for (let page = pages - 1; page >= 1; page--)
      cursor = (await expectPage(orgA, page, size, undefined, cursor)).cursor;
  });

  it('jumps to any page with or without a cursor, through the rank index when far from both ends', async () => {
    const seek = vi.spyOn(index, 'seek');
    let cursor: string | undefined;
    for (const size of [5, 10, 20, 50]) {
      const last = Math.ceil(700 / size);
      for (const page of [1, 2, Math.floor(last / 2), last - 1, last, last + 5, 0, Math.floor(last / 3), 7]) {
        await expectPage(orgA, page, size);
        cursor = (await expectPage(orgA, page, size, undefined, cursor)).cursor;
      }
    }
    expect(seek).toHaveBeenCalled();
    seek.mockRestore();
  });

  it('answers an empty page past the end, with the total, with or without a cursor', async () => {
    const total = (await truth(orgA, 1, 10)).total;
    const last = Math.ceil(total / 10);
    const lastPage = await read(orgA, last, 10);
    expect(lastPage.rows.length).toBeGreaterThan(0);
    for (const [page, cursor] of [
      [last + 1, lastPage.cursor],
      [last + 1, undefined],
      [last + 3, lastPage.cursor],
      [last + 500, undefined],
    ] as const) {
      const got = await read(orgA, page, 10, undefined, cursor);
      expect({ page, rows: got.rows.length, total: got.total, cursor: got.cursor }).toEqual({
        page,
        rows: 0,
        total,
        cursor: undefined,
      });
    }
    const matches = (await truth(orgA, 1, 5, 'room')).total;
    const past = await read(orgA, Math.ceil(matches / 5) + 1, 5, 'room');
    expect({ rows: past.rows.length, total: past.total }).toEqual({ rows: 0, total: matches });
    await expect(read(orgA, last + 1, 10, undefined, 'not-a-cursor')).rejects.toMatchObject({
      key: 'common.invalidParams',
    });
    const none = await read(orgA, 2, 5, 'nothing-like-this');
    expect({ rows: none.rows.length, total: none.total }).toEqual({ rows: 0, total: 0 });
  });

  it('searches one or two characters by the start of the name, in any case, with exact totals', async () => {
    for (const search of ['h', 'R', '教', 'é', 'a-', 'a%', 'a_', 'Z3', '1']) {
      const want = await truth(orgA, 1, 5, search);
      const last = Math.max(1, Math.ceil(want.total / 5));
      for (const page of [1, 2, Math.ceil(last / 2), last]) await expectPage(orgA, page, 5, search);
    }
  });

  it('searches three characters or more anywhere in the name or the device key, in any case', async () => {
    const key = (
      await db.kysely
        .selectFrom('devices')
        .select('device_key')
        .where('org_id', '=', orgA)
        .orderBy('id')
        .limit(1)
        .offset(9)
        .executeTakeFirstOrThrow()
    ).device_key;
    const keyPart = key.split('-')[1]!.slice(1, 7).toUpperCase();
    for (const search of [
      'oom',
      'ROOM1',
      'om3',
      '教室1',
      'ÉCL',
      'clair',
      'a-b',
      'a%b',
      'a_b',
      '%b1',
      '"x"',
      'nothing-like-this',
      'm1 😀',
      keyPart,
      'a-',
    ]) {
      const want = await truth(orgA, 1, 5, search);
      const last = Math.max(1, Math.ceil(want.total / 5));
      for (const page of [1, 2, Math.ceil(last / 2), last - 1, last]) {
        const cursor = (await expectPage(orgA, page, 5, search)).cursor;
        await expectPage(orgA, page + 1, 5, search, cursor);
        await expectPage(orgA, Math.max(1, page - 1), 5, search, cursor);
      }
    }
    // What the issue asked: "101" finds "ROOM-101", and a device key finds its device.
    const [room] = await db.kysely
      .insertInto('devices')
      .values({ org_id: orgB, device_key: 'SN-XY-4711', name: 'ROOM-101', secret_hash: 'x', enrolled_at: 0 })
      .returning('id')
      .execute();
    expect((await read(orgB, 1, 50, '101')).rows.map((r) => r.deviceId)).toContain(room!.id);
    expect((await read(orgB, 1, 5, 'M-101')).rows.map((r) => r.deviceId)).toEqual([room!.id]);
    expect((await read(orgB, 1, 5, 'xy-47')).rows.map((r) => r.deviceId)).toEqual([room!.id]);
    expect((await read(orgA, 1, 5, 'xy-47')).rows).toEqual([]); // another company's device
    // More matches than the cap: the first SEARCH_CAP enrolled are listed, and the reply says so;
    // the search reads no more than one match past the cap, wherever the matches lie.
    const reads = vi.spyOn(DeviceListRepository.prototype, 'firstContaining');
    for (const search of ['oom', 'room']) {
      const want = await truth(orgA, 1, 5, search);
      expect({ capped: want.capped, more: want.found > SEARCH_CAP + 20 }).toEqual({
        capped: true,
        more: true,
      });
      const first = await expectPage(orgA, 1, 5, search);
      expect({ total: first.total, capped: first.totalCapped }).toEqual({ total: SEARCH_CAP, capped: true });
      await expectPage(orgA, SEARCH_CAP / 5, 5, search);
      await expectPage(orgA, SEARCH_CAP / 5 + 1, 5, search);
    }
    for (const result of reads.mock.results)
      expect((await (result.value as Promise<unknown[]>)).length).toBeLessThanOrEqual(SEARCH_CAP + 1);
    reads.mockRestore();
    expect((await truth(orgA, 1, 5, 'ROOM1')).capped).toBe(false);
    expect((await truth(orgA, 1, 5, keyPart)).total).toBeGreaterThanOrEqual(1);
    expect((await truth(orgA, 1, 5, 'ÉCL')).total).toBeGreaterThan(0);
  });

  it('pages through searches of any length with exact totals up to the cap', async () => {
    for (const search of ['room', 'ROOM1', 'h', '教', 'é', 'a-', 'a%', 'a_', 'nothing-like-this', 'Z3']) {
      const want = await truth(orgA, 1, 5, search);
      const last = Math.max(1, Math.ceil(want.total / 5));
      for (const page of [1, 2, Math.ceil(last / 2), last]) await expectPage(orgA, page, 5, search);
    }
    // A prefix of most of the list counts through the rank index.
    const rankOf = vi.spyOn(index, 'rankOf');
    await expectPage(orgA, 3, 5, 'r');
    expect((await truth(orgA, 1, 5, 'r')).total).toBeGreaterThan(20);
    expect(rankOf).toHaveBeenCalled();
    rankOf.mockRestore();
  });

  it('stays exact while devices are added, renamed, moved and deleted, without rebuilding its index', async () => {
    await read(orgA, 20, 10); // the indexes exist now
    await read(orgB, 1, 5, 'r');
    await read(orgB, 9, 5);
    const build = vi.spyOn(DeviceListRepository.prototype, 'buildAnchors');
    for (let round = 0; round < 4; round++) {
      await insertDevices(orgA, 25, `R${round}`);
      const ids = (
        await db.kysely.selectFrom('devices').select('id').where('org_id', '=', orgA).orderBy('id').execute()
      ).map((r) => r.id);
      for (let i = 0; i < 15; i++) {
        const id = ids[Math.floor(next() * ids.length)]!;
        await db.kysely.updateTable('devices').set({ name: nameOf() }).where('id', '=', id).execute();
      }
      await db.kysely
        .deleteFrom('devices')
        .where('id', 'in', ids.slice(round * 7, round * 7 + 5))
        .execute();
      await db.kysely
        .updateTable('devices')
        .set({ org_id: orgB })
        .where('id', '=', ids.at(-1 - round)!)
        .execute();
      for (const size of [5, 20]) {
        const { total } = await truth(orgA, 1, size);
        const last = Math.ceil(total / size);
        for (const page of [1, Math.floor(last / 4), Math.floor(last / 2), Math.floor((3 * last) / 4), last])
          await expectPage(orgA, page, size);
      }
      await expectPage(orgB, 4, 10);
      await expectPage(orgA, 2, 5, 'room');
      await expectPage(orgA, 9, 5, 'r');
      await expectPage(orgA, 3, 5, 'oom');
      await expectPage(orgB, 1, 5, 'all');
    }
    expect(build).not.toHaveBeenCalled();
    build.mockRestore();
  });

  it('rebuilds when the change log it needs was pruned by another instance', async () => {
    await read(orgA, 15, 10);
    await insertDevices(orgA, 5, 'P');
    const state = await db.kysely
      .selectFrom('device_order_state')
      .select('version')
      .where('org_id', '=', orgA)
      .executeTakeFirstOrThrow();
    await db.kysely
      .deleteFrom('device_order_changes')
      .where('org_id', '=', orgA)
      .where('version', '<=', Number(state.version))
      .execute();
    await db.kysely
      .updateTable('devices')
      .set({ name: 'Aardvark' })
      .where('org_id', '=', orgA)
      .where('device_key', 'like', 'P-%')
      .execute();
    const build = vi.spyOn(DeviceListRepository.prototype, 'buildAnchors');
    await expectPage(orgA, 15, 10);
    expect(build).toHaveBeenCalledTimes(1);
    build.mockRestore();
  });

  it('keeps the change log short while staying exact', async () => {
    const repository = new DeviceListRepository(db.kysely, db.dialect);
    const short = new DeviceListService(
      repository,
      new DeviceRepository(db.kysely),
      new DeviceOrderIndex(repository, {
        stride: 16,
        rebuildAfterChanges: 1_000_000,
        keepChanges: 40,
        driftLimit: 1_000_000,
        pruneEveryMs: 0,
      }),
      20,
    );
    const logSize = async () =>
      Number(
        (
          await db.kysely
            .selectFrom('device_order_changes')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('org_id', '=', orgA)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (let round = 0; round < 3; round++) {
      await insertDevices(orgA, 30, `K${round}`);
      await short.page(orgA, { start: 12, size: 10 }, () => false);
      const got = await short.page(orgA, { start: 17, size: 10 }, () => false);
      expect(got.rows.map((r) => r.deviceId)).toEqual((await truth(orgA, 17, 10)).ids);
    }
    await new Promise((resolve) => setTimeout(resolve, 200)); // the prune runs in the background
    await short.page(orgA, { start: 1, size: 5 }, () => false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await logSize()).toBeLessThanOrEqual(40);
    await expectPage(orgA, 23, 10);
  });

  it('reads a flood of changes (a bulk import) as a new build rather than as corrections', async () => {
    const repository = new DeviceListRepository(db.kysely, db.dialect);
    const flooded = new DeviceListService(
      repository,
      new DeviceRepository(db.kysely),
      new DeviceOrderIndex(repository, {
        stride: 16,
        rebuildAfterChanges: 10,
        keepChanges: 1_000_000,
        driftLimit: 1_000_000,
        pruneEveryMs: 0,
      }),
      20,
    );
    await flooded.page(orgA, { start: 14, size: 10 }, () => false);
    await insertDevices(orgA, 60, 'F');
    const build = vi.spyOn(DeviceListRepository.prototype, 'buildAnchors');
    const got = await flooded.page(orgA, { start: 14, size: 10 }, () => false);
    expect(build).toHaveBeenCalledTimes(1);
    build.mockRestore();
    expect(got.rows.map((r) => r.deviceId)).toEqual((await truth(orgA, 14, 10)).ids);
  });

  it('keeps the total in step with the rows through the triggers', async () => {
    for (const orgId of [orgA, orgB]) {
      const state = await db.kysely
        .selectFrom('device_order_state')
        .select('total')
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow();
      const count = await db.kysely
        .selectFrom('devices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow();
      expect(Number(state.total)).toBe(Number(count.n));
    }
  });
});
