import type { Foundation } from '../../foundation.js';
import { ReportRepository } from './repository.js';
import { reportRoutes } from './routes.js';
import { ReportService } from './service.js';

export function installReports(f: Foundation): void {
  reportRoutes(
    f.router,
    new ReportService(new ReportRepository(f.kysely, f.db.dialect, f.db.longReads), f.clock),
    f.clock,
  );
}
