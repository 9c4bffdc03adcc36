/** Per company: panels per firmware version ('ota'), machine type ('type'), country, province and how located ('source'; migration 017). */
export interface DeviceFacetsTable {
  org_id: number;
  facet: 'ota' | 'type' | 'country' | 'province' | 'source';
  value: string;
  total: number;
}

/**
 * Changes of those counts not yet folded into them (PostgreSQL's triggers append here instead of
 * locking the counts; migration 032). A company's count is its `device_facets` total plus these.
 */
export interface DeviceFacetChangesTable {
  org_id: number;
  facet: DeviceFacetsTable['facet'];
  value: string;
  delta: number;
}

/** One row per company and hour (period 'hour'), rolled up into days ('day') after HISTORY_HOURLY_DAYS. */
export interface FleetHistoryTable {
  org_id: number;
  period: 'hour' | 'day';
  /** Start of the hour or day, ms UTC. */
  at: number;
  device_total: number;
  /** The most panels online at one sample of the period. */
  online_devices: number;
  user_total: number;
  online_users: number;
  screen_on_ms: number;
  ota_upgrades: number;
  offline_lt1: number;
  offline_1to3: number;
  offline_3to7: number;
  offline_7to30: number;
  offline_gt30: number;
  never_seen: number;
  /** Sums over the panels seen in the last hour at the latest sample, bytes. */
  ram_used: number;
  ram_total: number;
  /** Average CPU temperature of those panels, °C. */
  cpu_temperature: number | null;
  /**
   * When the latest sample of the period was taken; 0 for a period filled only from stored data
   * (screen time, OTA installs reported for it) with no sample: its counts of panels and users are unknown.
   */
  sampled_at: number;
}

/** How far the history has taken in the stored data (migration 035): a screen-time id, or 1 once the past OTA installs were counted. */
export interface HistoryBackfillTable {
  source: 'screen_time' | 'ota';
  position: number;
}

export interface DashboardTables {
  device_facets: DeviceFacetsTable;
  device_facet_changes: DeviceFacetChangesTable;
  fleet_history: FleetHistoryTable;
  history_backfill: HistoryBackfillTable;
  panel_history: PanelHistoryTable;
  panel_history_hourly: PanelHistoryHourlyTable;
}

/** One change of a panel's field group, or of its presence (migration 043; modules/panel-history/groups.ts). */
export interface PanelHistoryTable {
  org_id: number;
  device_id: number;
  grp: string;
  /** When the report was made, on the server's clock (ms). */
  at: number;
  n1: number | null;
  n2: number | null;
  n3: number | null;
  txt: string | null;
}

/** A numeric group's changes of one hour, once they are older than the raw window (migration 043). */
export interface PanelHistoryHourlyTable {
  org_id: number;
  device_id: number;
  grp: string;
  /** Start of the hour (ms). */
  hour: number;
  samples: number;
  n1: number | null;
  n1_min: number | null;
  n1_max: number | null;
  n2: number | null;
  n3: number | null;
  txt: string | null;
}
