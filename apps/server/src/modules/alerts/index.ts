import { everyOnOneInstance, type Foundation } from '../../foundation.js';
import type { FleetScopes } from '../fleet-scope/service.js';
import type { Mailer } from '../mail/mailer.js';
import { AlertChanges, type AlertWebhooks } from './changes.js';
import { AlertEvaluationRepository } from './evaluation-repository.js';
import { AlertEvaluator } from './evaluator.js';
import { AlertLifecycleRepository } from './lifecycle-repository.js';
import { AlertMailSender } from './mail.js';
import { AlertMailRepository } from './mail-repository.js';
import { AlertRepository } from './repository.js';
import { alertRoutes } from './routes.js';
import { AlertRuleService } from './rule-service.js';
import { AlertService } from './service.js';

export type { AlertWebhooks };

export interface AlertSettings {
  /** How often the rules are evaluated (on one instance). */
  evaluateEveryMs: number;
  /** The grouped mail's batch window: one mail per recipient per window. */
  mailWindowMs: number;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = { evaluateEveryMs: 5000, mailWindowMs: 60_000 };

export interface AlertStack {
  /** One evaluation round now (tests, benchmarks). */
  evaluate(): Promise<{ raised: number; cleared: number }>;
  /** Sends the mail waiting now (tests). */
  sendMail(): Promise<number>;
}

/** Runs `run` on the lease's instance, never twice at once on this one. */
function leased(f: Foundation, job: string, everyMs: number, run: () => Promise<unknown>, failure: string) {
  let busy = false;
  everyOnOneInstance(
    f,
    job,
    everyMs,
    async () => {
      if (busy) return;
      busy = true;
      try {
        await run();
      } finally {
        busy = false;
      }
    },
    failure,
  );
}

/**
 * Alerts (issue 26): an organisation's rules, their periodic evaluation under a lease, the
 * alerts' lifecycle, the bell's live events, grouped mail through an outbox, webhooks when the
 * webhooks module is given, the export.
 */
export function installAlerts(
  f: Foundation,
  needs: {
    scopes: FleetScopes;
    /**
     * The gateway's presence: who is online, and when it saw an offline panel go away (before that
     * panel's batched last-seen write lands).
     */
    presence: {
      isOnline: (deviceKey: string) => boolean;
      offlineSince?: (deviceKey: string) => number | undefined;
    };
    mailer: Mailer;
    webhooks?: AlertWebhooks;
    settings?: Partial<AlertSettings>;
  },
): AlertStack {
  const settings = { ...DEFAULT_ALERT_SETTINGS, ...needs.settings };
  const repository = new AlertRepository(f.kysely, f.db.dialect);
  const lifecycle = new AlertLifecycleRepository(f.kysely);
  const outbox = new AlertMailRepository(f.kysely, f.db.dialect);
  const changes = new AlertChanges({
    events: f.events,
    clock: f.clock,
    log: f.log,
    repository,
    outbox,
    webhooks: needs.webhooks,
  });
  const evaluator = new AlertEvaluator({
    rules: repository,
    evaluation: new AlertEvaluationRepository(f.kysely, f.db.dialect),
    lifecycle,
    changes,
    clock: f.clock,
    isOnline: needs.presence.isOnline,
    ...(needs.presence.offlineSince ? { offlineSince: needs.presence.offlineSince } : {}),
  });
  const sender = new AlertMailSender({
    outbox,
    repository,
    mailer: needs.mailer,
    clock: f.clock,
    owner: f.jobs.owner,
    baseUrl: f.config.baseUrl,
    log: f.log,
  });
  const languages = new Map<number, string>();
  const seen = (userId: number, language: string) => {
    if (languages.get(userId) === language) return;
    languages.set(userId, language);
    repository.rememberLanguage(userId, language).catch((err: unknown) => {
      languages.delete(userId);
      f.log.error({ err, userId }, 'could not keep the user language for alert mail');
    });
  };
  alertRoutes(
    f.router,
    new AlertRuleService({
      repository,
      lifecycle,
      changes,
      scopes: needs.scopes,
      webhooks: needs.webhooks,
      clock: f.clock,
      log: f.operations,
    }),
    new AlertService({
      repository,
      lifecycle,
      changes,
      scopes: needs.scopes,
      clock: f.clock,
      log: f.operations,
    }),
    f.clock,
    seen,
  );
  leased(f, 'alerts.evaluate', settings.evaluateEveryMs, () => evaluator.round(), 'alert evaluation failed');
  leased(f, 'alerts.mail', settings.mailWindowMs, () => sender.run(), 'alert mail failed');
  return { evaluate: () => evaluator.round(), sendMail: () => sender.run() };
}
