import type { Generated } from 'kysely';

/** A saved setting (migration 014): a template ('0') or a source setting ('1'). */
export interface SettingTemplatesTable {
  id: Generated<number>;
  org_id: number;
  type: '0' | '1';
  series: string;
  /** Source settings: android or noAndroid; null for templates. */
  system: string | null;
  /** Source settings: the input; null for templates. */
  source_type: string | null;
  /** The spec's jsonData, as saved (valid for its series and kind). */
  json_data: string;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** One push of settings to panels. */
export interface SettingPushesTable {
  id: Generated<number>;
  org_id: number;
  /** template, source (a saved one to chosen panels), selection (saved ones to one panel), picture (from the detail). */
  kind: string;
  target_count: number;
  created_by: number | null;
  created_at: number;
  expires_at: number;
}

/** One command of a push: which panel, which setting, and whether the panel was off at the push. */
export interface SettingPushTargetsTable {
  push_id: number;
  command_id: string;
  org_id: number;
  device_id: number;
  setting_id: number | null;
  /** The series of a template, or the input of a picture. */
  what: string;
  offline_at_push: number;
}

/** The picture settings a panel last reported. */
export interface DevicePicturesTable {
  device_id: number;
  org_id: number;
  system: string | null;
  /** JSON: picture settings by input. */
  pictures: string;
  reported_at: number;
}

/** A distributor's platform certificate (migration 014b). */
export interface CertificatesTable {
  org_id: number;
  name: string;
  pem: string;
  sha256: string;
  subject: string;
  issuer: string;
  valid_from: number;
  valid_to: number;
  chain_length: number;
  uploaded_by: number | null;
  uploaded_by_name: string;
  uploaded_at: number;
}

/** The certificate a panel reported holding. */
export interface DeviceCertificatesTable {
  device_id: number;
  org_id: number;
  sha256: string;
  reported_at: number;
}

export interface SettingTables {
  setting_templates: SettingTemplatesTable;
  setting_pushes: SettingPushesTable;
  setting_push_targets: SettingPushTargetsTable;
  device_pictures: DevicePicturesTable;
  certificates: CertificatesTable;
  device_certificates: DeviceCertificatesTable;
}
