/**
 * What the guard's hot paths share: the real server built in this process (so its CPU is this
 * process's CPU, and a test can wrap its work), the sample operator signed in, and a generator
 * process of lean MQTT panels (bench/lib/device-worker.ts, raw mode) that moves between the server
 * and the peer broker (peer-servers.ts).
 */
import SqliteDatabase from 'better-sqlite3';
import { buildApp, type PanelFleetApp } from '../../apps/server/src/app.js';
import { systemClock } from '../../apps/server/src/clock.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { seedAccounts } from '../../apps/server/src/dev/seed-accounts.js';
import { tuneHeapGrowth } from '../../apps/server/src/heap.js';
import { allWorkers, DeviceWorker, onCleanup, sleep, sum, tempDir } from '../lib/harness.js';
import { Operator } from '../lib/operator.js';
import { startBareBroker } from './peer-servers.js';

export const GUARD_PEPPER = 'guard-pepper-0123456789abcdef';

export interface GuardServer {
  app: PanelFleetApp;
  url: string;
  mqttUrl: string;
  dataDir: string;
  dbFile: string;
  orgId: number;
  operator: Operator;
  /** A read-only connection to the server's database, for checking that work was persisted. */
  reader: SqliteDatabase.Database;
}

export async function startGuardServer(): Promise<GuardServer> {
  const dataDir = tempDir('pf-guard-');
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_WS: 'off',
    CAPTCHA: 'off',
    PASSWORD_PEPPER: GUARD_PEPPER,
    ADMIN_PASSWORD: 'admin123',
    LOG_LEVEL: 'silent',
  });
  // As the server's entry point does: the CPU of garbage collection is part of every hot path.
  tuneHeapGrowth(config.heapGrowingPercent);
  const app = await buildApp(config, { logger: false });
  onCleanup(() => app.close());
  const accounts = await seedAccounts(app.db, GUARD_PEPPER, systemClock);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const address = app.http.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const dbFile = `${dataDir}/panelfleet.db`;
  const reader = new SqliteDatabase(dbFile, { readonly: true });
  onCleanup(() => void reader.close());
  return {
    app,
    url,
    mqttUrl: `mqtt://127.0.0.1:${app.devices.mqttPort}`,
    dataDir,
    dbFile,
    orgId: accounts.customerId,
    operator: await Operator.signIn(url),
    reader,
  };
}

/** Where the generator's panels are connected now: the server's broker, the peer broker, or neither. */
type Place = 'server' | 'peer' | 'nowhere';

/** Lean MQTT panels in one generator process, enrolled once, moved between the server and the peer broker. */
export class GuardPanels {
  place: Place = 'nowhere';
  keys: string[];

  private constructor(
    readonly worker: DeviceWorker,
    readonly count: number,
    /** The bare broker of the peer side. */
    readonly peerUrl: string,
    private readonly server: GuardServer,
  ) {
    this.keys = Array.from({ length: count }, (_, i) => `GRD-${String(i + 1).padStart(5, '0')}`);
  }

  static async start(server: GuardServer, count: number) {
    const worker = DeviceWorker.start();
    const secret = await server.operator.enrollmentSecret();
    await worker.request({
      op: 'enroll',
      mode: 'raw',
      serverUrl: server.url,
      secret,
      prefix: 'GRD',
      from: 1,
      count,
      concurrency: 20,
    });
    return new GuardPanels(worker, count, await startBareBroker(), server);
  }

  get pid() {
    return this.worker.child.pid!;
  }

  mqttUrlOf(place: Exclude<Place, 'nowhere'>) {
    return place === 'server' ? this.server.mqttUrl : this.peerUrl;
  }

  /** Connects every panel to `place` (CONNECT, SUBSCRIBE, retained presence); throws unless all made it. */
  async connect(place: Exclude<Place, 'nowhere'>) {
    await this.disconnect();
    const replies = await allWorkers([this.worker], () => ({
      op: 'connect',
      mqttUrl: this.mqttUrlOf(place),
      concurrency: 50,
    }));
    const ok = sum(replies, 'connected', 'ok');
    if (ok !== this.count) throw new Error(`${ok} of ${this.count} panels connected to ${place}`);
    this.place = place;
  }

  async ensure(place: Exclude<Place, 'nowhere'>) {
    if (this.place !== place) {
      await this.connect(place);
      await sleep(SETTLE_MS);
    }
  }

  async disconnect() {
    if (this.place === 'nowhere') return;
    await this.worker.request({ op: 'disconnect' });
    this.place = 'nowhere';
    // The server writes the panels' last will (offline) and last-seen times after they leave.
    await sleep(SETTLE_MS);
  }
}

/** Long enough for the server's batched writers (200 ms) to finish what a round started. */
export const SETTLE_MS = 400;
