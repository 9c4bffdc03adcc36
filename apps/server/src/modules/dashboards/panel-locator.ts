import * as geo from '@panelfleet/contract/geo';
import { isTransactionConflict } from '../../db/errors.js';
import type { IpLocator } from './ip-location.js';
import type { MapRegions } from './regions.js';
import type { DashboardRepository, LocationRow, LocationUpdate } from './repository.js';

export interface LocatorLog {
  error(obj: object, message: string): void;
  warn(obj: object, message: string): void;
}

/**
 * Places panels on the map. The gateway names the panels whose report carried a position or a
 * public IP; once a second the locator waits for those reports to be written, reads each panel's
 * position and IP, and writes where it is: its own position if it reported one ('gps'), else
 * where its public IP is ('ip'), else nowhere. Country and province come from the maps
 * themselves; triggers count them per company (device_facets).
 */
export class Locator {
  private readonly waiting = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly repository: DashboardRepository,
    private readonly regions: MapRegions,
    private readonly ips: IpLocator,
    /** Resolves once the state reports received so far are written. */
    private readonly stateWritten: () => Promise<void>,
    private readonly log: LocatorLog,
    private readonly intervalMs = 1000,
  ) {}

  /** A report of this panel may have moved it. */
  touched(deviceId: number) {
    this.waiting.add(deviceId);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.running = this.run().finally(() => (this.running = undefined));
    }, this.intervalMs);
  }

  /** Places everything named so far (tests, shutdown). */
  async settle() {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.running;
    if (this.waiting.size) await this.run();
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async run() {
    const ids = [...this.waiting];
    this.waiting.clear();
    try {
      await this.stateWritten();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await this.repository.locationInputsForPanels(ids.slice(i, i + 500));
        const updates: LocationUpdate[] = [];
        for (const row of rows) {
          // One panel that cannot be placed must not keep the others off the map.
          const placed = await this.place(row).catch((err: unknown) => {
            this.log.error({ err, deviceId: row.id }, 'panel not placed on the map');
            return undefined;
          });
          if (placed && differs(row, placed)) updates.push(placed);
        }
        await this.repository.writeLocationsForPanels(updates);
      }
    } catch (err) {
      if (!isTransactionConflict(err))
        return this.log.error({ err, panels: ids.length }, 'panels not placed on the map');
      // Another instance wrote the same rows at once; nothing of this run was kept: place them again.
      this.log.warn({ err, panels: ids.length }, 'map placement met a conflicting write: tried again');
      for (const id of ids) this.touched(id);
    }
  }

  /** Where a panel is, by its position, else its public IP. */
  async place(row: LocationRow): Promise<LocationUpdate> {
    if (row.latitude !== null && row.longitude !== null) {
      const place = this.regions.placeOf(row.latitude, row.longitude);
      return {
        id: row.id,
        geo_source: 'gps',
        geo_latitude: row.latitude,
        geo_longitude: row.longitude,
        geo_country: place.country,
        geo_province: place.province,
      };
    }
    const found = row.public_ip ? await this.ips.locate(row.public_ip) : null;
    if (!found)
      return {
        id: row.id,
        geo_source: '',
        geo_latitude: null,
        geo_longitude: null,
        geo_country: '',
        geo_province: '',
      };
    const place = this.regions.placeOf(found.latitude, found.longitude);
    // A city on the coast may fall just outside the map's outline: its country code still names it.
    const province = place.province || geo.PROVINCE_OF_COUNTRY_CODE[found.countryCode] || '';
    const country =
      place.country || (province ? geo.WORLD_CHINA : (geo.WORLD_NAME_OF_ISO2[found.countryCode] ?? ''));
    return {
      id: row.id,
      geo_source: 'ip',
      geo_latitude: found.latitude,
      geo_longitude: found.longitude,
      geo_country: country,
      geo_province: province,
    };
  }
}

function differs(row: LocationRow, placed: LocationUpdate) {
  return (
    row.geo_source !== placed.geo_source ||
    row.geo_latitude !== placed.geo_latitude ||
    row.geo_longitude !== placed.geo_longitude ||
    row.geo_country !== placed.geo_country ||
    row.geo_province !== placed.geo_province
  );
}
