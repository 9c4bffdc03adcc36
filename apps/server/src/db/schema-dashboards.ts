/** Per company: panels per firmware version ('ota'), machine type ('type'), country, province and how located ('source'; migration 017). */
export interface DeviceFacetsTable {
  org_id: number;
  facet: 'ota' | 'type' | 'country' | 'province' | 'source';
  value: string;
  total: number;
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
  /** When the latest sample of the period was taken. */
  sampled_at: number;
}

export interface DashboardTables {
  device_facets: DeviceFacetsTable;
  fleet_history: FleetHistoryTable;
}
