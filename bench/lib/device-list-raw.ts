import crypto from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';

// The device-list benchmark's raw peers (device-list.ts): seeding, and the SQL of each engine.

export const DEVICES = Number(process.env.DEVICES ?? 1_000_000);
export const SIZE = 5;
const WORDS = ['Hall', 'Room', 'Lab', 'Office', 'Gym', 'Library', 'Studio', 'Lobby'];

/**
 * Deterministic shuffled names: word and number from a hash of the index; every 50,000th device
 * is a "Kiosk", so a three-character search ("osk") has few matches.
 */
export function nameOf(i: number) {
  const h = crypto.createHash('md5').update(String(i)).digest();
  const word = i % 50_000 === 7 ? 'Kiosk' : WORDS[h[0]! % WORDS.length];
  return `${word} ${String(h.readUInt32BE(1) % 1_000_000).padStart(6, '0')}`;
}

/** The raw SQL of one engine: the naive page (OFFSET + COUNT) and the keyset statements. */
export interface RawSql {
  changeLog(): Promise<number>;
  offsetPage(offset: number, prefix?: string): Promise<unknown>;
  keysetAfter(key: string, id: number): Promise<unknown>;
  /** First page and count of devices whose name or key contains `text`, by LIKE '%text%': the count. */
  likeScan(text: string): Promise<number>;
  ownedKeys(keys: string[]): Promise<unknown>;
  rename(id: number, name: string): Promise<void>;
  close(): Promise<void>;
}

export function sqliteRaw(file: string, orgId: number): RawSql {
  const db = new SqliteDatabase(file);
  const page = db.prepare('SELECT * FROM devices WHERE org_id = ? ORDER BY name_key, id LIMIT ? OFFSET ?');
  const count = db.prepare('SELECT count(*) AS n FROM devices WHERE org_id = ?');
  const searchPage = db.prepare(
    'SELECT * FROM devices WHERE org_id = ? AND name_key >= ? AND name_key < ? ORDER BY name_key, id LIMIT ? OFFSET ?',
  );
  const searchCount = db.prepare(
    'SELECT count(*) AS n FROM devices WHERE org_id = ? AND name_key >= ? AND name_key < ?',
  );
  const after = db.prepare(
    'SELECT * FROM devices WHERE org_id = ? AND (name_key, id) > (?, ?) ORDER BY name_key, id LIMIT ?',
  );
  const log = db.prepare('SELECT count(*) AS n FROM device_order_changes WHERE org_id = ?');
  const likeFilter = 'org_id = ? AND (lower(name) LIKE ? OR lower(device_key) LIKE ?)';
  const likePage = db.prepare(`SELECT * FROM devices WHERE ${likeFilter} ORDER BY name_key, id LIMIT ?`);
  const likeCount = db.prepare(`SELECT count(*) AS n FROM devices WHERE ${likeFilter}`);
  return {
    async likeScan(text) {
      const p = `%${text}%`;
      likePage.all(orgId, p, p, SIZE);
      return (likeCount.get(orgId, p, p) as { n: number }).n;
    },
    async changeLog() {
      return (log.get(orgId) as { n: number }).n;
    },
    async offsetPage(offset, prefix) {
      if (prefix)
        return [
          searchPage.all(orgId, prefix, `${prefix}\u{10FFFF}`, SIZE, offset),
          searchCount.get(orgId, prefix, `${prefix}\u{10FFFF}`),
        ];
      return [page.all(orgId, SIZE, offset), count.get(orgId)];
    },
    async keysetAfter(key, id) {
      return after.all(orgId, key, id, SIZE);
    },
    async ownedKeys(keys) {
      return db
        .prepare(
          `SELECT device_key FROM devices WHERE org_id = ? AND device_key IN (${keys.map(() => '?').join(',')})`,
        )
        .all(orgId, ...keys);
    },
    async rename(id, name) {
      db.prepare('UPDATE devices SET name = ? WHERE id = ?').run(name, id);
    },
    async close() {
      db.close();
    },
  };
}

export async function postgresRaw(url: string, orgId: number): Promise<RawSql> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const likeFilter = 'org_id = $1 AND (lower(name) LIKE $2 OR lower(device_key) LIKE $2)';
  return {
    async likeScan(text) {
      const p = `%${text}%`;
      await client.query({
        name: 'lp',
        text: `SELECT * FROM devices WHERE ${likeFilter} ORDER BY name_key, id LIMIT $3`,
        values: [orgId, p, SIZE],
      });
      const count = await client.query<{ n: string }>({
        name: 'lc',
        text: `SELECT count(*) AS n FROM devices WHERE ${likeFilter}`,
        values: [orgId, p],
      });
      return Number(count.rows[0]!.n);
    },
    async changeLog() {
      return Number(
        (
          await client.query<{ n: string }>(
            'SELECT count(*) AS n FROM device_order_changes WHERE org_id = $1',
            [orgId],
          )
        ).rows[0]!.n,
      );
    },
    async offsetPage(offset, prefix) {
      if (prefix) {
        const hi = `${prefix}\u{10FFFF}`;
        return [
          await client.query({
            name: 'sp',
            text: 'SELECT * FROM devices WHERE org_id = $1 AND name_key >= $2 AND name_key < $3 ORDER BY name_key, id LIMIT $4 OFFSET $5',
            values: [orgId, prefix, hi, SIZE, offset],
          }),
          await client.query({
            name: 'sc',
            text: 'SELECT count(*) AS n FROM devices WHERE org_id = $1 AND name_key >= $2 AND name_key < $3',
            values: [orgId, prefix, hi],
          }),
        ];
      }
      return [
        await client.query({
          name: 'p',
          text: 'SELECT * FROM devices WHERE org_id = $1 ORDER BY name_key, id LIMIT $2 OFFSET $3',
          values: [orgId, SIZE, offset],
        }),
        await client.query({
          name: 'c',
          text: 'SELECT count(*) AS n FROM devices WHERE org_id = $1',
          values: [orgId],
        }),
      ];
    },
    async keysetAfter(key, id) {
      return client.query({
        name: 'k',
        text: 'SELECT * FROM devices WHERE org_id = $1 AND (name_key, id) > ($2, $3) ORDER BY name_key, id LIMIT $4',
        values: [orgId, key, id, SIZE],
      });
    },
    async ownedKeys(keys) {
      return client.query({
        name: 'o',
        text: 'SELECT device_key FROM devices WHERE org_id = $1 AND device_key = ANY($2)',
        values: [orgId, keys],
      });
    },
    async rename(id, name) {
      await client.query('UPDATE devices SET name = $1 WHERE id = $2', [name, id]);
    },
    async close() {
      await client.end();
    },
  };
}

export async function seedSqlite(file: string, orgId: number) {
  const db = new SqliteDatabase(file);
  db.pragma('busy_timeout = 10000');
  const insert = db.prepare(
    "INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at, machine_type, model) VALUES (?, ?, ?, 'x', 0, 'x9_vn', 'PF-86')",
  );
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) insert.run(orgId, `BL-${String(i).padStart(7, '0')}`, nameOf(i));
  });
  for (let i = 0; i < DEVICES; i += 50_000) batch(i, Math.min(DEVICES, i + 50_000));
  db.exec('ANALYZE');
  db.close();
}

export async function seedPostgres(url: string, orgId: number) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const chunk = 100_000;
  for (let from = 0; from < DEVICES; from += chunk) {
    const ids = Array.from({ length: Math.min(chunk, DEVICES - from) }, (_, k) => from + k);
    await client.query(
      `INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at, machine_type, model)
       SELECT $1, k, n, 'x', 0, 'x9_vn', 'PF-86' FROM unnest($2::text[], $3::text[]) AS t(k, n)`,
      [orgId, ids.map((i) => `BL-${String(i).padStart(7, '0')}`), ids.map(nameOf)],
    );
  }
  await client.query('VACUUM ANALYZE devices');
  await client.end();
}
