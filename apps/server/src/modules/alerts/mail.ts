import { translate, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { MailMessage, Mailer } from '../mail/mailer.js';
import { asLanguage } from './changes.js';
import type { AlertMailRepository, OutboxRow } from './mail-repository.js';
import type { AlertListRow, AlertRepository } from './repository.js';

const DAY = 86_400_000;
/** How long a sender holds the rows it claimed before another may take them. */
const CLAIM_MS = 5 * 60_000;
/** Lines one mail lists at most; the rest are counted. */
const MAX_LINES = 2000;
/** Sent rows are kept this long. */
const KEEP_SENT_MS = 7 * DAY;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One alert as a line of a mail, in the recipient's language. */
export function alertLine(language: Language, row: AlertListRow): string {
  const vars = JSON.parse(row.detail_vars) as Record<string, string | number>;
  if (typeof vars.metric === 'string') vars.metric = translate(language, `alert.mail.metric.${vars.metric}`);
  const detail = translate(language, row.detail_key, vars);
  const severity = translate(language, `alert.mail.severity.${row.severity}`);
  const subject =
    row.device_key && row.device_key !== row.subject_name
      ? `${row.subject_name} (${row.device_key})`
      : row.subject_name;
  const company = row.company_name ? ` · ${row.company_name}` : '';
  return `[${severity}] ${row.rule_name}: ${subject}${company} — ${detail}`;
}

/** The grouped mail (or the digest) of one recipient: every alert raised and cleared since the last. */
export function groupedMail(
  language: Language,
  to: string,
  digest: boolean,
  raised: AlertListRow[],
  cleared: AlertListRow[],
  link: string,
): MailMessage {
  const vars = { raised: raised.length, cleared: cleared.length };
  const subject = translate(language, digest ? 'alert.mail.digestSubject' : 'alert.mail.subject', vars);
  const sections: Array<{ title: string; lines: string[] }> = [];
  let budget = MAX_LINES;
  for (const [key, rows] of [
    ['alert.mail.raised', raised],
    ['alert.mail.cleared', cleared],
  ] as const) {
    if (!rows.length) continue;
    const shown = rows.slice(0, Math.max(0, budget));
    budget -= shown.length;
    const lines = shown.map((r) => alertLine(language, r));
    if (shown.length < rows.length)
      lines.push(translate(language, 'alert.mail.more', { count: rows.length - shown.length }));
    sections.push({ title: translate(language, key, { count: rows.length }), lines });
  }
  const intro = translate(language, 'alert.mail.intro');
  const text = [
    intro,
    '',
    ...sections.flatMap((s) => [s.title, ...s.lines.map((l) => `- ${l}`), '']),
    link,
    '',
  ].join('\n');
  const html =
    `<p>${escape(intro)}</p>` +
    sections
      .map(
        (s) => `<h3>${escape(s.title)}</h3><ul>${s.lines.map((l) => `<li>${escape(l)}</li>`).join('')}</ul>`,
      )
      .join('') +
    `<p><a href="${escape(link)}">${escape(link)}</a></p>`;
  return { to, subject, text, html, link };
}

interface Log {
  error(obj: object, message: string): void;
}

/**
 * Sends the alert mail waiting in the outbox: one mail per recipient and kind (grouped, digest)
 * listing every change claimed. Runs under a lease; the claim in the database keeps each mail
 * from being sent twice if two runs ever meet, and a sender that stopped leaves its rows to the next.
 */
export class AlertMailSender {
  constructor(
    private readonly deps: {
      outbox: AlertMailRepository;
      repository: AlertRepository;
      mailer: Mailer;
      clock: Clock;
      owner: string;
      baseUrl: string;
      log: Log;
    },
  ) {}

  async run(): Promise<number> {
    const { outbox, repository, mailer, clock, owner } = this.deps;
    const now = clock.now();
    const claimed = await outbox.claim(owner, now, now + CLAIM_MS, now - DAY);
    if (!claimed.length) return 0;
    const groups = new Map<string, OutboxRow[]>();
    for (const row of claimed) {
      const key = `${row.recipient.toLowerCase()}\n${row.language}\n${row.digest}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const alerts = new Map<number, AlertListRow>();
    const ids = [...new Set(claimed.map((r) => r.alert_id))];
    for (let i = 0; i < ids.length; i += 500)
      for (const a of await repository.alertsById(ids.slice(i, i + 500))) alerts.set(a.id, a);
    let sent = 0;
    for (const rows of groups.values()) {
      const first = rows[0]!;
      const pick = (change: OutboxRow['change']) => [
        ...new Map(
          rows
            .filter((r) => r.change === change && alerts.has(r.alert_id))
            .map((r) => [r.alert_id, alerts.get(r.alert_id)!]),
        ).values(),
      ];
      const message = groupedMail(
        asLanguage(first.language),
        first.recipient,
        first.digest === 1,
        pick('raised'),
        pick('cleared'),
        `${this.deps.baseUrl}/alerts`,
      );
      try {
        await mailer.send(message);
        await outbox.sent(
          owner,
          rows.map((r) => r.id),
          clock.now(),
        );
        sent++;
      } catch (err) {
        this.deps.log.error({ err, to: first.recipient }, 'alert mail could not be sent; it is tried again');
        await outbox.release(
          owner,
          rows.map((r) => r.id),
        );
      }
    }
    await outbox.prune(now - KEEP_SENT_MS);
    return sent;
  }
}
