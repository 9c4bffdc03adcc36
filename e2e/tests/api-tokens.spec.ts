import { expect, test } from '@playwright/test';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// API tokens (issue 28 item 1), in both languages: a customer administrator makes a read token in
// the personal centre, the test calls the API with it (a read works, a write outside the scope is
// refused in the envelope, in the caller's language), revokes it in the page, and is refused.
const url = baseUrl('normal');

const TEXTS = {
  'en-US': { outOfScope: /scope \(read\) does not allow this call/, invalid: /unknown, revoked, expired/ },
  'zh-CN': { outOfScope: /范围（read）不允许此调用/, invalid: /API 令牌无效/ },
} as const;

for (const language of ['en-US', 'zh-CN'] as const) {
  test(`an API token made, used, refused outside its scope and revoked (${language})`, async ({
    page,
    request,
  }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    await page.goto(`${url}/home/personCenter`);
    const section = page.getByTestId('api-tokens');
    await section.scrollIntoViewIfNeeded();
    await expect(section.getByTestId('api-reference-link')).toHaveAttribute('href', '/api-reference');
    await section.getByTestId('api-token-new').click();
    const name = `e2e script ${language}`;
    await page.getByTestId('api-token-name').fill(name);
    await page.getByTestId('api-token-scope-read').click();
    await snapshot(page, `api-token-create-${language}`);
    await page.getByTestId('api-token-submit').click();
    const secret = page.getByTestId('api-token-secret');
    await expect(secret).toHaveText(/^pf_[A-Za-z0-9_-]{43}$/);
    const token = (await secret.textContent())!.trim();
    await snapshot(page, `api-token-shown-once-${language}`);
    await page.getByTestId('api-token-done').click();
    await expect(page.getByTestId('api-token-secret')).toHaveCount(0);
    const row = section.locator('.ant-table-row').filter({ hasText: name });
    await expect(row.getByTestId('api-token-state')).toHaveText(language === 'en-US' ? 'Active' : '有效');
    // The list never shows the token again, only its first characters.
    await expect(section).not.toContainText(token);

    const headers = { authorization: `Bearer ${token}`, 'accept-language': language };
    const read = await request.get(`${url}/platform/device/list`, { headers });
    expect(read.status()).toBe(200);
    const list = (await read.json()) as { hhtStatus: string; listObject: Array<{ deviceKey: string }> };
    expect(list.hhtStatus).toBe('success');
    expect(list.listObject.length).toBeGreaterThan(0);
    const write = await request.post(`${url}/platform/group/insert`, {
      headers,
      form: { groupName: 'not by a read token' },
    });
    expect(write.status()).toBe(403);
    const refused = (await write.json()) as { hhtStatus: string; hhtMsg: string; hhtMsgKey: string };
    expect(refused).toMatchObject({ hhtStatus: 'fail', hhtMsgKey: 'apiToken.outOfScope' });
    expect(refused.hhtMsg).toMatch(TEXTS[language].outOfScope);

    await page.reload();
    const used = page.getByTestId('api-tokens').locator('.ant-table-row').filter({ hasText: name });
    await expect(used).toContainText('127.0.0.1');
    await snapshot(page, `api-token-list-${language}`, { fullPage: true });
    await used.getByTestId('api-token-revoke').click();
    await page.getByTestId('api-token-revoke-ok').click();
    await expect(used.getByTestId('api-token-state')).toHaveText(language === 'en-US' ? 'Revoked' : '已吊销');
    await snapshot(page, `api-token-revoked-${language}`, { fullPage: true });

    const after = await request.get(`${url}/platform/device/list`, { headers });
    expect(after.status()).toBe(401);
    const ended = (await after.json()) as { hhtStatus: string; hhtMsg: string; hhtMsgKey: string };
    expect(ended).toMatchObject({ hhtStatus: 'fail', hhtMsgKey: 'apiToken.invalid' });
    expect(ended.hhtMsg).toMatch(TEXTS[language].invalid);
  });
}

test('the API reference renders in the browser from the server alone, with each call’s token scopes', async ({
  page,
}) => {
  const foreign: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(url)) foreign.push(r.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${url}/api-reference`);
  await expect(page.locator('.swagger-ui .info .title')).toContainText('PanelFleet API');
  await page.locator('h3.opblock-tag[data-tag="devices"]').click();
  await page.locator('.opblock-summary-path[data-path="/platform/device/list"]').click();
  await expect(page.locator('.opblock-description-wrapper').first()).toContainText(
    'API tokens of scope read, operate, manage',
  );
  await snapshot(page, 'api-reference', { fullPage: false });
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});
