import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPanels, ruleOf } from './alerts-helpers.js';
import { backends, joinServer, readOutbox, signedIn, startServer, type TestServer } from './harness.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The text of a mail the outbox holds, its quoted-printable encoding undone. */
function mailText(server: TestServer, file: string): string {
  const raw = fs.readFileSync(path.join(server.dataDir, 'outbox', file), 'latin1').replace(/=\r?\n/g, '');
  const bytes = raw.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * Alert mail is grouped: one mail per recipient and batch window lists every alert raised and
 * cleared in it, in the recipient's language; a digest waits a day; with two instances each
 * change is raised and mailed once, and mail a stopped sender claimed is sent by the next.
 */
describe.each(backends)('alert mail on %s', (backend) => {
  let server: TestServer;
  let second: TestServer;
  const settings = { alerts: { evaluateEveryMs: HOUR, mailWindowMs: HOUR } };

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 }, ...settings },
    );
    second = await joinServer(server, {}, settings);
  });
  afterAll(async () => {
    await second.stop();
    await server.stop();
  });

  it('sends one mail per recipient listing 1,000 panels offline, once across two instances', async () => {
    const orgId = server.accounts.customerId;
    // operator1 last used the console in Chinese: their mail is in Chinese.
    const zh = await signedIn(server, 'operator1', 'operator123', 'zh-CN');
    expect((await zh.get('/alerts/count')).body).toMatchObject({ hhtStatus: 'success' });
    const customer = await signedIn(server, 'customer1', 'customer123');
    const [label] = await server.app.db.kysely
      .insertInto('labels')
      .values({ org_id: orgId, name: 'Storm', created_at: 0 })
      .returning('id')
      .execute();
    const panels = await insertPanels(server, orgId, 1000, 'STORM', {
      last_seen_at: server.clock.now() - HOUR,
    });
    for (let i = 0; i < panels.length; i += 200)
      await server.app.db.kysely
        .insertInto('label_devices')
        .values(
          panels.slice(i, i + 200).map((device_id) => ({ label_id: label!.id, device_id, org_id: orgId })),
        )
        .execute();
    await ruleOf(customer, {
      name: 'Storm watch',
      labelIds: [label!.id],
      condition: { kind: 'offline', minutes: 10 },
      channels: {
        emailUserIds: [server.accounts.userIds.operator1!],
        emailAddresses: ['noc@example.com', 'OPERATOR1@example.com'],
      },
    });
    const rounds = await Promise.all([server.app.alerts.evaluate(), second.app.alerts.evaluate()]);
    expect(rounds[0].raised + rounds[1].raised).toBe(1000);
    const sent = await Promise.all([server.app.alerts.sendMail(), second.app.alerts.sendMail()]);
    expect(sent[0] + sent[1]).toBe(2);
    const mails = readOutbox(server);
    expect(mails.map((m) => m.to).sort()).toEqual(['noc@example.com', 'operator1@example.com']);
    expect(mails.find((m) => m.to === 'noc@example.com')!.subject).toBe(
      'PanelFleet alerts: 1000 raised, 0 cleared',
    );
    expect(mails.find((m) => m.to === 'operator1@example.com')!.subject).toBe(
      'PanelFleet 告警：新增 1000 条，清除 0 条',
    );
    const text = mailText(server, mails.find((m) => m.to === 'noc@example.com')!.file);
    expect(text).toContain('[Major] Storm watch: STORM panel 999 (STORM-00999) · Riverside School');
    // Nothing new: nothing sent.
    expect((await server.app.alerts.sendMail()) + (await second.app.alerts.sendMail())).toBe(0);

    // The panels come back: one more mail each, listing them cleared.
    await server.app.db.kysely
      .updateTable('devices')
      .set({ last_seen_at: server.clock.now() })
      .where('id', 'in', panels.slice(0, 600))
      .execute();
    expect((await second.app.alerts.evaluate()).cleared).toBe(600);
    // A sender that claimed the mail and stopped: the next one sends it once the claim lapses.
    await server.app.db.kysely
      .updateTable('alert_mail_outbox')
      .set({ claimed_by: 'stopped-instance', claimed_until: server.clock.now() + MINUTE })
      .where('sent_at', 'is', null)
      .execute();
    expect(await server.app.alerts.sendMail()).toBe(0);
    server.clock.advance(MINUTE + 1);
    expect(await server.app.alerts.sendMail()).toBe(2);
    const cleared = readOutbox(server).slice(2);
    expect(cleared.map((m) => m.subject).sort()).toEqual([
      'PanelFleet alerts: 0 raised, 600 cleared',
      'PanelFleet 告警：新增 0 条，清除 600 条',
    ]);
  });

  it('gathers a digest rule into one mail a day', async () => {
    const orgId = server.accounts.customerId;
    const customer = await signedIn(server, 'customer1', 'customer123');
    const before = readOutbox(server).length;
    const [label] = await server.app.db.kysely
      .insertInto('labels')
      .values({ org_id: orgId, name: 'Digest', created_at: 0 })
      .returning('id')
      .execute();
    const panels = await insertPanels(server, orgId, 3, 'DIGEST', {
      last_seen_at: server.clock.now() - HOUR,
    });
    await server.app.db.kysely
      .insertInto('label_devices')
      .values(panels.map((device_id) => ({ label_id: label!.id, device_id, org_id: orgId })))
      .execute();
    await ruleOf(customer, {
      labelIds: [label!.id],
      condition: { kind: 'offline', minutes: 10 },
      channels: { emailAddresses: ['digest@example.com'], emailMode: 'digest' },
    });
    await server.app.alerts.evaluate();
    await server.app.alerts.sendMail();
    server.clock.advance(HOUR);
    await server.app.db.kysely
      .updateTable('devices')
      .set({ last_seen_at: server.clock.now() })
      .where('id', '=', panels[0]!)
      .execute();
    await server.app.alerts.evaluate();
    await server.app.alerts.sendMail();
    expect(
      readOutbox(server)
        .slice(before)
        .filter((m) => m.to === 'digest@example.com'),
    ).toEqual([]);
    server.clock.advance(DAY);
    await server.app.alerts.sendMail();
    const digests = readOutbox(server)
      .slice(before)
      .filter((m) => m.to === 'digest@example.com');
    expect(digests.map((m) => m.subject)).toEqual(['PanelFleet daily alert digest: 3 raised, 1 cleared']);
  });
});
