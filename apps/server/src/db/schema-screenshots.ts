import type { Generated } from 'kysely';

/** A screenshot asked of a panel and, once uploaded, where its picture lives (migration 042). */
export interface ScreenshotsTable {
  id: Generated<number>;
  org_id: number;
  device_id: number;
  /** The panel the upload URL was made for: only it may upload. */
  device_key: string;
  /** pending, stored or failed (screenshots.SCREENSHOT_STATES). */
  status: string;
  /** Why it failed (screenshots.SCREENSHOT_FAILURES); null otherwise. */
  failure: string | null;
  requested_by: number | null;
  requested_at: number;
  /** The upload URL works until then (ms). */
  expires_at: number;
  taken_at: number | null;
  width: Generated<number>;
  height: Generated<number>;
  bytes: Generated<number>;
  media_type: Generated<string>;
  file_key: Generated<string>;
  thumb_key: Generated<string>;
  /** The SCREENSHOT command that asked for it (its failed acknowledgement fails the screenshot). */
  command_id: string | null;
}

export interface ScreenshotTables {
  screenshots: ScreenshotsTable;
}
