import type { Foundation } from '../../foundation.js';
import type { DeviceGateway } from '../../gateway/gateway.js';
import type { FleetScopes } from '../fleet-scope/service.js';
import { HistoryBackfill } from './backfill.js';
import { HistoryBackfillRepository } from './backfill-repository.js';
import { FacetFold } from './facet-fold.js';
import { FleetHistory, type OtaUpgradeSource } from './history.js';
import { HostStats } from './host-stats.js';
import { IpLocator } from './ip-location.js';
import { Locator } from './panel-locator.js';
import { MapRegions } from './regions.js';
import { DashboardRepository } from './repository.js';
import { dashboardRoutes } from './routes.js';
import { DashboardService } from './service.js';

export type { FleetHistory, Locator, OtaUpgradeSource };

export interface DashboardStack {
  history: FleetHistory;
  locator: Locator;
}

/** The dashboards: fleet history (sampled on one instance), the map, host figures. */
export function installDashboards(
  f: Foundation,
  needs: {
    gateway: DeviceGateway;
    scopes: FleetScopes;
    /** Where the dashboards count succeeded OTA installs (default: the OTA commands). */
    otaUpgrades?: OtaUpgradeSource;
  },
): DashboardStack {
  const { kysely, config, log, clock } = f;
  const { gateway } = needs;
  const presence = gateway.presenceIndex;
  const records = new DashboardRepository(kysely);
  const upgrades: OtaUpgradeSource = needs.otaUpgrades ?? {
    succeededPerCompany: (from, to) => records.otaCommandsSucceededAllCompanies(from, to),
  };
  const history = new FleetHistory(
    records,
    (orgId) => presence.onlineIn(orgId),
    upgrades,
    clock,
    config.history,
    log,
    f.jobs.runsHere('dashboard-history', config.history.sampleMs),
    new HistoryBackfill(new HistoryBackfillRepository(kysely)),
  );
  const locator = new Locator(
    records,
    MapRegions.load(),
    new IpLocator(config.ipLocationDb, log),
    () => gateway.flushState(),
    log,
  );
  dashboardRoutes(
    f.router,
    new DashboardService(
      records,
      needs.scopes,
      history,
      (orgId) => presence.onlineIn(orgId),
      gateway.isOnline,
      new HostStats(config.dataDir),
      clock,
    ),
  );
  gateway.setLocationSink((known) => locator.touched(known.id));
  history.start();
  const facetFold = new FacetFold(records, log);
  if (f.db.dialect === 'postgres') facetFold.start();
  f.http.addHook('onClose', async () => {
    locator.stop();
    await history.stop();
    await facetFold.stop();
  });
  return { history, locator };
}
