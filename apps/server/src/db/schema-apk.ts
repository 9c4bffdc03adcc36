import type { Generated } from 'kysely';

/**
 * The APK repository (migration 013): an application card per package and organisation, its
 * uploaded versions (each APK read on upload: label, versionCode, signer), and auxiliary apps
 * attached to a version. Files live under DATA_DIR/files/apk (served to panels as signed URLs).
 */
export interface ApkMarksTable {
  id: Generated<number>;
  org_id: number;
  package_name: string;
  /** The label of the latest version (cards search by it). */
  label: string;
  /** The four-part mark entered at the first upload, "a-b-c-d". */
  mark: string;
  /** The remark (description) of the first upload. */
  remark: Generated<string>;
  /** SHA-256 (hex) of the signing certificate every version must share. */
  signer_sha256: string;
  created_at: number;
  updated_at: number;
}

export interface ApkVersionsTable {
  id: Generated<number>;
  mark_id: number;
  org_id: number;
  version_name: string;
  version_code: number;
  min_sdk: number | null;
  label: string;
  file_name: string;
  /** Relative to DATA_DIR/files. */
  stored_path: string;
  /** Relative to DATA_DIR/files; '' when the APK has no icon. */
  icon_path: Generated<string>;
  file_size: number;
  md5: string;
  sha256: string;
  signer_sha256: string;
  /** The version's description. */
  remark: Generated<string>;
  /** 1 when the operator uploaded it deliberately below the latest versionCode. */
  downgrade: Generated<number>;
  user_id: number | null;
  user_name: string;
  created_at: number;
}

export interface ApkFileSubsTable {
  id: Generated<number>;
  version_id: number;
  org_id: number;
  package_name: string;
  label: string;
  version_name: string;
  version_code: number;
  file_name: string;
  stored_path: string;
  icon_path: Generated<string>;
  file_size: number;
  sha256: string;
  created_at: number;
}

export interface ApkTables {
  apk_marks: ApkMarksTable;
  apk_versions: ApkVersionsTable;
  apk_file_subs: ApkFileSubsTable;
}
