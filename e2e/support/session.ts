import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { tokenHash } from '@panelfleet/server/tokens';
import { servers, baseUrl, type ServerName } from './servers.js';

/**
 * The answer of the captcha this browser is showing, read from the server's database (the
 * server has no back door for it): the row is keyed by the hash of the browser's cookie.
 */
export async function pendingCaptcha(page: Page, server: ServerName): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'pf_captcha');
  if (!cookie) throw new Error('the browser has no captcha cookie yet');
  const db = new Database(path.join(servers[server].dataDir, 'panelfleet.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT answer FROM captchas WHERE id = ?').get(tokenHash(cookie.value)) as
      { answer: string } | undefined;
    if (!row) throw new Error('no pending captcha for this browser');
    return row.answer;
  } finally {
    db.close();
  }
}

/** Waits until the captcha image has been served to this browser, then reads its answer. */
export async function waitForCaptcha(page: Page, server: ServerName): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      return await pendingCaptcha(page, server);
    } catch (error) {
      if (attempt === 49) throw error;
      await page.waitForTimeout(100);
    }
  }
  throw new Error('unreachable');
}

/** Signs in through the sign-in page as a person would and waits for the page it lands on. */
export async function signIn(
  page: Page,
  server: ServerName,
  userName: string,
  password: string,
  language?: 'zh-CN' | 'en-US',
  landing = /\/home\//,
) {
  if (language) {
    // Only when nothing is stored yet: a choice made in the page must survive reloads.
    await page.addInitScript((lang) => {
      if (!window.localStorage.getItem('language')) window.localStorage.setItem('language', lang);
    }, language);
  }
  await page.goto(`${baseUrl(server)}/login`);
  await page.getByTestId('captcha').waitFor();
  await page.locator('#username').fill(userName);
  await page.locator('#password').fill(password);
  await page.locator('#tryCode').fill(await waitForCaptcha(page, server));
  await page.getByTestId('login-submit').click();
  await page.waitForURL(landing);
}
