import { z } from 'zod';
import { ORDER_CODES, orderValueSchemas, type Order } from './orders.js';
import { DEVICE_KEY_PATTERN, MAX_PAYLOAD_BYTES, PROTOCOL_VERSION } from './topics.js';

const version = z.literal(PROTOCOL_VERSION);
const epochMs = z.number().int().nonnegative();
const bytes = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const percent = z.number().int().min(0).max(100);
const ip = z.string().max(45);

export const NETWORK_STATES = ['ethernet', 'wifi', 'cellular', 'none'] as const;
export const POWER_STATES = ['on', 'standby'] as const;

/** Every device field of spec 2 section 3 that the panel knows, plus what power-on needs. */
export const deviceStateFields = z.object({
  publicIp: ip,
  localIp: ip,
  /** Netmask of the LAN interface, to find panels on the same network for Wake-on-LAN. */
  netmask: ip,
  mac: z.string().regex(/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/),
  model: z.string().max(64),
  machineType: z.string().max(64),
  otaVersion: z.string().max(64),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  ramTotal: bytes,
  ramUsed: bytes,
  apkCurrent: bytes,
  apkTotal: bytes,
  otaCurrent: bytes,
  otaTotal: bytes,
  /** Signal strength in percent (100 for a wired link). */
  netWorkIntensity: percent,
  netWorkState: z.enum(NETWORK_STATES),
  cpuTemperature: z.number().min(-40).max(150),
  brightness: percent,
  volume: percent,
  mute: z.boolean(),
  /** Current input source key (android home is "home"). */
  source: z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/),
  power: z.enum(POWER_STATES),
  /** The panel's offset from UTC now, in minutes east (480 in China): where upgrade policies' time-zone windows apply. */
  utcOffset: z.number().int().min(-720).max(840),
});
export type DeviceStateFields = z.infer<typeof deviceStateFields>;

/**
 * Milliseconds since the panel booted, by a clock that only runs forward and that no setting or
 * time sync changes (Android `SystemClock.elapsedRealtime()`, Linux `CLOCK_BOOTTIME`): what orders
 * a panel's state reports (protocol 5.1), where its wall clock (`ts`) may jump.
 */
const uptimeMs = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** A state report: a full one after connecting and periodically, partial ones on change. */
export const stateReport = deviceStateFields
  .partial()
  .extend({ v: version, ts: epochMs.optional(), uptimeMs: uptimeMs.optional() })
  .strict();
export type StateReport = z.infer<typeof stateReport>;

export const presence = z.object({ v: version, online: z.boolean() }).strict();
export type Presence = z.infer<typeof presence>;

/**
 * The id a panel gives each usage, log or app report (a UUID is best): a report delivered twice
 * (QoS 1 redelivery, a resend after a reboot) is stored once per device.
 */
export const REPORT_ID_PATTERN = /^[A-Za-z0-9_-]{8,36}$/;
export const reportId = z.string().regex(REPORT_ID_PATTERN);

export const installedApp = z.object({
  appName: z.string().min(1).max(128),
  packageName: z.string().min(1).max(255),
  versionName: z.string().max(64),
  /** Bytes. */
  appSize: bytes,
  /** 1 is a system app (cannot be uninstalled). */
  appLevel: z.union([z.literal(0), z.literal(1)]),
  iconName: z.string().max(255).optional(),
  /** Android's versionCode (long); with the signer, what the console's Renew compares. */
  versionCode: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  /** SHA-256 of the app's signing certificate, lower-case hex. */
  signerSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type InstalledApp = z.infer<typeof installedApp>;

const encoder = new TextEncoder();
const utf8Bytes = (text: string) => encoder.encode(text).length;

/** A panel reports at most this many apps (spec: the app list holds 1,000). */
export const MAX_REPORTED_APPS = 1000;
/** An app report travels in at most this many parts. */
export const MAX_APP_REPORT_PARTS = 32;

/**
 * The complete list of installed apps; it replaces the previous one. A list whose JSON would
 * pass the 64 KiB message limit travels in numbered parts (`id`, `part` 1..`parts`): the
 * server replaces the list only once every part of that id has arrived (protocol 5.2).
 */
export const appReport = z
  .object({
    v: version,
    id: reportId.optional(),
    part: z.number().int().min(1).max(MAX_APP_REPORT_PARTS).optional(),
    parts: z.number().int().min(1).max(MAX_APP_REPORT_PARTS).optional(),
    apps: z.array(installedApp).max(MAX_REPORTED_APPS),
  })
  .strict()
  .refine((r) => (r.parts === undefined) === (r.part === undefined), {
    message: 'part and parts go together',
  })
  .refine((r) => r.parts === undefined || r.parts === 1 || r.id !== undefined, {
    message: 'a report in several parts needs an id',
  })
  .refine((r) => r.part === undefined || r.parts === undefined || r.part <= r.parts, {
    message: 'part is past parts',
  });
export type AppReport = z.infer<typeof appReport>;

/**
 * A list of apps as the messages a panel sends: one when its JSON fits `maxBytes`, else numbered
 * parts of the same id, each within `maxBytes` (the simulator's and a firmware's way to send it).
 */
export function appReportMessages(
  apps: InstalledApp[],
  id: string,
  maxBytes = MAX_PAYLOAD_BYTES,
): AppReport[] {
  const whole: AppReport = { v: PROTOCOL_VERSION, apps };
  if (utf8Bytes(JSON.stringify(whole)) <= maxBytes) return [whole];
  // Room for the envelope of a part: {"v":1,"id":"...","part":32,"parts":32,"apps":[]}
  const envelope = utf8Bytes(JSON.stringify({ v: 1, id, part: 32, parts: 32, apps: [] }));
  const groups: InstalledApp[][] = [[]];
  let used = envelope;
  for (const app of apps) {
    const size = utf8Bytes(JSON.stringify(app)) + 1;
    if (used + size > maxBytes && groups[groups.length - 1]!.length) {
      groups.push([]);
      used = envelope;
    }
    groups[groups.length - 1]!.push(app);
    used += size;
  }
  return groups.map((group, i) => ({
    v: PROTOCOL_VERSION,
    id,
    part: i + 1,
    parts: groups.length,
    apps: group,
  }));
}

/** Screen time: foreground time of apps and the screen-on time of the panel, per interval. */
export const appUsageRecord = z.object({
  packageName: z.string().min(1).max(255),
  appName: z.string().min(1).max(128),
  startedAt: epochMs,
  durationMs: z.number().int().nonnegative().max(86_400_000),
});

export const appUsageReport = z
  .object({
    v: version,
    id: reportId,
    from: epochMs,
    to: epochMs,
    screenOnMs: z.number().int().nonnegative().max(86_400_000),
    records: z.array(appUsageRecord).max(500),
  })
  .strict();
export type AppUsageReport = z.infer<typeof appUsageReport>;

/** Why a program stopped playing (protocol 5.11). */
export const PLAY_STOP_REASONS = ['finished', 'stopped', 'replaced', 'powerOff', 'error'] as const;
export type PlayStopReason = (typeof PLAY_STOP_REASONS)[number];
/** The longest play one report covers (a program's longest playTime). */
export const MAX_PLAY_MS = 7 * 86_400_000;

/**
 * Proof of play (protocol 5.11): one report per time a program played on the panel, from when
 * its first item was on screen to when it stopped, and why it stopped. Kept until a receipt
 * names its id, like usage reports.
 */
export const playReport = z
  .object({
    v: version,
    id: reportId,
    programId: z.number().int().min(1).max(2_147_483_647),
    revision: z.number().int().nonnegative().max(2_147_483_647),
    /** The PROGRAM command that brought it, when the panel still knows it. */
    commandId: z.string().uuid().optional(),
    startedAt: epochMs,
    endedAt: epochMs,
    reason: z.enum(PLAY_STOP_REASONS),
  })
  .strict()
  .refine((r) => r.endedAt >= r.startedAt && r.endedAt - r.startedAt <= MAX_PLAY_MS, {
    message: 'endedAt must lie 0 to 7 days after startedAt',
    path: ['endedAt'],
  });
export type PlayReport = z.infer<typeof playReport>;

/**
 * Largest log text a panel uploads over HTTP (POST /device/abnormalLog), in UTF-8 bytes. Over
 * MQTT a log travels only while its whole JSON payload fits MAX_LOG_PAYLOAD_BYTES (256 KiB);
 * a larger one goes by that upload, whole (protocol 5.4).
 */
export const MAX_LOG_UPLOAD_BYTES = 16 * 1024 * 1024;

/** An abnormal log (crash, ANR) of one app; the text is the log itself. */
export const abnormalLog = z
  .object({
    v: version,
    id: reportId,
    fileName: z.string().min(1).max(255),
    appName: z.string().min(1).max(128),
    model: z.string().max(64).optional(),
    occurredAt: epochMs,
    // Characters; the byte limits (payload over MQTT, body over HTTP) are checked before parsing.
    text: z.string().min(1).max(MAX_LOG_UPLOAD_BYTES),
  })
  .strict();
export type AbnormalLog = z.infer<typeof abnormalLog>;

/** A command as the panel receives it on its cmd topic. */
export const commandEnvelope = z
  .object({
    v: version,
    id: z.string().uuid(),
    order: z.enum(ORDER_CODES),
    value: z.unknown(),
    /** Epoch ms by the server's clock: for display and logs only, a panel's clock may be wrong. */
    expiresAt: epochMs,
    /**
     * Milliseconds the command has left when the server publishes it (computed anew at every
     * publish). The panel measures it from receipt with its monotonic clock and ignores its own
     * wall clock: 0 means already expired. Always sent by this server; optional only so that a
     * panel still accepts a command from an older server, where it falls back to `expiresAt`.
     */
    ttlMs: z.number().int().nonnegative().optional(),
  })
  .strict()
  .superRefine((cmd, ctx) => {
    const schema = orderValueSchemas[cmd.order as Order];
    if (!schema.safeParse(cmd.value).success)
      ctx.addIssue({ code: 'custom', message: 'value does not fit the order', path: ['value'] });
  });
export type CommandEnvelope = z.infer<typeof commandEnvelope>;

export const ACK_RESULTS = ['received', 'succeeded', 'failed'] as const;

/**
 * The error codes this protocol defines for the `detail` of a `failed` acknowledgement
 * (docs/device-protocol.md, section 5.7); firmware may add its own in the same form.
 */
export const ACK_ERROR_CODES = [
  'expired',
  'unsupported',
  'download',
  'checksum',
  'signature',
  'model',
  'fromVersion',
  'downgrade',
  'install',
  'notRunning',
  'cancelled',
  'systemApp',
  'capture',
  'upload',
] as const;
/** Steps of a long command a panel reports with `received` (OTA: downloading, verifying, installing). */
export const ACK_PHASES = ['downloading', 'verifying', 'installing'] as const;
export type AckPhase = (typeof ACK_PHASES)[number];
export type AckResult = (typeof ACK_RESULTS)[number];

/** The panel's answer to a command: optional `received`, then exactly one final result. */
export const commandAck = z
  .object({
    v: version,
    id: z.string().uuid(),
    result: z.enum(ACK_RESULTS),
    detail: z.string().max(500).optional(),
    /** With `received`: the step the panel has reached (OTA: downloading, verifying, installing). */
    phase: z.enum(ACK_PHASES).optional(),
    /** With `received` and `phase: "downloading"`: the share of the command's files fetched so far (PROGRAM). */
    progress: z.number().int().min(0).max(100).optional(),
    /** What the command changed on the panel (a partial state report), so no separate report is needed. */
    state: deviceStateFields.partial().strict().optional(),
    /** With `state`: the panel's uptime when it was measured, ordering it with the state reports. */
    uptimeMs: uptimeMs.optional(),
  })
  .strict();
export type CommandAck = z.infer<typeof commandAck>;

/** A final acknowledgement: what a panel keeps and sends again until a receipt names it (protocol 5.9). */
export const isFinalAck = (ack: Pick<CommandAck, 'result'>) => ack.result !== 'received';
/** A PROGRAM's second `succeeded` (its play time is over): receipted apart from its first. */
export const isFinishedAck = (ack: Pick<CommandAck, 'result' | 'detail'>) =>
  ack.result === 'succeeded' && ack.detail === 'finished';

/** HTTP enrollment: the panel's serial number and its company's enrollment secret. */
export const enrollmentRequest = z.object({
  v: z.coerce.number().pipe(version),
  serial: z.string().regex(DEVICE_KEY_PATTERN, { error: 'device.serialInvalid' }),
  enrollmentSecret: z
    .string()
    .min(16, { error: 'device.enrollmentRefused' })
    .max(128, { error: 'device.enrollmentRefused' }),
  model: z.string().max(64).optional(),
  machineType: z.string().max(64).optional(),
});
export type EnrollmentRequest = z.infer<typeof enrollmentRequest>;

/** The panel's own credentials; the password is shown once, the server keeps only its hash. */
export const enrollmentReply = z.object({
  v: version,
  deviceKey: z.string(),
  clientId: z.string(),
  username: z.string(),
  password: z.string(),
  /** Broker addresses the panel may use, e.g. mqtt://host:1883 and ws://host/mqtt. */
  mqttUrls: z.array(z.string()),
  topicPrefix: z.string(),
  keepaliveSeconds: z.number().int().positive(),
  /** The platform's firmware signing key: manifests of OTA images verify with it (protocol section 6.1). */
  firmwareKey: z.object({ algorithm: z.literal('ed25519'), publicKey: z.string() }).optional(),
});
export type EnrollmentReply = z.infer<typeof enrollmentReply>;
