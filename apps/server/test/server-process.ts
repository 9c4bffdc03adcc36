import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import crypto from 'node:crypto';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';

/** A PanelFleet server in its own process (src/dev/serve.ts), so a test can kill it with SIGKILL. */
const serveScript = new URL('../src/dev/serve.ts', import.meta.url).pathname;

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export function startServerProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', serveScript], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('{"ready"'));
      if (line) resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
}

/**
 * The database of a server process: a SQLite file in DATA_DIR, or a fresh PostgreSQL database
 * (TEST_DATABASE_URL's server). `query` reads it from the test while the server may be dead.
 */
export async function processDatabase(backend: 'sqlite' | 'postgres', dataDir: string) {
  if (backend === 'sqlite') {
    return {
      env: {} as Record<string, string>,
      query: async <T>(text: string): Promise<T[]> => {
        const db = new SqliteDatabase(path.join(dataDir, 'panelfleet.db'), { readonly: true });
        try {
          return db.prepare(text).all() as T[];
        } finally {
          db.close();
        }
      },
      drop: async () => undefined,
    };
  }
  const admin = new URL(process.env.TEST_DATABASE_URL!);
  const name = `proc_${crypto.randomBytes(5).toString('hex')}`;
  const run = async <T>(url: URL, text: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  };
  await run(admin, `CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() } as Record<string, string>,
    query: <T>(text: string) => run<T>(url, text),
    drop: () => run(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined),
  };
}
