import type { PanelPlace } from './panel-state.js';

/** How one simulated panel behaves (the fleet gives every panel the same, but for its serial and index). */
export interface PanelOptions {
  serverUrl: string;
  mqttUrl: string;
  enrollmentSecret: string;
  serial: string;
  index: number;
  telemetryMs: number;
  restartDelayMs: number;
  /** Chance per telemetry tick of an abnormal log (0..1). */
  abnormalLogChance: number;
  /** Least time between two OTA progress reports (protocol: at most every 5 s). */
  progressMs?: number;
  /** How far the panel's own wall clock is off (a panel running 20 minutes fast: 1_200_000). */
  clockOffsetMs?: number;
  /** Share of OTA installs that fail after verifying (0..1): `--ota-fail-rate`. */
  otaFailRate?: number;
  /** Every OTA install of this panel fails after verifying (`--ota-fail-serials`): a rollout with a failing panel. */
  otaAlwaysFails?: boolean;
  /** Share of OTA downloads that arrive corrupted (a flipped byte; fails its SHA-256): `--ota-corrupt-rate`. */
  otaCorruptRate?: number;
  /** How long an OTA install keeps the panel offline before it is back with the new version. */
  installMs?: number;
  /**
   * How long one second of a program's play time lasts on this panel (default 1000): tests shorten
   * it so that a program's `finished` comes without waiting its whole play time.
   */
  playSecondMs?: number;
  /** Minutes east of UTC the panel reports (policies' time-zone windows). */
  utcOffset?: number;
  /** Where the panel is: a position it reports, or only a public address (no position reported). */
  place?: PanelPlace;
  /** First wait before sending again what no receipt named (protocol 5.9: 30 s); tests shorten it. */
  resendFirstMs?: number;
  /** First wait after an enrollment answered 503 or not at all (protocol 2: 5 s); tests shorten it. */
  enrollRetryFirstMs?: number;
  sendMagicPacket(packet: Buffer): Promise<void>;
  log(message: string): void;
}
