import type { AccountTables } from './schema-accounts.js';
import type { ServerTables } from './schema-servers.js';
import type { Generated } from 'kysely';

/** Times are epoch milliseconds everywhere (INTEGER in SQLite, BIGINT in PostgreSQL). */

export interface OrganisationsTable {
  id: Generated<number>;
  parent_id: number | null;
  kind: 'platform' | 'distributor' | 'customer';
  name: string;
  user_quota: number;
  created_at: number;
  /** Registration: the salesperson and license a customer registered with. */
  salesperson_id: number | null;
  license_id: number | null;
}

export interface UsersTable {
  id: Generated<number>;
  org_id: number;
  user_name: string;
  /** argon2id over HMAC(pepper, md5-from-browser). */
  password_hash: string;
  user_type: '0' | '1' | '2' | '3' | '4';
  /** Activation: 0 inactive, 1 active. */
  activated: number;
  /** Account state: 1 enabled, 0 disabled. */
  enabled: number;
  phone: Generated<string>;
  email: Generated<string>;
  remark: Generated<string>;
  avatar: Generated<string>;
  /** Program role: 0 creator, 1 and 2 approvers. */
  program_role: number;
  valid_begin: number | null;
  valid_end: number | null;
  created_at: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie token; the token itself is never stored. */
  id: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  ip: string;
}

export interface CaptchasTable {
  /** SHA-256 of the browser's captcha cookie. */
  id: string;
  answer: string;
  expires_at: number;
}

export interface LoginFailuresTable {
  /** 'user:<name>' or 'ip:<address>'. */
  key: string;
  count: number;
  first_at: number;
}

export interface EnrollmentSecretsTable {
  org_id: number;
  secret: string;
  secret_hash: string;
  rotated_at: number;
}

export interface DevicesTable {
  id: Generated<number>;
  org_id: number;
  device_key: string;
  name: string;
  remark: Generated<string>;
  /** 1 enabled, 0 disabled (a disabled panel may not connect). */
  state: Generated<number>;
  /** SHA-256 of the panel's own 256-bit password. */
  secret_hash: string;
  model: Generated<string>;
  machine_type: Generated<string>;
  ota_version: Generated<string>;
  public_ip: Generated<string>;
  local_ip: Generated<string>;
  netmask: Generated<string>;
  mac: Generated<string>;
  latitude: number | null;
  longitude: number | null;
  ram_total: number | null;
  ram_used: number | null;
  apk_current: number | null;
  apk_total: number | null;
  ota_current: number | null;
  ota_total: number | null;
  network_intensity: number | null;
  network_state: string | null;
  cpu_temperature: number | null;
  brightness: number | null;
  volume: number | null;
  /** 1 muted, 0 not, null unknown. */
  mute: number | null;
  source: string | null;
  power: string | null;
  last_seen_at: number | null;
  enrolled_at: number;
}

export interface GroupsTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  created_at: number;
}

export interface GroupDevicesTable {
  group_id: number;
  device_id: number;
  org_id: number;
}

export type CommandStatus = 'queued' | 'sent' | 'delivered' | 'succeeded' | 'failed' | 'expired';

export interface CommandsTable {
  id: string;
  org_id: number;
  device_id: number;
  order_code: string;
  /** JSON of the order's value. */
  value: string;
  status: CommandStatus;
  detail: Generated<string>;
  attempts: Generated<number>;
  expires_at: number;
  created_by: number | null;
  relay_for: string | null;
  created_at: number;
  updated_at: number;
}

export interface DeviceAppsTable {
  device_id: number;
  org_id: number;
  package_name: string;
  app_name: string;
  version_name: string;
  app_size: number;
  app_level: number;
  icon_name: Generated<string>;
}

export interface AppUsageTable {
  id: Generated<number>;
  org_id: number;
  device_id: number;
  package_name: string;
  app_name: string;
  started_at: number;
  duration_ms: number;
}

export interface ScreenTimeTable {
  id: Generated<number>;
  org_id: number;
  device_id: number;
  from_at: number;
  to_at: number;
  screen_on_ms: number;
}

export interface AbnormalLogsTable {
  id: Generated<number>;
  org_id: number;
  device_id: number;
  device_key: string;
  file_name: string;
  app_name: string;
  model: string;
  occurred_at: number;
  upload_date: number;
  text: string;
  /** 1 processed, 0 not yet. */
  status: Generated<number>;
}

export interface Database extends AccountTables, ServerTables {
  organisations: OrganisationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  captchas: CaptchasTable;
  login_failures: LoginFailuresTable;
  enrollment_secrets: EnrollmentSecretsTable;
  devices: DevicesTable;
  groups: GroupsTable;
  group_devices: GroupDevicesTable;
  commands: CommandsTable;
  device_apps: DeviceAppsTable;
  app_usage: AppUsageTable;
  screen_time: ScreenTimeTable;
  abnormal_logs: AbnormalLogsTable;
}
