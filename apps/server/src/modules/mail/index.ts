import path from 'node:path';
import type { Base } from '../../foundation.js';
import { outboxMailer, smtpMailer, type Mailer } from './mailer.js';

export type { Mailer };

/** SMTP when configured; otherwise messages are written to DATA_DIR/outbox. */
export const openMailer = (f: Base): Mailer =>
  f.config.smtpUrl
    ? smtpMailer(f.config.smtpUrl)
    : outboxMailer(path.join(f.config.dataDir, 'outbox'), f.log);
