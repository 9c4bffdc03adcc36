import { z } from 'zod';
import { settingsChange } from './settings.js';

/**
 * Order codes. 00-08 and POWERUP are the spec's remote-control orders and feedback types;
 * the others carry notifications, settings, app management and the power-on relay.
 */
export const ORDERS = {
  brightness: '00',
  volume: '01',
  powerOff: '02',
  restart: '03',
  source: '04',
  mute: '07',
  virtualKey: '08',
  powerUp: 'POWERUP',
  /** Sent to an online panel on the target's LAN: broadcast a Wake-on-LAN packet. */
  wake: 'WAKE',
  notify: 'NOTIFY',
  settings: 'SETTINGS',
  uninstall: 'UNINSTALL',
  reportApps: 'REPORT_APPS',
  /** Download firmware over HTTP (signed URL), verify its SHA-256, install it. Sent by the server, never typed by an operator. */
  ota: 'OTA',
} as const;
export type Order = (typeof ORDERS)[keyof typeof ORDERS];
export const ORDER_CODES = Object.values(ORDERS) as [Order, ...Order[]];

/** Orders an operator may send to a label (spec 2 section 7: sendCommandByTagIds). */
export const LABEL_ORDERS: readonly Order[] = ['00', '01', '02', '03', '07'];

export const VIRTUAL_KEYS = [
  '0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
  'up', 'down', 'left', 'right', 'ok', 'home', 'back', 'volumeUp', 'volumeDown', 'power', 'mute',
] as const;
export type VirtualKey = (typeof VIRTUAL_KEYS)[number];

export const SOURCE_KEY_PATTERN = /^[A-Za-z0-9_.-]{1,32}$/;
export const MAC_PATTERN = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/;

const percent = z.number().int().min(0).max(100);

export const notificationValue = z.object({
  title: z.string().min(1).max(60),
  text: z.string().min(1).max(200),
  /** 0 emergency (with audio), 1 ordinary (top or bottom, repeated `times`). */
  level: z.union([z.literal(0), z.literal(1)]),
  position: z.enum(['top', 'bottom']).optional(),
  times: z.number().int().min(1).max(100),
  color: z.string().max(32).optional(),
  /** Emergency audio: 1 fire, 2 earthquake, 3 air defense, 0 custom (audioUrl). */
  audio: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).optional(),
  /** Custom audio: a signed, device-bound URL (protocol section 6) with the file's size and SHA-256. */
  audioUrl: z.string().url().max(2048).optional(),
  audioSize: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  audioSha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
});

/** An OTA update: a signed, device-bound URL valid for an hour, the exact size and SHA-256, the version it installs. */
export const otaValue = z.object({
  url: z.string().url().max(2048),
  size: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  version: z.string().min(1).max(64),
});
export type OtaValue = z.infer<typeof otaValue>;

/**
 * Orders only the server composes (a relay's Wake-on-LAN, an OTA with its signed URL, a
 * notification checked by /sendMessage/insert with its signed audio URL): refused as raw commands.
 */
export const SERVER_ONLY_ORDERS: readonly Order[] = ['WAKE', 'OTA', 'NOTIFY'];

export const wakeValue = z.object({ mac: z.string().regex(MAC_PATTERN), broadcast: z.string().max(45) });

/** The value each order carries; orders without a value carry null. */
export const orderValueSchemas = {
  '00': percent,
  '01': percent,
  '02': z.null(),
  '03': z.null(),
  '04': z.string().regex(SOURCE_KEY_PATTERN),
  '07': z.boolean(),
  '08': z.enum(VIRTUAL_KEYS),
  POWERUP: z.null(),
  WAKE: wakeValue,
  NOTIFY: notificationValue,
  /** Settings of the panel's series (spec 2 jsonData): the sections and fields named change, the rest stays. */
  SETTINGS: settingsChange,
  UNINSTALL: z.object({ packageNames: z.array(z.string().min(1).max(255)).min(1).max(100) }),
  REPORT_APPS: z.null(),
  OTA: otaValue,
} satisfies Record<Order, z.ZodType>;

export type OrderValue<O extends Order> = z.infer<(typeof orderValueSchemas)[O]>;

/**
 * Reads the value of an order as the console sends it (a form string): numbers for 00/01,
 * "1"/"0"/"true"/"false" for mute, JSON for structured orders, nothing for valueless orders.
 */
export function parseOrderValue(order: Order, raw: string | undefined): { ok: true; value: unknown } | { ok: false } {
  const text = (raw ?? '').trim();
  let candidate: unknown;
  switch (order) {
    case '00':
    case '01':
      candidate = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
      break;
    case '07':
      candidate = text === '1' || text === 'true' ? true : text === '0' || text === 'false' ? false : undefined;
      break;
    case '02':
    case '03':
    case 'POWERUP':
    case 'REPORT_APPS':
      candidate = null;
      break;
    case '04':
    case '08':
      candidate = text;
      break;
    default:
      try {
        candidate = JSON.parse(text);
      } catch {
        return { ok: false };
      }
  }
  const result = orderValueSchemas[order].safeParse(candidate);
  return result.success ? { ok: true, value: result.data } : { ok: false };
}
