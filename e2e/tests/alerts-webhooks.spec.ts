import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { webhooks } from '@panelfleet/contract';
import { answerConfirm, switchLanguage } from '../support/antd.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Issue 26, the webhooks tab: an operator adds a webhook to a receiver on loopback (the e2e servers
// allow private receivers), copies its secret from the dialog that shows it once, sends a test
// event whose signature this test checks with its own HMAC, reads the delivery log, rotates the
// secret (the next delivery is signed with the new one only), and redelivers a delivery the
// receiver refused once it answers again.
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-4);
test.describe.configure({ mode: 'serial', timeout: 180_000 });

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver that records every request and answers `status`. */
async function receiver() {
  const received: Received[] = [];
  const state = { status: 200 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(state.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The signature header checked as a receiver would: `t=<s>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
function signedWith(secret: string, delivery: Received): boolean {
  const header = String(delivery.headers[webhooks.WEBHOOK_HEADERS.signature.toLowerCase()] ?? '');
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  if (!parts.t || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${delivery.body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const hookRow = (page: Page, name: string) => page.locator('.ant-table-row').filter({ hasText: name });

test('a webhook: secret shown once, signed test event, delivery log, rotation, redelivery', async ({
  page,
}) => {
  const sink = await receiver();
  try {
    await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
    await page.goto(`${url}/home/webhooks`);
    await expect(page.getByTestId('webhooks')).toBeVisible();
    const name = `Ops desk ${run}`;
    await page.getByTestId('webhook-add').click();
    const dialog = page.getByTestId('webhook-modal');
    await dialog.getByTestId('webhook-name').fill(name);
    await dialog.getByTestId('webhook-url').fill(sink.url);
    await dialog.getByText('Panel offline', { exact: true }).click();
    await page.getByTestId('webhook-modal-ok').click();

    // The secret, once, with a copy button.
    const secretBox = page.getByTestId('webhook-secret');
    await expect(secretBox).toBeVisible();
    const secret = (await secretBox.textContent()) ?? '';
    expect(secret.length).toBeGreaterThan(16);
    await snapshot(page, 'alerts-webhook-secret-en-US');
    await page.locator('.ant-modal').filter({ has: secretBox }).getByRole('button', { name: 'OK' }).click();
    await expect(secretBox).toBeHidden();
    const row = hookRow(page, name);
    await expect(row).toContainText(sink.url);

    // A test event reaches the receiver, signed with that secret.
    await row.getByTestId('webhook-test').click();
    await expect.poll(() => sink.received.length, { timeout: 30_000 }).toBe(1);
    const ping = sink.received[0]!;
    expect(JSON.parse(ping.body)).toMatchObject({ version: webhooks.WEBHOOK_VERSION, type: 'ping' });
    expect(signedWith(secret, ping)).toBe(true);

    // The delivery log says so: succeeded, HTTP 200.
    await row.getByTestId('webhook-deliveries').click();
    const drawer = page.getByTestId('webhook-delivery-log');
    const delivery = drawer.locator('.ant-table-row').first();
    await expect(delivery.getByTestId('delivery-state')).toHaveText('Succeeded', { timeout: 30_000 });
    await expect(delivery).toContainText('200');
    await snapshot(page, 'alerts-webhook-deliveries-en-US');
    await page.locator('.ant-drawer-close').click();
    await expect(drawer).toBeHidden();

    // A rotated secret signs the next delivery; the old one no longer does.
    await row.getByTestId('webhook-rotate').click();
    await answerConfirm(page, 'OK');
    await expect(secretBox).toBeVisible();
    const rotated = (await secretBox.textContent()) ?? '';
    expect(rotated).not.toBe(secret);
    await page.locator('.ant-modal').filter({ has: secretBox }).getByRole('button', { name: 'OK' }).click();
    await row.getByTestId('webhook-test').click();
    await expect.poll(() => sink.received.length, { timeout: 30_000 }).toBe(2);
    expect(signedWith(rotated, sink.received[1]!)).toBe(true);
    expect(signedWith(secret, sink.received[1]!)).toBe(false);

    // The receiver refuses: the log shows its status; redelivered once it answers, the same event arrives again.
    sink.state.status = 503;
    await row.getByTestId('webhook-test').click();
    await expect.poll(() => sink.received.length, { timeout: 30_000 }).toBe(3);
    const refusedId = JSON.parse(sink.received[2]!.body).id as string;
    await row.getByTestId('webhook-deliveries').click();
    await expect(delivery).toContainText('503', { timeout: 30_000 });
    await expect(delivery.getByTestId('delivery-state')).not.toHaveText('Succeeded');
    // Its attempts, each with the receiver's answer.
    await delivery.locator('.ant-table-row-expand-icon').click();
    await expect(drawer.getByTestId('delivery-attempts')).toContainText('503');
    await snapshot(page, 'alerts-webhook-attempts-en-US');
    sink.state.status = 200;
    await delivery.getByTestId('delivery-redeliver').click();
    // Sooner than its first automatic retry (30 s after the refusal): this arrival is the redelivery.
    await expect
      .poll(() => sink.received.some((r, i) => i > 2 && JSON.parse(r.body).id === refusedId), {
        timeout: 20_000,
      })
      .toBe(true);
    await drawer.getByTestId('delivery-filter-state').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'Succeeded' })
      .click();
    await expect(drawer.locator('.ant-table-row')).not.toHaveCount(0);
    await snapshot(page, 'alerts-webhook-redelivered-en-US');
    await page.locator('.ant-drawer-close').click();
    await expect(drawer).toBeHidden();

    // The same tab in Chinese.
    await switchLanguage(page, 'zh-CN');
    await expect(page.getByTestId('tab-webhooks')).toHaveText('Webhook');
    await expect(row.getByTestId('webhook-test')).toHaveText('发送测试');
    await snapshot(page, 'alerts-webhooks-zh-CN');

    await row.getByTestId('webhook-delete').click();
    await answerConfirm(page, '确 定');
    await expect(row).toHaveCount(0);
  } finally {
    await sink.close();
  }
});
