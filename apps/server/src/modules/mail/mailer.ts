import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the mail is about, written to the log when mail goes to the outbox. */
  link?: string;
}

/** Where mail goes: an SMTP server, or the outbox folder when none is set up (SMTP_URL empty). */
export type MailDelivery = 'smtp' | 'outbox';

export interface Mailer {
  readonly delivery: MailDelivery;
  send(message: MailMessage): Promise<void>;
}

/**
 * The key of a "mail sent" message as it is true for the deployment: `key` when an SMTP server
 * took the mail, `<key>Outbox` ("… was written to the server's outbox folder") when none is set up.
 */
export const mailSentKey = (delivery: MailDelivery, key: string) =>
  delivery === 'outbox' ? `${key}Outbox` : key;

export const MAIL_FROM = 'PanelFleet <no-reply@panelfleet.local>';

/** Real SMTP through nodemailer when SMTP_URL is set. */
export function smtpMailer(smtpUrl: string, from = MAIL_FROM): Mailer {
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  return {
    delivery: 'smtp',
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
  };
}

/**
 * Without SMTP, each message is rendered by nodemailer (as it would be sent) into one .eml file
 * in DATA_DIR/outbox, and its link is logged, so a fresh install works and tests can follow links.
 */
export function outboxMailer(outboxDir: string, log: FastifyBaseLogger, from = MAIL_FROM): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  fs.mkdirSync(outboxDir, { recursive: true });
  let sequence = 0;
  return {
    delivery: 'outbox',
    async send(message) {
      const info = await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      const name = `${Date.now()}-${process.pid}-${++sequence}.eml`;
      await fs.promises.writeFile(path.join(outboxDir, name), info.message as Buffer);
      const entry = { to: message.to, subject: message.subject, link: message.link, file: name };
      await fs.promises.appendFile(path.join(outboxDir, 'index.jsonl'), JSON.stringify(entry) + '\n');
      log.info(entry, 'mail written to the outbox');
    },
  };
}
