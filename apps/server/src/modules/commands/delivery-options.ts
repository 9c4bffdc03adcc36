import { device } from '@panelfleet/contract';
import type { CommandRecord } from './repository.js';

/** What command delivery is set up with: its timings, per-order envelope values, its targets. */
export interface CommandTimings {
  /** How long a command may wait for its panel. */
  ttlMs: number;
  /** An unacknowledged command is published again after this long. */
  retryMs: number;
  /** How often expiry and retries are checked. */
  tickMs: number;
  /** Commands published between two database updates during a fan-out. */
  publishBatch: number;
}

export const DEFAULT_TIMINGS: CommandTimings = {
  ttlMs: 10 * 60_000,
  retryMs: 15_000,
  tickMs: 1000,
  publishBatch: 500,
};
/** An OTA download may take long: its command lives a day (each publish signs a fresh one-hour URL). */
export const OTA_TTL_MS = 24 * 60 * 60_000;

/**
 * Turns a command's stored value into what one panel receives, each time it is published (an OTA's
 * file or a notification's audio becomes a URL signed for that panel now). Given per order by the
 * commands entry (the notice's by the notifications entry, through the root): this module signs
 * nothing itself and does not know the notifications module.
 */
export type EnvelopeValue = (stored: unknown, deviceKey: string) => unknown;
export type EnvelopeValues = Partial<Record<device.Order, EnvelopeValue>>;

export interface Target {
  id: number;
  deviceKey: string;
}

/** A stored command as the protocol's envelope (docs/device-protocol.md section 5.6). */
export function envelopeOf(row: CommandRecord): device.CommandEnvelope {
  return {
    v: device.PROTOCOL_VERSION,
    id: row.id,
    order: row.order_code as device.Order,
    value: JSON.parse(row.value) as unknown,
    expiresAt: row.expires_at,
  };
}
