import { expect, test, type Browser, type Page } from '@playwright/test';
import crypto from 'node:crypto';
import { TOTP } from 'otpauth';
import { accounts } from '@panelfleet/contract';
import { answerConfirm } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn, waitForCaptcha } from '../support/session.js';

// Issue 29: a local user enrols a second factor in the personal centre, signs in with it (the code
// computed here, as an authenticator app would), and ends another session from the personal centre.
const url = baseUrl('normal');
const PASSWORD = 'twofactor123';

const md5 = (text: string) => crypto.createHash('md5').update(text).digest('hex');
const codeOf = (secret: string, at: number) =>
  new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });

async function newUser(browser: Browser, language: 'en-US' | 'zh-CN') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, 'normal', 'customer1', 'customer123', language);
  const userName = `tf${language.slice(0, 2)}${Date.now().toString(36)}`;
  await apiCall(page, url, accounts.insertUser, {
    userName,
    password: md5(PASSWORD),
    phone: '13800138000',
    email: `${userName}@example.com`,
    state: 1,
    role: 0,
    userType: '4',
  });
  await context.close();
  return userName;
}

/** The company's user quota is shared by every spec: the user made here goes again at the end. */
async function removeUser(browser: Browser, userName: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, 'normal', 'customer1', 'customer123', 'en-US');
  const found = await apiCall(page, url, accounts.userList, { start: 1, size: 10, userName });
  for (const user of found.listObject.filter((u) => u.userName === userName))
    await apiCall(page, url, accounts.deleteUser, { userId: user.userId });
  await context.close();
}

async function passwordStep(page: Page, userName: string, language: 'en-US' | 'zh-CN') {
  await page.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
  await page.goto(`${url}/login`);
  await page.getByTestId('captcha').waitFor();
  await page.locator('#username').fill(userName);
  await page.locator('#password').fill(PASSWORD);
  await page.locator('#tryCode').fill(await waitForCaptcha(page, 'normal'));
  await page.getByTestId('login-submit').click();
}

for (const language of ['en-US', 'zh-CN'] as const) {
  test(`second factor: enrol, sign in with a code, end another session (${language})`, async ({
    browser,
  }) => {
    const userName = await newUser(browser, language);
    try {
      await enrolSignInAndEnd(browser, userName, language);
    } finally {
      await removeUser(browser, userName);
    }
  });
}

async function enrolSignInAndEnd(browser: Browser, userName: string, language: 'en-US' | 'zh-CN') {
  const chinese = language === 'zh-CN';

  // Enrol in the personal centre.
  const deskContext = await browser.newContext();
  const desk = await deskContext.newPage();
  await signIn(desk, 'normal', userName, PASSWORD, language);
  await desk.goto(`${url}/home/personCenter`);
  await desk.getByTestId('second-factor-setup').click();
  await expect(desk.getByTestId('enrol-qr')).toBeVisible();
  const secret = (await desk.getByTestId('enrol-secret').innerText()).trim();
  await snapshot(desk, `second-factor-enrol-${language}`);
  await desk.getByTestId('enrol-code').fill(codeOf(secret, Date.now()));
  await desk.getByTestId('enrol-confirm').click();
  await expect(desk.getByTestId('recovery-codes')).toBeVisible();
  await expect(desk.getByTestId('recovery-codes').locator('pre')).toHaveText(
    /^([a-z0-9]{5}-[a-z0-9]{5}\n?){10}$/,
  );
  await snapshot(desk, `second-factor-recovery-codes-${language}`);
  await desk.getByTestId('recovery-codes-done').click();
  await expect(desk.getByTestId('second-factor-state')).toHaveText(chinese ? /已开启/ : /On/);

  // Sign in elsewhere: the password, then the code (of the next 30-second step: the enrolment's is spent).
  const laptopContext = await browser.newContext();
  const laptop = await laptopContext.newPage();
  await passwordStep(laptop, userName, language);
  await expect(laptop.getByTestId('second-step')).toBeVisible();
  await laptop.getByTestId('second-step-code').fill('000000');
  await laptop.getByTestId('second-step-submit').click();
  await expect(laptop.getByTestId('second-step-refusal')).toHaveText(chinese ? /验证码错误/ : /wrong/);
  await snapshot(laptop, `second-factor-sign-in-${language}`);
  await laptop.getByTestId('second-step-code').fill(codeOf(secret, Date.now() + 30_000));
  await laptop.getByTestId('second-step-submit').click();
  await laptop.waitForURL(/\/home\//);

  // The desk sees both sessions and ends the laptop's.
  await desk.reload();
  const sessions = desk.getByTestId('sessions-card');
  await expect(sessions.locator('tbody tr')).toHaveCount(2);
  await expect(sessions).toContainText(chinese ? '密码 + 双重验证' : 'Password + second factor');
  await snapshot(desk, `sessions-${language}`, { fullPage: true });
  await sessions.getByTestId('session-end').click();
  await answerConfirm(desk, chinese ? '确 定' : 'OK');
  await expect(sessions.locator('tbody tr')).toHaveCount(1);
  const ended = await laptop.request.get(`${url}/platform/user/select/userType`, {
    headers: { Accept: 'application/json' },
  });
  expect(((await ended.json()) as { status?: number }).status).toBe(518);

  await deskContext.close();
  await laptopContext.close();
}
