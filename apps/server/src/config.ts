import path from 'node:path';
import { z } from 'zod';

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
  PLATFORM_URL: z.string().url().optional(),
  SERVER_REPORT_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  // Not 1883: a host that runs Mosquitto (these machines do) keeps that port.
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1884),
  MQTT_TCP: flag('on'),
  MQTT_WS: flag('on'),
  MQTT_URL: z.string().regex(/^(mqtts?|wss?):\/\//, 'must start with mqtt://, mqtts://, ws:// or wss://').optional(),
  MQTT_PUBLIC_URL: z.string().optional(),
  /** dynsec: provision panel credentials into Mosquitto's dynamic-security plugin (external broker). */
  MQTT_PROVISION: z.enum(['none', 'dynsec']).default('none'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

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
  mqtt: MqttConfig;
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
}

function databaseTarget(url: string | undefined, dataDir: string): DatabaseTarget {
  if (!url) return { kind: 'sqlite', file: path.join(dataDir, 'panelfleet.db') };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  if (url.startsWith('sqlite:')) return { kind: 'sqlite', file: path.resolve(url.slice('sqlite:'.length)) };
  throw new Error(`DATABASE_URL must start with postgres:// or sqlite: (got ${url.split(':')[0]}:)`);
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
    database: databaseTarget(e.DATABASE_URL, dataDir),
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
    mqtt: { port: e.MQTT_TCP ? e.MQTT_PORT : null, webSocket: e.MQTT_WS, url: e.MQTT_URL, publicUrl: e.MQTT_PUBLIC_URL, provision: e.MQTT_PROVISION },
  };
}
