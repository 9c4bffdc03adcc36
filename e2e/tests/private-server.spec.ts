import { expect, test, type Browser, type Page } from '@playwright/test';
import { accounts } from '@panelfleet/contract';
import { apiCall } from '../support/api.js';
import { pickOption, switchLanguage } from '../support/antd.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// The private deployment (:18183, PLATFORM_URL = the normal server) is activated at /active with
// a server license the platform admin creates, reports to the platform (ServeList), expires and
// is re-activated. Each step is its own test; they run in order.
const platform = baseUrl('normal');
const privateServer = baseUrl('private');
const run = Date.now().toString(36).slice(-5);
const company = `Lakeside Hospital ${run}`;
/** The first license ends soon so that the test can watch the deployment expire. */
const FIRST_LICENSE_MS = 60_000;
const licenses = { first: '', second: '', firstEnds: 0 };

test.describe.configure({ mode: 'serial' });

async function platformAdmin(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  await signIn(page, 'normal', 'admin', 'admin123', 'en-US');
  await expect(page).toHaveURL(/\/home\/license$/);
  return page;
}

async function serverLicense(page: Page, validEndTime: number): Promise<string> {
  const now = Date.now();
  const sellers = await apiCall(page, platform, accounts.saleManList, {
    start: 1,
    size: 1,
    name: `Seller P${run}`,
  });
  let seller = sellers.listObject[0];
  if (!seller) {
    await apiCall(page, platform, accounts.saleManAdd, {
      work_number: `P${run}`,
      name: `Seller P${run}`,
      companyName: 'North Sales Ltd',
      phone: '+1-555-0101',
      jobState: 1,
    });
    seller = (
      await apiCall(page, platform, accounts.saleManList, { start: 1, size: 1, name: `Seller P${run}` })
    ).listObject[0];
  }
  if (!seller) throw new Error('the salesperson was not created');
  const reply = await apiCall(page, platform, accounts.licenseAdd, {
    companyName: company,
    saleName: seller.id,
    state: 1,
    validBeginTime: now - 60_000,
    validEndTime,
    type: 1,
  });
  return reply.dataObject.license;
}

/** Signs in on the private deployment: home when it is active, else (3004 or 3005) /active. */
async function signInToPrivate(page: Page) {
  await signIn(page, 'private', 'admin', 'admin123', 'en-US', /\/(home\/|active$)/);
}

test('the platform admin creates two server licenses', async ({ browser }) => {
  const page = await platformAdmin(browser);
  licenses.firstEnds = Date.now() + FIRST_LICENSE_MS;
  licenses.first = await serverLicense(page, licenses.firstEnds);
  licenses.second = await serverLicense(page, Date.now() + 365 * 24 * 3600_000);
  expect(licenses.first).not.toBe(licenses.second);
});

test('an unactivated private server sends sign-in to /active, which activates it with a countdown', async ({
  page,
}) => {
  await signInToPrivate(page);
  await expect(page).toHaveURL(/\/active$/);
  await expect(page.getByTestId('license-mode-firstActivation')).toBeVisible();
  await snapshot(page, 'server-license-first-en-US');

  await page.getByTestId('license-submit').click();
  await expect(page.getByText('Please enter the license')).toBeVisible();
  await page.getByTestId('license-input').fill('NOT-A-LICENSE');
  await page.getByTestId('license-submit').click();
  await expect(
    page
      .locator('.ant-message, .ant-notification')
      .getByText(/license/i)
      .first(),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/active$/);

  await switchLanguage(page, 'zh-CN');
  await expect(page.getByText('首次激活')).toBeVisible();
  await snapshot(page, 'server-license-first-zh-CN');
  await switchLanguage(page, 'en-US');

  await page.getByTestId('license-input').fill(licenses.first);
  await page.getByTestId('license-submit').click();
  const countdown = page.getByTestId('activation-countdown');
  await expect(countdown).toHaveText(/in 3 s|in 2 s/);
  await snapshot(page, 'server-license-countdown-en-US');
  await expect(countdown).toHaveText('Returning to sign-in in 1 s', { timeout: 5000 });
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });

  await signInToPrivate(page);
  await expect(page).toHaveURL(/\/home\/license$/);
  await page.goto(`${privateServer}/active`);
  await expect(page.getByText('This server is active. You can sign in.')).toBeVisible();
});

test('the platform lists the private server online and available, with search and sync', async ({
  browser,
}) => {
  const page = await platformAdmin(browser);
  await page.goto(`${platform}/home/ServeList`);
  const row = page.locator('.ant-table-row').filter({ hasText: company });
  await page.getByTestId('list-search').fill(company);
  await page.getByTestId('list-search-button').click();
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Online')).toBeVisible();
  await expect(row.getByTestId('server-state')).toHaveText('Available');
  await snapshot(page, 'server-list-en-US');
  await switchLanguage(page, 'zh-CN');
  await expect(row.getByTestId('server-state')).toHaveText('可用');
  await snapshot(page, 'server-list-zh-CN');
  await switchLanguage(page, 'en-US');

  await pickOption(page, page.getByTestId('server-online'), 'Offline');
  await page.getByTestId('list-search-button').click();
  await expect(row).toHaveCount(0);
  await pickOption(page, page.getByTestId('server-online'), 'Online');
  await page.getByTestId('list-search-button').click();
  await expect(row).toHaveCount(1);

  await page.getByTestId('server-sync').click();
  await expect(page.getByText(/Synchronised: \d+ available, \d+ expired/)).toBeVisible();
  await page.close();
});

test('after expiry sign-in asks for re-activation (3005), the platform lists it expired, a new license renews it', async ({
  page,
  browser,
}) => {
  test.setTimeout(FIRST_LICENSE_MS + 60_000);
  const wait = licenses.firstEnds - Date.now() + 1000;
  if (wait > 0) await page.waitForTimeout(wait);

  const admin = await platformAdmin(browser);
  await admin.goto(`${platform}/home/ServeList`);
  await admin.getByTestId('server-sync').click();
  await admin.getByTestId('list-search').fill(company);
  await admin.getByTestId('list-search-button').click();
  const row = admin.locator('.ant-table-row').filter({ hasText: company });
  await expect(row.getByTestId('server-state')).toHaveText('Expired');
  await snapshot(admin, 'server-list-expired-en-US');

  await signInToPrivate(page);
  await expect(page).toHaveURL(/\/active$/);
  await expect(page.getByTestId('license-mode-reactivation')).toBeVisible();
  await snapshot(page, 'server-license-renew-en-US');
  await switchLanguage(page, 'zh-CN');
  await expect(page.getByText('重新激活').first()).toBeVisible();
  await snapshot(page, 'server-license-renew-zh-CN');
  await switchLanguage(page, 'en-US');

  // A spent license cannot renew.
  await page.getByTestId('license-input').fill(licenses.first);
  await page.getByTestId('license-submit').click();
  await expect(page.getByTestId('activation-countdown')).toBeHidden();
  await page.getByTestId('license-input').fill(licenses.second);
  await page.getByTestId('license-submit').click();
  await expect(page.getByTestId('activation-countdown')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 6000 });
  await signInToPrivate(page);
  await expect(page).toHaveURL(/\/home\/license$/);

  await admin.getByTestId('server-sync').click();
  await admin.getByTestId('list-search-button').click();
  await expect(row.getByTestId('server-state')).toHaveText('Available');
  await admin.close();
});
