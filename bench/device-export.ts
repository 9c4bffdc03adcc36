/**
 * `npm run bench:device-export`: the device list's export of DEVICES panels (100,000) of one
 * company on SQLite, as CSV and as .xlsx, through the server's own reader and writers in this
 * process (modules/devices/export-service.ts, export-documents.ts), the file drained by a sink that
 * counts bytes. Every panel has two labels, so each batch also reads label names.
 *
 * Measured per format: wall time, bytes, and the heap's and RSS's growth over their level before
 * the export (sampled every 20 ms and at every chunk the sink takes; the peak includes garbage not yet collected): the export reads EXPORT_BATCH panels at a time, so the growth
 * must stay flat whatever the fleet's size.
 *
 * Environment: DEVICES (100000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openDatabase } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { writeDeviceCsv, writeDeviceWorkbook } from '../apps/server/src/modules/devices/export-documents.js';
import { DeviceExportService } from '../apps/server/src/modules/devices/export-service.js';
import { DeviceListRepository } from '../apps/server/src/modules/devices/list-repository.js';
import { DeviceRepository } from '../apps/server/src/modules/devices/repository.js';

const DEVICES = Number(process.env.DEVICES ?? 100_000);
const MiB = 1024 * 1024;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-device-export-'));
const db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'export.db') });
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
const labelIds: number[] = [];
for (const name of ['Floor 1', 'Floor 2', 'Science', 'Hall, east'])
  labelIds.push(
    (
      await db.kysely
        .insertInto('labels')
        .values({ org_id: orgId, name, created_at: 0 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  );
const started = Date.now();
for (let i = 0; i < DEVICES; i += 500) {
  const rows = Array.from({ length: Math.min(500, DEVICES - i) }, (_, j) => ({
    org_id: orgId,
    device_key: `BENCH-${String(i + j).padStart(7, '0')}`,
    name: `Room ${(((i + j) * 7919) % DEVICES).toString().padStart(6, '0')}, "east"`,
    remark: (i + j) % 10 === 0 ? '=formula' : 'by the stairs',
    secret_hash: 'x',
    enrolled_at: 0,
    last_seen_at: 1_700_000_000_000,
  }));
  const ids = await db.kysely.insertInto('devices').values(rows).returning('id').execute();
  await db.kysely
    .insertInto('label_devices')
    .values(
      ids.flatMap(({ id }, j) => [
        { org_id: orgId, label_id: labelIds[j % 2]!, device_id: id },
        { org_id: orgId, label_id: labelIds[2 + (j % 2)]!, device_id: id },
      ]),
    )
    .execute();
}
console.log(`seeded ${DEVICES} panels in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const service = new DeviceExportService(
  new DeviceListRepository(db.kysely, db.dialect),
  new DeviceRepository(db.kysely),
);
const isOnline = (key: string) => key.endsWith('1');

async function measure(format: 'csv' | 'xlsx') {
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;
  let heapPeak = heap0;
  let rssPeak = rss0;
  const sample = () => {
    const m = process.memoryUsage();
    heapPeak = Math.max(heapPeak, m.heapUsed);
    rssPeak = Math.max(rssPeak, m.rss);
  };
  const sampler = setInterval(sample, 20);
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      sample();
      done();
    },
  });
  const out = new PassThrough();
  const t0 = process.hrtime.bigint();
  const batches = service.batches(orgId, undefined);
  const written =
    format === 'csv'
      ? writeDeviceCsv('en-US', batches, isOnline, out)
      : writeDeviceWorkbook('en-US', 'bench', Date.now(), batches, isOnline, out);
  const [count] = await Promise.all([written, pipeline(out, sink)]);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  clearInterval(sampler);
  console.log(
    `${format}: ${count} panels in ${seconds.toFixed(2)} s, ${(bytes / MiB).toFixed(1)} MiB; ` +
      `heap growth ${((heapPeak - heap0) / MiB).toFixed(1)} MiB, RSS growth ${((rssPeak - rss0) / MiB).toFixed(1)} MiB`,
  );
}

for (let round = 0; round < 2; round++) {
  await measure('csv');
  await measure('xlsx');
}
console.log(`load ${os.loadavg()[0]!.toFixed(1)}, ${os.cpus().length} cores`);
await db.kysely.destroy();
fs.rmSync(dir, { recursive: true, force: true });
