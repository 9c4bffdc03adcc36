import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { switchLanguage } from '../support/antd.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl, servers } from '../support/servers.js';
import { signIn, waitForCaptcha } from '../support/session.js';

const url = baseUrl('normal');

for (const language of ['en-US', 'zh-CN'] as const) {
  test(`sign-in page shows the empty-field messages and the register and forgot links (${language})`, async ({
    page,
  }) => {
    await page.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
    await page.goto(`${url}/login`);
    await expect(page.getByTestId('register-link')).toBeVisible();
    await expect(page.getByTestId('forgot-link')).toBeVisible();
    await expect(page.locator('#tryCode')).toHaveAttribute('maxlength', '4');
    await page.getByTestId('login-submit').click();
    const messages =
      language === 'en-US'
        ? ['Please enter the user name', 'Please enter the password', 'Please enter the verification code']
        : ['请输入用户名', '请输入密码', '请输入验证码'];
    for (const message of messages) await expect(page.getByText(message)).toBeVisible();
    await snapshot(page, `sign-in-empty-${language}`);
  });
}

test('the sign-in page’s messages follow a language switch: field errors and the server’s refusal', async ({
  page,
}) => {
  await page.addInitScript(() => {
    if (!window.localStorage.getItem('language')) window.localStorage.setItem('language', 'zh-CN');
  });
  await page.goto(`${url}/login`);
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('请输入用户名')).toBeVisible();
  await switchLanguage(page, 'en-US');
  await expect(page.getByText('Please enter the user name')).toBeVisible();
  await expect(page.getByText('Please enter the verification code')).toBeVisible();
  await expect(page.getByText('请输入用户名')).toHaveCount(0);
  await snapshot(page, 'sign-in-empty-switched-en-US');

  const answer = await waitForCaptcha(page, 'normal');
  await page.locator('#username').fill('operator1');
  await page.locator('#password').fill('operator123');
  await page.locator('#tryCode').fill(answer === 'zzzz' ? 'yyyy' : 'zzzz');
  await page.getByTestId('login-submit').click();
  const refusal = page.getByTestId('login-refusal');
  await expect(refusal).toHaveText('The verification code is wrong');
  await switchLanguage(page, 'zh-CN');
  await expect(refusal).toHaveText('验证码错误');
  await snapshot(page, 'sign-in-refusal-switched-zh-CN');
  await switchLanguage(page, 'en-US');
  await expect(refusal).toHaveText('The verification code is wrong');
  await snapshot(page, 'sign-in-refusal-switched-en-US');
});

test('a wrong captcha shows why, clears the code and serves a new captcha', async ({ page }) => {
  await page.goto(`${url}/login`);
  const first = await waitForCaptcha(page, 'normal');
  await page.locator('#username').fill('operator1');
  await page.locator('#password').fill('operator123');
  await page.locator('#tryCode').fill(first === 'zzzz' ? 'yyyy' : 'zzzz');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('The verification code is wrong')).toBeVisible();
  await expect(page.locator('#tryCode')).toHaveValue('');
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(() => waitForCaptcha(page, 'normal')).not.toBe('');
  await snapshot(page, 'sign-in-wrong-captcha-en-US');
});

test('an expired session shows the login-timeout modal, then the sign-in page', async ({ page }) => {
  // The shell's own first reads (the header's personal info) finish before the session ends.
  const personal = page.waitForResponse((r) => /\/platform\/user\/select(\?|$)/.test(r.url()));
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await personal;
  const db = new Database(path.join(servers.normal.dataDir, 'panelfleet.db'));
  db.prepare(
    "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE user_name = 'operator1')",
  ).run();
  db.close();
  // Any request now meets the ended session: the reload's first ones, or a background read (the
  // alert bell's) that may already have shown the modal, which replaces the shell.
  await page.reload();
  const modal = page.getByTestId('login-timeout');
  await expect(modal).toBeVisible();
  await snapshot(page, 'login-timeout-en-US');
  await modal.getByRole('button').click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the header collapses the menu to 64 px, changes skin and language, and quits after confirmation', async ({
  page,
}) => {
  await signIn(page, 'normal', 'admin', 'admin123', 'en-US');
  const sider = page.locator('.ant-layout-sider');
  await expect(sider).toHaveCSS('width', '230px');
  await page.getByTestId('collapse-toggle').click();
  await expect(sider).toHaveCSS('width', '64px');
  await page.getByTestId('collapse-toggle').click();

  await page.getByTestId('skin-button').click();
  await page.locator('button[data-skin="green"]').click();
  await page.keyboard.press('Escape');
  await expect(page.locator('button[data-skin="green"]')).toBeHidden();
  expect(await page.evaluate(() => window.localStorage.getItem('skin'))).toBe('green');
  await page.getByTestId('lang-switch').hover();
  const chinese = page.locator('[data-lang="zh-CN"]');
  await chinese.waitFor({ state: 'visible' });
  await chinese.click();
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem('language'))).toBe('zh-CN');
  await expect(page.locator('[data-menu="license"]')).toHaveText('许可证管理');
  await page.reload();
  await expect(page.locator('[data-menu="license"]')).toHaveText('许可证管理');
  await snapshot(page, 'shell-green-zh-CN');

  await page.getByTestId('user-menu').click();
  await page.getByTestId('menu-quit').click();
  await page.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`${url}/home/license`);
  await expect(page.getByTestId('login-timeout')).toBeVisible();
});

test('a view of another user type redirects to the start view; unknown paths show the page-lost screen', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/license`);
  await expect(page).toHaveURL(/\/home\/index2$/);
  await page.goto(`${url}/no/such/page`);
  await expect(page.locator('[data-error="page"]')).toBeVisible();
  await snapshot(page, 'error-page-en-US');
});

test('the special deployment hides the logo and the register link and refuses other user types', async ({
  page,
}) => {
  await page.goto(`${baseUrl('special')}/login`);
  await expect(page.getByText('OTA Service Desk')).toBeVisible();
  await expect(page.getByTestId('logo')).toHaveCount(0);
  await page.locator('#username').fill('operator1');
  await page.locator('#password').fill('operator123');
  await page.locator('#tryCode').fill(await waitForCaptcha(page, 'special'));
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('This account may not sign in to this deployment')).toBeVisible();
  await snapshot(page, 'special-refused-en-US');
});
