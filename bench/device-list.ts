/**
 * `npm run bench:device-list`: the device list API at 1,000,000 devices of one company, on SQLite
 * and (with DEVICE_LIST_PG=postgres://...) on PostgreSQL, each beside raw SQL measured in the
 * same run on the same database.
 *
 * The server is the real one (apps/server/src/dev/serve.ts in its own process, sessions, the
 * contract's validation, the JSON reply); requests are sequential over HTTP on 127.0.0.1 and
 * timed by the client. Devices are inserted with SQL (the triggers of migration 005 run) and
 * get shuffled names ("Hall 004211"), so name order is not id order.
 *
 * Measured per engine, REQUESTS each (p50, p99, max):
 * - first page, a middle page, the last page, random far jumps (no cursor: the rank index seeks),
 *   the next page with the previous page's cursor (keyset), name-start searches of two
 *   characters ("ha", ~125,000 matches) and one ("h", ~125,000, counted through the rank index), first and middle page;
 * - baselines: the same rows by plain SQL, ORDER BY name_key, id LIMIT/OFFSET plus COUNT(*)
 *   (what an endpoint without keyset paging runs), and the keyset statements alone;
 * - the rank index's build (the first far jump after start) and a far jump right after a rename;
 * - listIsOnlineByDeviceKey with 50 keys: requests per second with CONCURRENCY clients for
 *   SECONDS, beside the raw ownership query (device_key IN (50 keys)) in a loop.
 *
 * - searches anywhere in the name or key (3 and 6 characters, few and many matches, and many
 *   gathered in one block of the list): first page, next page with the cursor, last listed page,
 *   beside the raw LIKE '%x%' scan with COUNT(*), LIKE_REQUESTS each. A search lists at most
 *   DEVICE_SEARCH_CAP matches (the first enrolled, by name), so "many" rows show "500+".
 *
 * Environment: DEVICES (1000000), REQUESTS (300), CONCURRENCY (8), SECONDS (8), DEVICE_LIST_PG,
 * LIKE_REQUESTS (5), SEARCH_ONLY (1: only the seeding and the searches anywhere).
 */
import SqliteDatabase from 'better-sqlite3';
import { device } from '@panelfleet/contract';
import {
  freshPostgres,
  fmt,
  loadAverage,
  machineDescription,
  printTable,
  runBenchmark,
  startServer,
} from './lib/harness.js';
import { Operator } from './lib/operator.js';
import {
  DEVICES,
  SIZE,
  RawSql,
  sqliteRaw,
  postgresRaw,
  seedSqlite,
  seedPostgres,
} from './lib/device-list-raw.js';

const REQUESTS = Number(process.env.REQUESTS ?? 300);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const SECONDS = Number(process.env.SECONDS ?? 8);
/** Raw LIKE scans read the whole company: fewer of them. */
const LIKE_REQUESTS = Number(process.env.LIKE_REQUESTS ?? 5);
/** Only the search measures (SEARCH_ONLY=1): seeding, the searches and their raw LIKE scans. */
const SEARCH_ONLY = process.env.SEARCH_ONLY === '1';

/**
 * Searches anywhere in the name or key (three characters or more), each beside the raw scan an
 * endpoint without the trigram index runs: `LIKE '%text%'` on name and key, ORDER BY, LIMIT, and
 * COUNT(*) with the same filter.
 */
const ANYWHERE = [
  { text: 'osk', what: '3 characters, few matches' },
  { text: '042', what: '3 characters, many matches spread over the list' },
  { text: '004211', what: '6 characters, few matches' },
  { text: 'all 00', what: '6 characters, many matches' },
  { text: 'hal', what: '3 characters, many matches in one block of the list' },
];

interface Stats {
  p50: number;
  p99: number;
  max: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1)! };
}

const ms = (s: Stats) => `${fmt(s.p50, 2)} / ${fmt(s.p99, 2)} / ${fmt(s.max, 2)}`;

async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function sample(count: number, fn: (i: number) => Promise<unknown> | unknown): Promise<Stats> {
  for (let i = 0; i < Math.min(20, count); i++) await fn(i); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await time(() => fn(i)));
  return stats(samples);
}

async function runEngine(engine: 'sqlite' | 'postgres'): Promise<Array<[string, string]>> {
  const pgUrl =
    engine === 'postgres' ? await freshPostgres(process.env.DEVICE_LIST_PG!, 'device_list') : undefined;
  const server = await startServer(pgUrl ? { DATABASE_URL: pgUrl } : {});
  const operator = await Operator.signIn(server.url);
  const list = async (query: string) =>
    device.listDevices.reply.parse(await operator.request('GET', `/platform/device/list?${query}`));
  // The customer of operator1 (the sample "Riverside School").
  const probe = await list('start=1&size=1');
  if (probe.totalRecords !== 0) throw new Error('the bench server should start without devices');
  const orgId = await (async () => {
    if (engine === 'sqlite') {
      const db = new SqliteDatabase(server.dbFile, { readonly: true });
      const row = db.prepare("SELECT org_id FROM users WHERE user_name = 'operator1'").get() as {
        org_id: number;
      };
      db.close();
      return row.org_id;
    }
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    const { rows } = await c.query<{ org_id: number }>(
      "SELECT org_id FROM users WHERE user_name = 'operator1'",
    );
    await c.end();
    return rows[0]!.org_id;
  })();

  console.log(`${engine}: seeding ${fmt(DEVICES)} devices…`);
  const seedMs = await time(() =>
    engine === 'sqlite' ? seedSqlite(server.dbFile, orgId) : seedPostgres(pgUrl!, orgId),
  );
  const raw = engine === 'sqlite' ? sqliteRaw(server.dbFile, orgId) : await postgresRaw(pgUrl!, orgId);
  // A seeding longer than the server's keep-alive timeout (72 s, a loaded machine) leaves the
  // client's idle connection closed by the server: one request to notice it before measuring.
  await list('start=1&size=1').catch((err: unknown) => {
    if (!(err instanceof TypeError)) throw err;
    console.log(`${engine}: the idle connection was closed during the seeding; reconnecting`);
  });

  // The bulk insert left one change-log row per device. List reads trim the log to its newest
  // 100,000 rows in the background, at most once a minute per company: read the first page every
  // second, as an open console would, until it is trimmed; then measure the steady state.
  const first = await list(`start=1&size=${SIZE}`);
  const pruneStart = performance.now();
  while ((await raw.changeLog()) > 110_000) {
    if (performance.now() - pruneStart > 300_000)
      throw new Error('the change log was not trimmed within 5 minutes');
    await new Promise((r) => setTimeout(r, 1000));
    await list(`start=1&size=${SIZE}`);
  }
  const pruneMs = performance.now() - pruneStart;
  const total = first.totalRecords;
  if (total !== DEVICES) throw new Error(`listed ${total} devices, seeded ${DEVICES}`);
  const lastPage = Math.ceil(total / SIZE);
  const middle = Math.floor(lastPage / 2);

  console.log(`${engine}: measuring…`);
  const searchRows = await measureAnywhere(engine, list, raw);
  if (SEARCH_ONLY) {
    await raw.close();
    await server.stop();
    return [
      [`${engine}: ${fmt(DEVICES)} devices inserted by SQL (triggers on)`, `${fmt(seedMs / 1000, 1)} s`],
      ...searchRows,
    ];
  }
  const buildMs = await time(() => list(`start=${middle}&size=${SIZE}`));
  const firstPage = await sample(REQUESTS, () => list(`start=1&size=${SIZE}`));
  const middlePage = await sample(REQUESTS, () => list(`start=${middle}&size=${SIZE}`));
  const lastPageStats = await sample(REQUESTS, () => list(`start=${lastPage}&size=${SIZE}`));
  let seed = 1;
  const randomPage = () => 2 + ((seed = (seed * 48271) % 2147483647) % (lastPage - 2));
  const jumps = await sample(REQUESTS, () => list(`start=${randomPage()}&size=${SIZE}`));
  const jumps50 = await sample(REQUESTS, () => list(`start=${Math.ceil(randomPage() / 10)}&size=50`));
  const mid = await list(`start=${middle}&size=${SIZE}`);
  const nextPage = await sample(REQUESTS, () =>
    list(`start=${middle + 1}&size=${SIZE}&cursor=${encodeURIComponent(mid.cursor!)}`),
  );

  // Prefix searches (one or two characters: the start of the name, a range of the name index).
  const narrow = 'ha';
  const broad = 'h';
  const narrowTotal = (await list(`start=1&size=${SIZE}&deviceName=${encodeURIComponent(narrow)}`))
    .totalRecords;
  const broadTotal = (await list(`start=1&size=${SIZE}&deviceName=${broad}`)).totalRecords;
  const broadMiddle = Math.floor(Math.ceil(broadTotal / SIZE) / 2);
  const searchNarrow = await sample(REQUESTS, () =>
    list(`start=1&size=${SIZE}&deviceName=${encodeURIComponent(narrow)}`),
  );
  const searchBroad = await sample(REQUESTS, () => list(`start=1&size=${SIZE}&deviceName=${broad}`));
  const searchBroadMiddle = await sample(REQUESTS, () =>
    list(`start=${broadMiddle}&size=${SIZE}&deviceName=${broad}`),
  );

  // Raw SQL in the same run: the same rows with OFFSET + COUNT(*), and the keyset statement alone.
  const rawRequests = Math.max(20, Math.floor(REQUESTS / 10));
  const rawFirst = await sample(REQUESTS, () => raw.offsetPage(0));
  const rawMiddle = await sample(rawRequests, () => raw.offsetPage((middle - 1) * SIZE));
  const rawLast = await sample(rawRequests, () => raw.offsetPage((lastPage - 1) * SIZE));
  const rawNarrow = await sample(REQUESTS, () => raw.offsetPage(0, narrow));
  const rawBroad = await sample(rawRequests, () => raw.offsetPage(0, broad));
  const rawBroadMiddle = await sample(rawRequests, () => raw.offsetPage((broadMiddle - 1) * SIZE, broad));
  const lastOfMid = mid.listObject.at(-1)!;
  const rawKeyset = await sample(REQUESTS, () =>
    raw.keysetAfter(lastOfMid.deviceName.toLowerCase(), lastOfMid.deviceId),
  );

  // A rename moves one device; the next far jump corrects the index from the change log.
  const renamed = first.listObject[0]!;
  await raw.rename(renamed.deviceId, 'Zz renamed');
  const afterRename = await time(() => list(`start=${middle - 7}&size=${SIZE}`));
  await raw.rename(renamed.deviceId, renamed.deviceName);

  // Online state of 50 listed devices, many clients at once.
  const keys = (await list(`start=${middle}&size=50`)).listObject.map((d) => d.deviceKey);
  const online = async () => {
    let done = 0;
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < until) {
          const reply = device.listIsOnlineByDeviceKey.reply.parse(
            await operator.request('POST', '/platform/device/listIsOnlineByDeviceKey', {
              deviceKeyList: keys.join(','),
            }),
          );
          if (reply.listObject.length !== 50) throw new Error('online state did not list the 50 keys');
          done++;
        }
      }),
    );
    return done / SECONDS;
  };
  const onlineRps = await online();
  let rawDone = 0;
  const rawUntil = Date.now() + SECONDS * 1000;
  while (Date.now() < rawUntil) {
    await raw.ownedKeys(keys);
    rawDone++;
  }
  await raw.close();
  await server.stop();

  return [
    [`${engine}: ${fmt(DEVICES)} devices inserted by SQL (triggers on)`, `${fmt(seedMs / 1000, 1)} s`],
    [
      '  change log trimmed to 100,000 rows after the insert (background)',
      `${fmt(pruneMs / 1000, 1)} s after the first read`,
    ],
    ['  rank index build (first far jump after start)', `${fmt(buildMs, 1)} ms`],
    ['  far jump right after a rename (change log, no build)', `${fmt(afterRename, 1)} ms`],
    [`  API, ms p50 / p99 / max (${REQUESTS} sequential requests each)`, ''],
    ['    first page', ms(firstPage)],
    [`    middle page (${fmt(middle)} of ${fmt(lastPage)})`, ms(middlePage)],
    ['    last page', ms(lastPageStats)],
    ['    random far jumps, 5 a page', ms(jumps)],
    ['    random far jumps, 50 a page', ms(jumps50)],
    ['    next page with the cursor', ms(nextPage)],
    [`    name search "${narrow}" (${fmt(narrowTotal)} matches)`, ms(searchNarrow)],
    [`    name search "${broad}" (${fmt(broadTotal)} matches), first page`, ms(searchBroad)],
    [`    name search "${broad}", middle page`, ms(searchBroadMiddle)],
    ...searchRows,
    ['  raw SQL, same rows by LIMIT/OFFSET + COUNT(*), ms p50 / p99 / max', ''],
    ['    first page', ms(rawFirst)],
    [`    middle page (OFFSET ${fmt((middle - 1) * SIZE)})`, ms(rawMiddle)],
    ['    last page', ms(rawLast)],
    [`    name search "${narrow}"`, ms(rawNarrow)],
    [`    name search "${broad}", first page`, ms(rawBroad)],
    [`    name search "${broad}", middle page`, ms(rawBroadMiddle)],
    ['    keyset statement alone (next page)', ms(rawKeyset)],
    [`  online state of 50 keys, ${CONCURRENCY} clients`, `${fmt(onlineRps)} requests/s`],
    ['  raw ownership query (50 keys), one loop', `${fmt(rawDone / SECONDS)} queries/s`],
  ];
}

/** Searches anywhere in name or key: the API (first page, and the next page with its cursor) and the raw LIKE scan. */
async function measureAnywhere(
  engine: string,
  list: (query: string) => Promise<ReturnType<typeof device.listDevices.reply.parse>>,
  raw: RawSql,
): Promise<Array<[string, string]>> {
  // The cheapest request of the list in the same run: what the machine's load alone costs.
  const plain = await sample(REQUESTS, () => list(`start=1&size=${SIZE}`));
  const rows: Array<[string, string]> = [
    [
      `  search anywhere in name or key, ms p50 / p99 / max (API: ${REQUESTS} requests; raw LIKE: ${LIKE_REQUESTS})`,
      '',
    ],
    ['    reference: first page without a search', ms(plain)],
  ];
  for (const { text, what } of ANYWHERE) {
    console.log(`${engine}: search "${text}"…`);
    const q = `size=${SIZE}&deviceName=${encodeURIComponent(text)}`;
    const first = await list(`start=1&${q}`);
    const lastPage = Math.ceil(first.totalRecords / SIZE);
    const firstPage = await sample(REQUESTS, () => list(`start=1&${q}`));
    const nextPage =
      lastPage > 1
        ? await sample(REQUESTS, () => list(`start=2&${q}&cursor=${encodeURIComponent(first.cursor!)}`))
        : undefined;
    const farPage = lastPage > 2 ? await sample(REQUESTS, () => list(`start=${lastPage}&${q}`)) : undefined;
    const like = await sample(LIKE_REQUESTS, () => raw.likeScan(text));
    const likeCount = await raw.likeScan(text);
    const listed = first.totalCapped ? `${fmt(first.totalRecords)} of ${fmt(likeCount)}` : fmt(likeCount);
    rows.push(
      [`    "${text}" (${what}: ${listed} listed), first page`, ms(firstPage)],
      ...(nextPage ? [[`    "${text}", next page with the cursor`, ms(nextPage)] as [string, string]] : []),
      ...(farPage
        ? [[`    "${text}", last listed page (${lastPage}), no cursor`, ms(farPage)] as [string, string]]
        : []),
      [`    "${text}", raw LIKE '%${text}%' first page + COUNT(*)`, ms(like)],
    );
  }
  return rows;
}

runBenchmark('bench:device-list', 3_600_000, async () => {
  const started = Date.now();
  const rows: Array<[string, string]> = [];
  rows.push(...(await runEngine('sqlite')));
  if (process.env.DEVICE_LIST_PG) rows.push(...(await runEngine('postgres')));
  rows.push(
    ['load average at the end (1, 5, 15 min)', loadAverage()],
    ['total run time', `${fmt((Date.now() - started) / 1000)} s`],
  );
  printTable(
    `Device list at ${fmt(DEVICES)} devices (${new Date().toISOString().slice(0, 10)}; ${machineDescription()})`,
    rows,
  );
});
