import type { Foundation } from '../../foundation.js';
import { ReminderRepository, TipRepository } from './repository.js';
import { tipRoutes } from './routes.js';
import { TipService } from './service.js';

export type { TipService };

/** Error tips and reminders (the feedback log's tips, the OTA order's reminder). */
export function installTips(f: Foundation): TipService {
  const tips = new TipService({
    tips: new TipRepository(f.kysely),
    reminders: new ReminderRepository(f.kysely),
    log: f.operations,
    clock: f.clock,
  });
  tipRoutes(f.router, tips);
  return tips;
}
