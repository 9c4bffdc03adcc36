import type { Base } from '../../foundation.js';
import { SessionRepository } from './repository.js';
import { SessionService } from './service.js';

export type { SessionService };

/** Console sessions; a session's end is published so every instance closes its event streams. */
export const installSessions = (f: Base) =>
  new SessionService(new SessionRepository(f.kysely), f.clock, f.secureCookies, (end) =>
    f.events.publish({ kind: 'sessionEnded', ...end }),
  );
