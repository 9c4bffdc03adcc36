import { z } from 'zod';
import { SHA256_HEX, settingsChange } from './settings.js';

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
  /** Trust this certificate (PEM, with its chain) for the platform's endpoints. Sent by the server only. */
  certificate: 'CERTIFICATE',
  /** Stop an OTA download in progress (the operator cancelled the panel in its task). */
  otaCancel: 'OTA_CANCEL',
  /** Download an APK over HTTP (signed URL), verify its SHA-256, install or update it. Sent by the server only. */
  apkInstall: 'APK',
  /** Stop an APK download in progress (the operator cancelled the panel in its install task). */
  apkCancel: 'APK_CANCEL',
  /** Download a published program's media (signed URLs), verify each SHA-256, play the playlist. Sent by the server only. */
  program: 'PROGRAM',
  /** Stop a program: its download if still running, or its playing (the operator cancelled the panel in its publish task). */
  programStop: 'PROGRAM_STOP',
  /** Capture the screen and upload it to a signed, single-use URL (section 5.10). Sent by the server only. */
  screenshot: 'SCREENSHOT',
} as const;
export type Order = (typeof ORDERS)[keyof typeof ORDERS];
export const ORDER_CODES = Object.values(ORDERS) as [Order, ...Order[]];

/** Orders an operator may send to a label (spec 2 section 7: sendCommandByTagIds). */
export const LABEL_ORDERS: readonly Order[] = ['00', '01', '02', '03', '07'];

export const VIRTUAL_KEYS = [
  '0',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
  'up',
  'down',
  'left',
  'right',
  'ok',
  'home',
  'back',
  'volumeUp',
  'volumeDown',
  'power',
  'mute',
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
  /** How many times it plays: an ordinary one scrolls past that often, an emergency one repeats its audio. */
  times: z.number().int().min(1).max(100),
  /** Text colour, `#rrggbb` in lower case (the server lowers what the console sends). */
  color: z
    .string()
    .regex(/^#[0-9a-f]{6}$/)
    .optional(),
  /** Emergency audio: 1 fire, 2 earthquake, 3 air defense, 0 custom (audioUrl). */
  audio: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).optional(),
  /** Custom audio: a signed, device-bound URL (protocol section 6) with the file's size and SHA-256. */
  audioUrl: z.string().url().max(2048).optional(),
  audioSize: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  audioSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

/**
 * The manifest the platform signs for every firmware file (docs/device-protocol.md section 6.1):
 * what the image is and what it may be installed on. It travels as the exact JSON text that was
 * signed (`manifest`), so a panel verifies those bytes and then reads them.
 */
export const firmwareManifest = z
  .object({
    v: z.literal(1),
    /** The version the image installs. */
    version: z.string().min(1).max(64),
    size: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    /** Machine types (series names, as panels report `machineType`) the image fits; at least one. */
    machineTypes: z.array(z.string().min(1).max(64)).min(1).max(100),
    /** Versions it may be installed over; empty: any. */
    fromVersions: z.array(z.string().min(1).max(64)).max(100),
    /** When the platform signed it (epoch ms). */
    issuedAt: z.number().int().nonnegative(),
  })
  .strict();
export type FirmwareManifest = z.infer<typeof firmwareManifest>;

/**
 * An OTA update: a signed, device-bound URL valid for an hour, the exact size and SHA-256, the
 * version it installs, the signed manifest (JSON text) with its Ed25519 signature (base64 of 64
 * bytes), and whether this task lets an older version replace a newer one.
 */
export const otaValue = z.object({
  url: z.string().url().max(2048),
  size: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  version: z.string().min(1).max(64),
  manifest: z.string().min(2).max(16_384),
  signature: z.string().regex(/^[A-Za-z0-9+/]{86}==$/),
  allowDowngrade: z.boolean(),
  /**
   * The reminder configured for the panel's machine type and this version (spec 3 section
   * 2.10), in the panel's language: shown before installing, the install waits for the
   * operator's OK. Absent when none is configured.
   */
  reminder: z.string().min(1).max(2000).optional(),
});
export type OtaValue = z.infer<typeof otaValue>;

/**
 * An app install or update (protocol section 6.4): the signed, device-bound URL of an APK of the
 * repository, its size and SHA-256, and what the server read from it (package, versionCode,
 * versionName, label, the signing certificate's SHA-256). The panel installs only that package
 * signed by that certificate, and only above its installed versionCode unless allowDowngrade.
 */
export const apkInstallValue = z.object({
  url: z.string().url().max(2048),
  size: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  packageName: z.string().min(1).max(255),
  versionCode: z.number().int().nonnegative(),
  versionName: z.string().max(128),
  label: z.string().max(255),
  signerSha256: z.string().regex(/^[0-9a-f]{64}$/),
  allowDowngrade: z.boolean(),
});
export type ApkInstallValue = z.infer<typeof apkInstallValue>;

/**
 * A published program (protocol section 6.5): the playlist in order; each media item carries a
 * signed, device-bound URL with its size and SHA-256, a web item the page's address. The panel
 * fetches every file, verifies it, then plays the items in order, each for `duration` seconds,
 * round and round, for `playTime` seconds.
 */
export const programItemValue = z.discriminatedUnion('type', [
  z.object({
    type: z.enum(['image', 'video', 'audio']),
    duration: z.number().int().min(1).max(86_400),
    url: z.string().url().max(2048),
    size: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    /** The media type the server recognised from the file's content (image/png, video/mp4, ...). */
    mediaType: z.string().min(3).max(64),
    /** The material's name as it was uploaded (display only: a panel may show it, e.g. in its screen's status). */
    name: z.string().min(1).max(255).optional(),
  }),
  z.object({
    type: z.literal('web'),
    duration: z.number().int().min(1).max(86_400),
    url: z.string().url().max(2048),
  }),
]);
export const programValue = z.object({
  programId: z.number().int().positive(),
  /** Changes whenever the program is edited: a panel holding this revision need not fetch again. */
  revision: z.number().int().nonnegative(),
  name: z.string().min(1).max(100),
  playTime: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600),
  items: z.array(programItemValue).min(1).max(100),
});
export type ProgramValue = z.infer<typeof programValue>;

/** Stop the OTA command `id` if its download is still running (a verifying or installing panel finishes). */
export const otaCancelValue = z.object({ id: z.string().uuid() });

/** Stop the APK command `id` if its download is still running (a verifying or installing panel finishes). */
export const apkCancelValue = otaCancelValue;

/** Stop the PROGRAM command `id`: its download if still running, or its playing (the panel returns to what it showed before). */
export const programStopValue = otaCancelValue;

/**
 * Orders only the server composes (a relay's Wake-on-LAN, an OTA with its signed URL, a
 * notification checked by /sendMessage/insert with its signed audio URL), refused as raw
 * commands, each with the call that sends it: an operator asks for the work (a rollout, a
 * notification, a certificate) and the server makes the order with what it needs. The API
 * documentation names these calls.
 */
export const SERVER_ORDER_CALLS = {
  WAKE: "/sendData/sendPowerUpByDeviceId (sent to an online panel on the target's network)",
  OTA: '/otaFile/forceUpdate',
  OTA_CANCEL: '/otaTask/cancel, /otaTask/cancelDevice',
  NOTIFY: '/sendMessage/insert',
  CERTIFICATE: '/sendData/updateCertificate',
  APK: '/apkUpgrade/install, /platform/device/upgradeApk',
  APK_CANCEL: '/apkUpgrade/cancelInstallTask',
  PROGRAM: '/program/packZip',
  PROGRAM_STOP: '/program/cancelTask, /program/cancelTaskDevice',
  SCREENSHOT: '/platform/device/screenshot/take',
} as const satisfies Partial<Record<Order, string>>;

export const SERVER_ONLY_ORDERS: readonly Order[] = Object.keys(SERVER_ORDER_CALLS) as Order[];

/** The orders an operator may send through the generic call (sendCommandByDeviceId): all but the server's own. */
export const DEVICE_SEND_ORDERS = ORDER_CODES.filter((order) => !SERVER_ONLY_ORDERS.includes(order)) as [
  Order,
  ...Order[],
];

/** Longest certificate bundle (PEM text) a panel is sent: a leaf and a few intermediates fit easily. */
export const CERTIFICATE_MAX_CHARS = 32 * 1024;

/**
 * The platform certificate (protocol 5.8): `pem` holds one or more PEM certificates, the leaf
 * first; `sha256` is the SHA-256 of their DER bytes in order (for one certificate, its usual
 * SHA-256 fingerprint), which the panel checks and reports back in its settings report.
 */
export const certificateValue = z.object({
  name: z.string().min(1).max(128),
  pem: z.string().min(1).max(CERTIFICATE_MAX_CHARS),
  sha256: z.string().regex(SHA256_HEX),
});
export type CertificateValue = z.infer<typeof certificateValue>;

/** Largest picture a panel may upload (bytes). */
export const SCREENSHOT_MAX_BYTES = 4 * 1024 * 1024;
/** Smallest and largest width or height of an uploaded picture (pixels). */
export const SCREENSHOT_MIN_SIDE = 64;
export const SCREENSHOT_MAX_SIDE = 7680;

/**
 * A screenshot (protocol 5.10): capture what the screen shows now, encode it as JPEG or WebP no
 * larger than `maxWidth` x `maxHeight` and `maxBytes`, and upload it once to `url` before
 * `expiresAt` (epoch ms, server clock) with the panel's own credentials.
 */
export const screenshotValue = z.object({
  url: z.string().url().max(2048),
  maxBytes: z.number().int().min(1024).max(SCREENSHOT_MAX_BYTES),
  maxWidth: z.number().int().min(SCREENSHOT_MIN_SIDE).max(SCREENSHOT_MAX_SIDE),
  maxHeight: z.number().int().min(SCREENSHOT_MIN_SIDE).max(SCREENSHOT_MAX_SIDE),
  expiresAt: z.number().int().nonnegative(),
});
export type ScreenshotValue = z.infer<typeof screenshotValue>;

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
  CERTIFICATE: certificateValue,
  OTA_CANCEL: otaCancelValue,
  APK: apkInstallValue,
  APK_CANCEL: apkCancelValue,
  PROGRAM: programValue,
  PROGRAM_STOP: programStopValue,
  SCREENSHOT: screenshotValue,
} satisfies Record<Order, z.ZodType>;

export type OrderValue<O extends Order> = z.infer<(typeof orderValueSchemas)[O]>;

/**
 * Reads the value of an order as the console sends it (a form string): numbers for 00/01,
 * "1"/"0"/"true"/"false" for mute, JSON for structured orders, nothing for valueless orders.
 */
export function parseOrderValue(
  order: Order,
  raw: string | undefined,
): { ok: true; value: unknown } | { ok: false } {
  const text = (raw ?? '').trim();
  let candidate: unknown;
  switch (order) {
    case '00':
    case '01':
      candidate = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
      break;
    case '07':
      candidate =
        text === '1' || text === 'true' ? true : text === '0' || text === 'false' ? false : undefined;
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
