import type { Generated } from 'kysely';

/** Resumable uploads (migration 012): bytes under DATA_DIR/uploads/{id}. */
export interface UploadsTable {
  /** The tus upload id (32 hex). */
  id: string;
  org_id: number;
  user_id: number | null;
  kind: string;
  file_name: string;
  /** Bytes announced. */
  size: number;
  /** receiving, complete (hashed), used (a file was made of it). */
  state: 'receiving' | 'complete' | 'used';
  sha256: Generated<string>;
  md5: Generated<string>;
  created_at: number;
  completed_at: number | null;
}

/** The OTA version catalog (deployment-wide). */
export interface OtaVersionsTable {
  id: Generated<number>;
  name: string;
  enabled: number;
  update_man: string;
  created_at: number;
  updated_at: number;
}

export interface OtaRulesTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  remark: Generated<string>;
  enable_ip: number;
  enable_timezone: number;
  enable_sn: number;
  created_at: number;
  updated_at: number;
}

export interface OtaRuleZonesTable {
  id: Generated<number>;
  rule_id: number;
  /** GMT+08:00 */
  time_zone: string;
  /** Minutes east of UTC of that zone. */
  utc_offset: number;
  /** Local start in that zone, yyyy-MM-dd HH:mm:ss. */
  start_time: string;
  start_at: number;
  remark: Generated<string>;
}

export interface OtaRuleIpsTable {
  id: Generated<number>;
  rule_id: number;
  /** IPv4 address or CIDR block. */
  ip: string;
}

export interface OtaRuleSerialsTable {
  id: Generated<number>;
  rule_id: number;
  device_key: string;
}

export interface OtaFilesTable {
  id: Generated<number>;
  org_id: number;
  user_id: number | null;
  user_name: string;
  file_name: string;
  /** Relative to DATA_DIR/files (served by the downloads module). */
  stored_path: string;
  ota_version: string;
  file_size: number;
  md5: string;
  sha256: string;
  rule_id: number | null;
  remark: Generated<string>;
  /** The signed manifest, exactly the JSON text that was signed. */
  manifest: string;
  /** Ed25519 signature of the manifest, base64. */
  signature: string;
  created_at: number;
  updated_at: number;
}

export interface OtaFileMachineTypesTable {
  file_id: number;
  machine_type_id: number;
}

export interface OtaFileVersionsTable {
  file_id: number;
  version_id: number;
}

export interface OtaDescriptionsTable {
  id: Generated<number>;
  file_id: number;
  language: string;
  text_content: string;
  remind_text: string;
  create_user: string;
  update_user: string;
  created_at: number;
  updated_at: number;
}

/** A rollout (OTA today; APK installs and program publishing later): the database owns its life. */
export interface RolloutTasksTable {
  id: Generated<number>;
  org_id: number;
  /** 'ota' */
  kind: string;
  /** The kind's object (an OTA file id). */
  payload_id: number;
  /** JSON: the kind's dispatch data and display snapshot. */
  payload: string;
  /** What lists filter the task by (OTA: the version it installs). */
  payload_label: string;
  state: 'scheduled' | 'running' | 'paused' | 'completed' | 'cancelled' | 'missed';
  /** Message key of why it paused or was missed. */
  state_reason: Generated<string>;
  state_vars: Generated<string>;
  time_enable: number;
  /** When it starts (creation time when not timed). */
  fire_at: number;
  /** A timed task still fires until then after an outage. */
  fire_by: number | null;
  fired_at: number | null;
  wave_mode: 'none' | 'count' | 'percent';
  success_share: number;
  failure_share: number;
  min_results: number;
  current_wave: Generated<number>;
  wave_count: number;
  total: number;
  max_downloads: number | null;
  created_by: number | null;
  created_by_name: string;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  /** Digest of what is sent where; unique among open tasks of a kind and payload (migration 036). */
  same_key: Generated<string | null>;
  /** 1: panels that start to match the task's labels while it runs are added (migration 047). */
  keep_adding: Generated<number>;
  /** JSON of the label ids the task targets (keep adding); null for a task of chosen panels. */
  label_ids: Generated<string | null>;
  /** JSON of the skip rules panels added later pass through (keep adding). */
  keep_rules: Generated<string | null>;
}

export interface RolloutWavesTable {
  task_id: number;
  wave: number;
  size: number;
  started_at: number | null;
}

export interface RolloutTargetsTable {
  id: Generated<number>;
  task_id: number;
  org_id: number;
  device_id: number;
  wave: number;
  state: string;
  reason: Generated<string>;
  from_version: Generated<string>;
  command_id: string | null;
  not_before: number | null;
  /** When the panel was asked for the state of this row, which had not moved (migration 033); null otherwise. */
  asked_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface OtaTables {
  uploads: UploadsTable;
  ota_versions: OtaVersionsTable;
  ota_rules: OtaRulesTable;
  ota_rule_zones: OtaRuleZonesTable;
  ota_rule_ips: OtaRuleIpsTable;
  ota_rule_serials: OtaRuleSerialsTable;
  ota_files: OtaFilesTable;
  ota_file_machine_types: OtaFileMachineTypesTable;
  ota_file_versions: OtaFileVersionsTable;
  ota_descriptions: OtaDescriptionsTable;
  rollout_tasks: RolloutTasksTable;
  rollout_waves: RolloutWavesTable;
  rollout_targets: RolloutTargetsTable;
}
