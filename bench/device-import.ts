/**
 * `npm run bench:device-import`: the device list's CSV import of LINES lines (50,000) into one
 * company on SQLite, through the server's own service in this process
 * (modules/devices/import-service.ts): the preview, then the apply in one transaction. Half the
 * lines change panels the company has (name, two labels, location, remark: UPDATE … FROM VALUES
 * and label rows in batches of 500), half name serials no panel holds yet (waiting records,
 * INSERT … VALUES of 500); one label per hundred lines is new.
 *
 * Measured: wall time of each step and the heap's and RSS's growth over their level before the
 * step (sampled every 20 ms; the peak includes garbage not yet collected). Budget (issue 28):
 * under 10 s and under 128 MiB of growth.
 *
 * Environment: LINES (50000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { transactor } from '../apps/server/src/db/unit-of-work.js';
import { DeviceImportRepository } from '../apps/server/src/modules/devices/import-repository.js';
import { DeviceImportService } from '../apps/server/src/modules/devices/import-service.js';
import { OperationLog } from '../apps/server/src/modules/operation-log/repository.js';

const LINES = Number(process.env.LINES ?? 50_000);
const PANELS = Math.floor(LINES / 2);
const MiB = 1024 * 1024;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-device-import-'));
const db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'import.db') });
await migrateToLatest(db);
const { id: orgId } = await db.kysely
  .insertInto('organisations')
  .values({
    parent_id: null,
    kind: 'customer',
    name: 'Bench',
    user_quota: 5,
    created_at: 0,
    salesperson_id: null,
    license_id: null,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
for (const name of ['Floor 1', 'Floor 2', 'Science'])
  await db.kysely.insertInto('labels').values({ org_id: orgId, name, created_at: 0 }).execute();
const serial = (i: number) => `BENCH-${String(i).padStart(7, '0')}`;
for (let i = 0; i < PANELS; i += 500)
  await db.kysely
    .insertInto('devices')
    .values(
      Array.from({ length: Math.min(500, PANELS - i) }, (_, j) => ({
        org_id: orgId,
        device_key: serial(i + j),
        name: serial(i + j),
        secret_hash: 'x',
        enrolled_at: 0,
      })),
    )
    .execute();

let text = '\uFEFFSerial number,Name,Labels,Location,Remark\r\n';
for (let i = 0; i < LINES; i++)
  text +=
    `${serial(i)},"Room ${i}, ""east""",Floor ${1 + (i % 2)};${i % 100 === 0 ? `New ${i}` : 'Science'},` +
    `Building ${i % 7},'=by the stairs ${i}\r\n`;
const bytes = new TextEncoder().encode(text);
text = '';

const service = new DeviceImportService({
  clock: { now: () => Date.now() },
  imports: new DeviceImportRepository(db.kysely),
  transact: transactor(db.kysely, (trx) => ({
    imports: new DeviceImportRepository(trx),
    log: new OperationLog(trx, () => Date.now()),
  })),
});
const caller = {
  id: 1,
  orgId,
  userName: 'bench',
  userType: '4' as const,
  activated: 1 as const,
  programRole: 0,
};

async function measure<T>(what: string, work: () => Promise<T>): Promise<T> {
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;
  let heapPeak = heap0;
  let rssPeak = rss0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    heapPeak = Math.max(heapPeak, m.heapUsed);
    rssPeak = Math.max(rssPeak, m.rss);
  }, 20);
  const t0 = process.hrtime.bigint();
  const result = await work();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  clearInterval(sampler);
  const m = process.memoryUsage();
  heapPeak = Math.max(heapPeak, m.heapUsed);
  rssPeak = Math.max(rssPeak, m.rss);
  console.log(
    `${what}: ${seconds.toFixed(2)} s; heap growth ${((heapPeak - heap0) / MiB).toFixed(1)} MiB, ` +
      `RSS growth ${((rssPeak - rss0) / MiB).toFixed(1)} MiB`,
  );
  return result;
}

console.log(`${LINES} lines, ${(bytes.length / MiB).toFixed(1)} MiB; ${PANELS} panels enrolled`);
const t0 = Date.now();
const seen = await measure('preview', () => service.preview(orgId, bytes, 'en-US'));
const done = await measure('apply', () => service.apply(caller, '127.0.0.1', bytes, seen.token));
console.log(`preview + apply: ${((Date.now() - t0) / 1000).toFixed(2)} s`, JSON.stringify(done));
const pending = await db.kysely
  .selectFrom('device_import_pending')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
if (done.errors || done.updated !== PANELS || Number(pending.n) !== LINES - PANELS)
  throw new Error(`unexpected result: ${JSON.stringify(done)}, ${pending.n} waiting`);
console.log(
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, ${os.cpus().length} cores`,
);
await db.kysely.destroy();
fs.rmSync(dir, { recursive: true, force: true });
