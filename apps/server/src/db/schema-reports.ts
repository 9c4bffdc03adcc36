import type { Generated } from 'kysely';

/** Error tips (migration 016): the message shown for an error code a panel reports, per language. */
export interface ErrorTipsTable {
  id: Generated<number>;
  /** The code a panel reports (an acknowledgement's detail, e.g. `download`). */
  tips_code: string;
  /** zh-CN or en-US. */
  language: string;
  message: string;
  /** User name of whoever wrote it last. */
  update_man: string;
  created_at: number;
  updated_at: number;
}

/** Reminder configuration (migration 016): one per owner, machine type and OTA version. */
export interface WarningsTable {
  id: Generated<number>;
  /** The platform's or a distributor's organisation (migration 038). */
  org_id: number;
  machine_type: string;
  ota_version: string;
  remark: Generated<string>;
  create_man: string;
  created_at: number;
}

/** A reminder's message in one of the 36 description languages. */
export interface WarningMessagesTable {
  id: Generated<number>;
  warning_id: number;
  language: string;
  message: string;
  created_at: number;
}

export interface ReportTables {
  error_tips: ErrorTipsTable;
  warnings: WarningsTable;
  warning_messages: WarningMessagesTable;
}
