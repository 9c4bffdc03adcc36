import fs from 'node:fs';
import path from 'node:path';
import { servers, baseUrl, type ServerName } from './servers.js';

interface OutboxEntry {
  to: string;
  subject: string;
  link?: string;
  file: string;
}

function entries(server: ServerName): OutboxEntry[] {
  const index = path.join(servers[server].dataDir, 'outbox', 'index.jsonl');
  if (!fs.existsSync(index)) return [];
  return fs
    .readFileSync(index, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboxEntry);
}

/** The link of the newest mail to `to` whose subject matches, as a path on the test server. */
export async function mailedLink(server: ServerName, to: string, subject: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const found = entries(server)
      .filter((e) => e.to === to && subject.test(e.subject) && e.link)
      .at(-1);
    if (found?.link) {
      const url = new URL(found.link);
      return `${baseUrl(server)}${url.pathname}${url.search}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

export const mailCount = (server: ServerName, to: string) =>
  entries(server).filter((e) => e.to === to).length;
