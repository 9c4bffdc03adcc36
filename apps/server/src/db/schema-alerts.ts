import type { Generated } from 'kysely';

/** An organisation's alert rule (migration 039). JSON columns hold the contract's shapes. */
export interface AlertRulesTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  /** 1 enabled, 0 not. */
  enabled: number;
  severity: string;
  kind: string;
  /** JSON of the contract's alertCondition. */
  condition: string;
  duration_seconds: number;
  /** JSON array of label ids. */
  label_ids: string;
  /** JSON of the contract's alertChannels. */
  channels: string;
  language: string;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface AlertsTable {
  id: Generated<number>;
  org_id: number;
  rule_id: number;
  rule_name: string;
  kind: string;
  severity: string;
  state: 'active' | 'acknowledged' | 'cleared';
  subject_key: string;
  subject_type: string;
  subject_name: string;
  device_id: number | null;
  device_key: string | null;
  task_kind: string | null;
  company_id: number;
  detail_key: string;
  /** JSON object. */
  detail_vars: string;
  since_at: number;
  raised_at: number;
  last_seen_at: number;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
  note: string | null;
  cleared_at: number | null;
  cleared_by: string | null;
}

export interface AlertPendingTable {
  rule_id: number;
  subject_key: string;
  since_at: number;
}

export interface AlertMailOutboxTable {
  id: Generated<number>;
  org_id: number;
  recipient: string;
  language: string;
  /** 1: the daily digest; 0: the grouped mail of the batch window. */
  digest: number;
  alert_id: number;
  change: 'raised' | 'cleared';
  at: number;
  claimed_by: string | null;
  claimed_until: number | null;
  sent_at: number | null;
}

export interface AlertUserLanguagesTable {
  user_id: number;
  language: string;
}

export interface AlertTables {
  alert_rules: AlertRulesTable;
  alerts: AlertsTable;
  alert_pending: AlertPendingTable;
  alert_mail_outbox: AlertMailOutboxTable;
  alert_user_languages: AlertUserLanguagesTable;
}
