import { SimulatedPanel, type PanelPlace } from './panel.js';
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
  /** How far the panels' own clocks are off. */
  clockOffsetMs?: number;
  /** Share of OTA installs that fail, share of OTA downloads that arrive corrupted (0..1). */
  otaFailRate?: number;
  otaCorruptRate?: number;
  /** Serial numbers of panels whose every OTA install fails. */
  otaFailSerials?: string[];
  /** How long an OTA install keeps a panel offline. */
  installMs?: number;
  /** How long one second of a program's play time lasts (default 1000; tests shorten it). */
  playSecondMs?: number;
  /** Minutes east of UTC the panels report. */
  utcOffset?: number;
  /** Panels connecting at once. */
  concurrency?: number;
  /** Days of usage and abnormal logs each panel sends after connecting (what it kept while offline). */
  historyDays?: number;
  /** First wait before a panel sends again what no receipt named (default 30 s, protocol 5.9). */
  resendFirstMs?: number;
  /** First wait after an enrollment answered 503 or not at all (default 5 s, protocol 2). */
  enrollRetryFirstMs?: number;
  /** Where panel i (from 1) is; by default all report positions around Shanghai. */
  placeOf?: (index: number) => PanelPlace | undefined;
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
    if (panel && panel.power === 'off')
      void panel.powerOn().catch((err: unknown) => log(`${panel.serial}: wake failed: ${String(err)}`));
  });
  for (let i = 0; i < options.count; i++) {
    const serial = `${options.prefix ?? 'SIM'}-${String(i + 1).padStart(5, '0')}`;
    const panel = new SimulatedPanel({
      serverUrl: options.url,
      mqttUrl: options.mqttUrl,
      enrollmentSecret: options.enrollmentSecret,
      serial,
      index: i + 1,
      telemetryMs: options.telemetryMs ?? 10_000,
      restartDelayMs: options.restartDelayMs ?? 3000,
      abnormalLogChance: options.abnormalLogChance ?? 0.01,
      ...(options.progressMs !== undefined ? { progressMs: options.progressMs } : {}),
      ...(options.clockOffsetMs !== undefined ? { clockOffsetMs: options.clockOffsetMs } : {}),
      otaFailRate: options.otaFailRate ?? 0,
      otaCorruptRate: options.otaCorruptRate ?? 0,
      ...(options.otaFailSerials?.includes(serial) ? { otaAlwaysFails: true } : {}),
      installMs: options.installMs ?? 0,
      ...(options.playSecondMs !== undefined ? { playSecondMs: options.playSecondMs } : {}),
      ...(options.utcOffset !== undefined ? { utcOffset: options.utcOffset } : {}),
      ...(options.placeOf?.(i + 1) ? { place: options.placeOf(i + 1)! } : {}),
      ...(options.resendFirstMs !== undefined ? { resendFirstMs: options.resendFirstMs } : {}),
      ...(options.enrollRetryFirstMs !== undefined ? { enrollRetryFirstMs: options.enrollRetryFirstMs } : {}),
      sendMagicPacket: (packet) => lan.send(packet),
      log,
    });
    panels.push(panel);
    byMac.set(panel.mac, panel);
  }
  const concurrency = options.concurrency ?? 50;
  for (let i = 0; i < panels.length; i += concurrency)
    await Promise.all(panels.slice(i, i + concurrency).map((p) => p.powerOn()));
  const historyDays = options.historyDays ?? 0;
  if (historyDays > 0)
    for (let i = 0; i < panels.length; i += concurrency)
      await Promise.all(
        panels
          .slice(i, i + concurrency)
          .map((p) =>
            p
              .sendHistory(historyDays)
              .catch((err: unknown) => log(`${p.serial}: history not sent: ${String(err)}`)),
          ),
      );
  return {
    panels,
    lan,
    async stop() {
      await Promise.all(panels.map((p) => p.stop()));
      lan.close();
    },
  };
}

/**
 * A fleet spread over cities (`--places spread`): most panels report a position near their city;
 * every fourth reports none and only a public address, which the server places through its
 * offline IP database (these are well-known public resolvers' addresses, used as data only).
 */
const CITIES: Array<{ latitude: number; longitude: number; publicIp: string }> = [
  { latitude: 31.23, longitude: 121.47, publicIp: '223.5.5.5' }, // Shanghai; the address is in Hangzhou
  { latitude: 39.9, longitude: 116.4, publicIp: '1.2.4.8' }, // Beijing
  { latitude: 23.13, longitude: 113.26, publicIp: '114.114.114.114' }, // Guangzhou; the address is in Jinan
  { latitude: 30.57, longitude: 104.07, publicIp: '223.5.5.5' }, // Chengdu
  { latitude: 30.59, longitude: 114.3, publicIp: '1.2.4.8' }, // Wuhan
  { latitude: 51.51, longitude: -0.09, publicIp: '81.2.69.160' }, // London
  { latitude: 37.42, longitude: -122.08, publicIp: '8.8.8.8' }, // Mountain View
];

export function spreadPlace(index: number): PanelPlace {
  const city = CITIES[index % CITIES.length]!;
  if (index % 4 === 0) return { publicIp: city.publicIp };
  return {
    latitude: city.latitude + ((index * 37) % 20) / 100,
    longitude: city.longitude + ((index * 53) % 20) / 100,
  };
}
