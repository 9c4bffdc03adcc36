/**
 * The database half of the MQTT paths' peer: the rows a broadcast or an ingest must write, written
 * by plain better-sqlite3 statements in transactions on a scratch database with the server's
 * settings (WAL, synchronous NORMAL). What the peer leaves out is what
 * PanelFleet adds: validation, ordering, batching, the command's rules.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { onCleanup, tempDir } from '../lib/harness.js';

const BATCH = 2000;

export class RawSql {
  private readonly db: SqliteDatabase.Database;

  constructor(private readonly devices: number) {
    this.db = new SqliteDatabase(path.join(tempDir('pf-guard-sql-'), 'raw.db'));
    onCleanup(() => void this.db.close());
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db
      .exec(`CREATE TABLE devices (id INTEGER PRIMARY KEY, cpu_temperature REAL, ram_used INTEGER, last_seen_at INTEGER);
      CREATE TABLE commands (id TEXT PRIMARY KEY, device_id INTEGER NOT NULL, order_code TEXT NOT NULL, value TEXT NOT NULL,
        status TEXT NOT NULL, expires_at INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      CREATE INDEX commands_device ON commands (device_id, status);`);
    const insert = this.db.prepare('INSERT INTO devices (id) VALUES (?)');
    this.db.transaction(() => {
      for (let id = 1; id <= devices; id++) insert.run(id);
    })();
  }

  /** `reports` state reports, one row UPDATE each, in transactions of 2,000. */
  writeReports(reports: number) {
    const update = this.db.prepare(
      'UPDATE devices SET cpu_temperature = ?, ram_used = ?, last_seen_at = ? WHERE id = ?',
    );
    const batch = this.db.transaction((from: number, to: number) => {
      const now = Date.now();
      for (let i = from; i < to; i++) update.run(40 + (i % 150) / 10, i, now, 1 + (i % this.devices));
    });
    for (let i = 0; i < reports; i += BATCH) batch(i, Math.min(reports, i + BATCH));
  }

  /** One command per device: the rows inserted as sent, then settled by their acknowledgements. */
  writeCommands(value: number) {
    const insert = this.db.prepare(
      "INSERT INTO commands (id, device_id, order_code, value, status, expires_at, created_at, updated_at) VALUES (?, ?, '00', ?, 'sent', ?, ?, ?)",
    );
    const settle = this.db.prepare("UPDATE commands SET status = 'succeeded', updated_at = ? WHERE id = ?");
    const state = this.db.prepare('UPDATE devices SET cpu_temperature = ? WHERE id = ?');
    const now = Date.now();
    const ids = Array.from({ length: this.devices }, () => crypto.randomUUID());
    this.db.transaction(() => {
      for (let d = 0; d < this.devices; d++)
        insert.run(ids[d], d + 1, String(value), now + 600_000, now, now);
    })();
    this.db.transaction(() => {
      for (let d = 0; d < this.devices; d++) {
        settle.run(now, ids[d]);
        state.run(value, d + 1);
      }
    })();
  }
}
