import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

/**
 * Read-only SQLite connections on worker threads, for the long aggregates of the reports. better-sqlite3 runs a statement on the calling thread: an aggregate over a million
 * usage records would hold the server's event loop (every other request, every panel message)
 * for as long as it reads. On a worker it does not, and an export writes one period while the
 * next ones are read. WAL lets the reader see every committed write.
 *
 * The worker's code is plain JavaScript given as text (not a module file), so it runs the same
 * under tsx, Vitest and the built server; it loads the driver from the path resolved here.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (statements.size >= 50) statements.delete(statements.keys().next().value);
      statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error.message, code: error.code } });
  }
});
`;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

/** An error the reader's connection raised, with SQLite's code (SQLITE_BUSY, ...). */
export class SqliteReadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SqliteReadError';
  }
}

/** One worker thread with its own read-only connection, and the reads waiting on it. */
class ReaderThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly file: string,
    private readonly isClosed: () => boolean,
  ) {}

  get waiting(): number {
    return this.pending.size;
  }

  all<Row>(query: CompiledQuery<Row>): Promise<Row[]> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<Row[]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      // Referenced only while it has work: an idle reader does not keep the process alive.
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file: this.file } });
    worker.unref();
    worker.on(
      'message',
      (message: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
        const waiting = this.pending.get(message.id);
        if (!waiting) return;
        this.pending.delete(message.id);
        if (!this.pending.size) worker.unref();
        if (message.error) waiting.reject(new SqliteReadError(message.error.message, message.error.code));
        else waiting.resolve(message.rows ?? []);
      },
    );
    // A worker that died (out of memory, a driver crash) fails what it had; the next read starts a new one.
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, waiting] of this.pending) {
        this.pending.delete(id);
        waiting.reject(error);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.isClosed()) fail(new Error(`the report reader stopped (exit code ${code})`));
    });
    this.worker = worker;
    return worker;
  }
}

/**
 * Read-only connections on `threads` worker threads (2 by default: an export reads the next
 * periods on both while the server's thread writes the current one). A read goes to the thread
 * with the fewest waiting; threads start on their first read.
 */
export class SqliteReader {
  private readonly threads: ReaderThread[];
  private closed = false;

  constructor(file: string, threads = 2) {
    this.threads = Array.from({ length: threads }, () => new ReaderThread(file, () => this.closed));
  }

  /** The rows of a compiled read-only query, read on the least busy worker. */
  all<Row>(query: CompiledQuery<Row>): Promise<Row[]> {
    if (this.closed) return Promise.reject(new Error('the report reader is closed'));
    const thread = this.threads.reduce((best, t) => (t.waiting < best.waiting ? t : best));
    return thread.all(query);
  }

  /** How many threads have a read under way. */
  get threadsBusy(): number {
    return this.threads.filter((t) => t.waiting > 0).length;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.close()));
  }
}
