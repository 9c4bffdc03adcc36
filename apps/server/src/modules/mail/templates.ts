import { translate, type Language } from '@panelfleet/contract';
import type { MailMessage } from './mailer.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function render(
  language: Language,
  to: string,
  keys: { subject: string; body: string },
  link: string,
  vars: Record<string, string>,
): MailMessage {
  const subject = translate(language, keys.subject, vars);
  const body = translate(language, keys.body, vars);
  return {
    to,
    subject,
    link,
    text: `${body}\n\n${link}\n`,
    html: `<p>${escape(body)}</p><p><a href="${escape(link)}">${escape(link)}</a></p>`,
  };
}

export const activationMail = (language: Language, to: string, userName: string, link: string) =>
  render(language, to, { subject: 'mail.activation.subject', body: 'mail.activation.body' }, link, {
    userName,
  });

export const resetMail = (language: Language, to: string, userName: string, link: string) =>
  render(language, to, { subject: 'mail.reset.subject', body: 'mail.reset.body' }, link, { userName });
