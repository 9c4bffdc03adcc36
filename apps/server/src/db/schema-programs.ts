import type { Generated } from 'kysely';

export interface ProgramsTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  play_time: number;
  status: string;
  content: string;
  revision: Generated<number>;
  round: Generated<number>;
  created_by: number;
  created_by_name: string;
  updated_by: number;
  created_at: number;
  updated_at: number;
}

export interface ProgramMaterialsTable {
  program_id: number;
  org_id: number;
  material_id: number;
}

export interface ApprovalStepsTable {
  id: Generated<number>;
  program_id: number;
  org_id: number;
  round: number;
  user_id: number;
  user_name: string;
  role: number;
  status: number;
  reason: string;
  from_status: string;
  to_status: string;
  added_at: number;
}

export interface ProgramDownloadProgressTable {
  command_id: string;
  percent: number;
  updated_at: number;
}

export interface ProgramTables {
  programs: ProgramsTable;
  program_materials: ProgramMaterialsTable;
  approval_steps: ApprovalStepsTable;
  program_download_progress: ProgramDownloadProgressTable;
  play_records: PlayRecordsTable;
}

/** One time a program played on a panel (migration 043, protocol 5.10). */
export interface PlayRecordsTable {
  org_id: number;
  device_id: number;
  /** The id the panel gave the report: stored once per panel. */
  report_id: string;
  program_id: number;
  revision: number;
  command_id: string | null;
  started_at: number;
  ended_at: number;
  /** Why it stopped: finished, stopped, replaced, powerOff, error. */
  reason: string;
}
