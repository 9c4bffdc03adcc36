import { SimulatedPanel } from './panel.js';
import { SimulatedLan } from './wake-on-lan.js';

export interface FleetOptions {
  /** The server's HTTP address (enrollment). */
  url: string;
  /** The broker panels connect to, e.g. mqtt://127.0.0.1:1883. */
  mqttUrl: string;
  enrollmentSecret: string;
  count: number;
  /** Serial numbers are prefix + a zero-padded index. */
  prefix?: string;
  telemetryMs?: number;
  restartDelayMs?: number;
  abnormalLogChance?: number;
  /** Least time between two OTA progress reports of a panel. */
  progressMs?: number;
  /** Panels connecting at once. */
  concurrency?: number;
  log?: (message: string) => void;
}

export interface Fleet {
  panels: SimulatedPanel[];
  lan: SimulatedLan;
  stop(): Promise<void>;
}

/** Starts `count` panels that enroll, connect and behave; resolves when all are online. */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const log = options.log ?? ((m: string) => console.log(m));
  const lan = new SimulatedLan();
  const panels: SimulatedPanel[] = [];
  const byMac = new Map<string, SimulatedPanel>();
  await lan.start((mac) => {
    const panel = byMac.get(mac);
    if (panel && panel.power === 'off') void panel.powerOn().catch((err: unknown) => log(`${panel.serial}: wake failed: ${String(err)}`));
  });
  for (let i = 0; i < options.count; i++) {
    const panel = new SimulatedPanel({
      serverUrl: options.url,
      mqttUrl: options.mqttUrl,
      enrollmentSecret: options.enrollmentSecret,
      serial: `${options.prefix ?? 'SIM'}-${String(i + 1).padStart(5, '0')}`,
      index: i + 1,
      telemetryMs: options.telemetryMs ?? 10_000,
      restartDelayMs: options.restartDelayMs ?? 3000,
      abnormalLogChance: options.abnormalLogChance ?? 0.01,
      ...(options.progressMs !== undefined ? { progressMs: options.progressMs } : {}),
      sendMagicPacket: (packet) => lan.send(packet),
      log,
    });
    panels.push(panel);
    byMac.set(panel.mac, panel);
  }
  const concurrency = options.concurrency ?? 50;
  for (let i = 0; i < panels.length; i += concurrency) await Promise.all(panels.slice(i, i + concurrency).map((p) => p.powerOn()));
  return {
    panels,
    lan,
    async stop() {
      await Promise.all(panels.map((p) => p.stop()));
      lan.close();
    },
  };
}
