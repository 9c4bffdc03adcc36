import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { accounts as accountCalls, dashboard, device, menuFor, type ShellUser } from '@panelfleet/contract';
import { apiCall } from '../support/api.js';
import { tokenHash } from '@panelfleet/server/tokens';
import { snapshot } from '../support/screenshots.js';

/**
 * `npm run demo` as the README tells a newcomer to run it, on an empty data folder: it prints
 * the accounts, each of them signs in with the printed password and opens every menu entry.
 * Run with E2E_DEMO=1 (playwright.config.ts): the demo listens on E2E_PORT_BASE.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
const port = Number(process.env.E2E_PORT_BASE ?? 18181);
const url = `http://127.0.0.1:${port}`;
const dataDir = path.resolve(import.meta.dirname, '../.data/demo');

const TYPES: Record<string, ShellUser> = {
  admin: { userType: '0', state: 1 },
  sales1: { userType: '1', state: 1 },
  customer1: { userType: '2', state: 1 },
  newcustomer: { userType: '2', state: 0 },
  manager1: { userType: '3', state: 1 },
  operator1: { userType: '4', state: 1 },
  approver1: { userType: '4', state: 1 },
  approver2: { userType: '4', state: 1 },
};

let demo: ChildProcess | undefined;
let banner = '';
const accounts = new Map<string, string>();

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  fs.rmSync(dataDir, { recursive: true, force: true });
  demo = spawn('npm', ['run', 'demo'], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), BASE_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    demo!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ctrl+C stops everything.')) resolve();
    });
    demo!.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    demo!.once('exit', (code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
  });
  banner = output.slice(output.lastIndexOf('PanelFleet demo: open'));
  // "  operator1    operator123    customer administrator of ..."
  for (const match of banner.matchAll(/^ {2}(\S+) +(\S+) +/gm)) accounts.set(match[1]!, match[2]!);
});

test.afterAll(() => {
  // The whole process group: npm, the demo server and its simulator.
  if (demo?.pid) process.kill(-demo.pid, 'SIGTERM');
});

async function signIn(page: Page, userName: string, language: 'en-US' | 'zh-CN') {
  await page.addInitScript((lang) => {
    if (!window.localStorage.getItem('language')) window.localStorage.setItem('language', lang);
  }, language);
  await page.goto(`${url}/login`);
  await page.getByTestId('captcha').waitFor();
  await page.locator('#username').fill(userName);
  await page.locator('#password').fill(accounts.get(userName)!);
  let answer: string | undefined;
  for (let attempt = 0; attempt < 50 && !answer; attempt++) {
    const cookie = (await page.context().cookies()).find((c) => c.name === 'pf_captcha');
    if (cookie) {
      const db = new Database(path.join(dataDir, 'panelfleet.db'), { readonly: true });
      const row = db.prepare('SELECT answer FROM captchas WHERE id = ?').get(tokenHash(cookie.value)) as
        { answer: string } | undefined;
      db.close();
      answer = row?.answer;
    }
    if (!answer) await page.waitForTimeout(100);
  }
  await page.locator('#tryCode').fill(answer!);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/home\//);
}

test('prints one banner with the URL and every demo account', () => {
  expect(banner).toContain(url);
  expect([...accounts.keys()].sort()).toEqual(Object.keys(TYPES).sort());
  expect(accounts.get('admin')).toBe('demo-admin1');
  expect(banner).toMatch(/labels: Classrooms \(12 panels\)/);
});

for (const userName of Object.keys(TYPES)) {
  test(`${userName} signs in with the printed password and opens every menu entry`, async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, userName, 'en-US');
    const menu = menuFor(TYPES[userName]!, { special: false });
    for (const view of menu) {
      await page.locator(`[data-menu="${view}"]`).first().click();
      await expect(page).toHaveURL(new RegExp(`/home/${view}$`));
      await expect(page.locator(`[data-view="${view}"]`)).toBeVisible();
      await expect(page.getByText(/page lost|Something went wrong/i)).toHaveCount(0);
    }
  });
}

for (const language of ['en-US', 'zh-CN'] as const) {
  test(`the demo's device list, labels and feedback log show real data (${language})`, async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, 'operator1', language);
    await page.goto(`${url}/home/deviceManage`);
    await expect(page.getByText('DEMO-00001', { exact: false }).first()).toBeVisible();
    await expect(page.getByText('Classrooms').first()).toBeVisible(); // the demo's labels, kept by the OTA demo
    await snapshot(page, `demo-device-list-${language}`);
    await page.goto(`${url}/home/Labels`);
    await page.getByText('Classrooms', { exact: true }).first().click();
    await expect(page.locator('.ant-table-row')).toHaveCount(5); // five a page
    await expect(page.getByText(language === 'en-US' ? '12 in total' : '共 12 条')).toBeVisible();
    await snapshot(page, `demo-labels-${language}`);
    await page.goto(`${url}/home/feedBack`);
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    await snapshot(page, `demo-feedback-${language}`);
  });
}

/** The rows of the table a screen shows (at least one). */
const hasRows = async (page: Page) => expect(page.locator('.ant-table-row').first()).toBeVisible();

test('every list the demo fills has rows: catalog, distributor, programs, users, panels', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // The platform: a salesperson, licences, the OTA version catalog.
  await signIn(page, 'admin', 'en-US');
  for (const view of ['saleMan', 'license', 'otaVersion']) {
    await page.goto(`${url}/home/${view}`);
    await hasRows(page);
    await snapshot(page, `demo-${view}`);
  }
  await page.context().clearCookies();

  // The distributor: its certificate, an app in its APK repository, an upgrade strategy.
  await signIn(page, 'sales1', 'en-US');
  await page.goto(`${url}/home/certificate`);
  await expect(page.getByText('North Sales panels').first()).toBeVisible();
  await snapshot(page, 'demo-certificate');
  await page.goto(`${url}/home/apkRenew`);
  await expect(page.getByTestId('apk-cards')).toContainText(/North Signage|com\.northsales\.signage/);
  await snapshot(page, 'demo-apk');
  await page.goto(`${url}/home/upgradeTactics`);
  await hasRows(page);
  await snapshot(page, 'demo-upgradeTactics');
  await page.context().clearCookies();

  // The company account: its console users, two of them approvers with program roles 1 and 2.
  await signIn(page, 'customer1', 'en-US');
  await page.goto(`${url}/home/customer`);
  await hasRows(page);
  const users = await apiCall(page, url, accountCalls.userList, { start: 1, size: 50 });
  expect(
    users.listObject
      .filter((u) => u.userName.startsWith('approver'))
      .map((u) => [u.userName, u.role])
      .sort(),
  ).toEqual([
    ['approver1', 1],
    ['approver2', 2],
  ]);
  await snapshot(page, 'demo-console-users');
  await page.context().clearCookies();

  // The customer administrator: programs and materials; panels on several kinds of network, at
  // several addresses, with weeks of run time.
  await signIn(page, 'operator1', 'en-US');
  for (const tab of ['program', 'materials']) {
    await page.goto(`${url}/home/Broadcast?tab=${tab}`);
    await hasRows(page);
    await snapshot(page, `demo-${tab}`);
  }
  const panels = (await apiCall(page, url, device.listDevices, { start: 1, size: 50 })).listObject;
  expect(new Set(panels.map((p) => p.netWorkState)).size).toBeGreaterThanOrEqual(3);
  expect(new Set(panels.map((p) => p.publicIp)).size).toBeGreaterThanOrEqual(3);
  await page.goto(`${url}/home/report`);
  await page.getByRole('tab', { name: 'Device run time report' }).click();
  await page.getByTestId('report-deviceTime').getByTestId('report-show-data').click();
  await expect(page.getByTestId('report-deviceTime').locator('.ant-table-row').first()).toBeVisible();
  await snapshot(page, 'demo-run-times');
  // Thirty panels in seven cities on the device map, at the size of a 1440x900 screen.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${url}/home/Map`);
  await expect(page.getByTestId('fleet-map')).toBeVisible();
  await snapshot(page, 'demo-map-world-1440');
  await page.getByTestId('fleet-map-toggle-china').click();
  await expect(page.getByTestId('fleet-map-china')).toBeVisible();
  // The China map counts the panels it shows; those in London and Mountain View are elsewhere.
  const located = (await apiCall(page, url, dashboard.mapDevices, {})).listObject;
  const abroad = located.filter((d) => d.longitude < 20).length; // London is at 0° and a bit east
  expect(abroad).toBeGreaterThan(0);
  await expect(page.getByTestId('fleet-map-elsewhere')).toHaveAttribute('data-value', String(abroad));
  await expect(page.getByTestId('fleet-map-located')).toHaveAttribute(
    'data-value',
    String(located.length - abroad),
  );
  await snapshot(page, 'demo-map-china-1440');
});
