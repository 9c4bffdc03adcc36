import type { Generated } from 'kysely';

export interface MaterialsTable {
  id: Generated<number>;
  org_id: number;
  /** 2: audio. */
  file_type: number;
  /** The name it was uploaded with (display only). */
  file_name: string;
  /** Generated file name under DATA_DIR/materials. */
  stored_name: string;
  /** Format recognised from the content (mp3, wav, ...). */
  format: string;
  file_size: number;
  sha256: string;
  created_by: number | null;
  created_at: number;
}

export interface MaterialTables {
  materials: MaterialsTable;
}
