import type { Foundation } from '../../foundation.js';
import type { DeviceRepository } from '../devices/repository.js';
import { PANEL_HISTORY_JOB_MS, PanelHistoryJob } from './job.js';
import { PanelHistoryRepository } from './repository.js';
import { panelHistoryRoutes } from './routes.js';
import { PanelHistoryService } from './service.js';

export type { PanelHistoryService, PanelHistoryJob };

/**
 * Each panel's history (issue 27 item 5): the gateway's state writer records the changes
 * (gateway/history-repository.ts); here they are read, folded per hour and trimmed by a leased job.
 */
export function installPanelHistory(
  f: Foundation,
  needs: { devices: DeviceRepository },
): { service: PanelHistoryService; job: PanelHistoryJob } {
  const service = new PanelHistoryService(
    new PanelHistoryRepository(f.kysely),
    needs.devices,
    f.clock,
    f.config.panelHistory,
  );
  panelHistoryRoutes(f.router, service);
  const job = new PanelHistoryJob(service, f.jobs.runsHere('panel-history', PANEL_HISTORY_JOB_MS), f.log);
  job.start();
  f.http.addHook('onClose', () => job.stop());
  return { service, job };
}
