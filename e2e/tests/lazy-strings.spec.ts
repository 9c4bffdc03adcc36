import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { switchLanguage } from '../support/antd.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Issue 24 item 2: the strings of these screens load with them, not before the sign-in form. Each
// screen is opened by its address (a fresh start of the console, so nothing another screen loaded
// is there), read in both languages, and must show none of its families' keys raw.
const url = baseUrl('normal');
const PANEL = 'E2E-00001';
const root = path.resolve(import.meta.dirname, '../..');

/** The families that load with their screens: console and contract files, en-US (zh-CN: same keys). */
const FAMILY_FILES = [
  'apps/web/src/features/reports/locales/reports.en-US.json',
  'apps/web/src/features/apk/locales/apk.en-US.json',
  'apps/web/src/features/dashboards/locales/dashboard.en-US.json',
  'apps/web/src/features/certificate/locales/certificate.en-US.json',
  'apps/web/src/features/settings/locales/settings.en-US.json',
  'apps/web/src/features/devices/history/locales/panel-history.en-US.json',
  'apps/web/src/features/devices/list/locales/device-import.en-US.json',
  'apps/web/src/features/personal/apiTokens/locales/api-tokens.en-US.json',
  'apps/web/src/features/ota/locales/ota.en-US.json',
  'apps/web/src/features/alerts/locales/alerts.en-US.json',
  ...[
    'ota',
    'alerts',
    'reports',
    'apk',
    'dashboard',
    'certificate',
    'settings',
    'device-import',
    'device-csv',
    'api-tokens',
  ].map((name) => `packages/contract/src/i18n/${name}.en-US.json`),
];

function leafKeys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([key, value]) => leafKeys(value, prefix ? `${prefix}.${key}` : key));
}

const KEYS = [
  ...new Set(
    FAMILY_FILES.flatMap((file) => leafKeys(JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')))).map(
      (key) => key.replace(/_(one|other)$/, ''),
    ),
  ),
];

/** Keys of the families shown raw on the page (none when every string was loaded). */
const rawKeys = async (page: Page) => {
  const text = await page.locator('body').innerText();
  return KEYS.filter((key) => text.includes(key));
};

/**
 * Opens the screen by its address in each language (the language switch first: it sits under an
 * open dialog) and waits for it: no loading spinner left, and no raw key of the families.
 */
async function bothLanguages(page: Page, name: string, address: string, open: (page: Page) => Promise<void>) {
  for (const language of ['en-US', 'zh-CN'] as const) {
    await page.goto(`${url}${address}`);
    await expect(page).toHaveURL(new RegExp(address));
    if (language === 'zh-CN') await switchLanguage(page, 'zh-CN');
    await open(page);
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    expect(await rawKeys(page), `${name} ${language}`).toEqual([]);
    await snapshot(page, `lazy-strings-${name}-${language}`);
  }
  await page.goto(`${url}${address}`);
  await switchLanguage(page, 'en-US');
}

const shown = (page: Page) => expect(page.locator('.ant-table, .ant-card, form').first()).toBeVisible();

const SCREENS: Array<{ user: [string, string]; views: string[] }> = [
  {
    user: ['operator1', 'operator123'],
    views: ['setting', 'apk', 'personCenter', 'report', 'alerts', 'alertRules', 'webhooks', 'Map'],
  },
  { user: ['sales1', 'sales123'], views: ['certificate', 'otaLog', 'renew', 'warningMsg'] },
  { user: ['admin', 'admin123'], views: ['errorMsg', 'index1'] },
  { user: ['manager1', 'manager123'], views: ['abnormalLog'] },
  { user: ['customer1', 'customer123'], views: ['operationLog'] },
];

for (const { user, views } of SCREENS)
  for (const view of views)
    test(`${view} (${user[0]}) shows its strings in both languages when opened first`, async ({ page }) => {
      await signIn(page, 'normal', user[0], user[1], 'en-US');
      await bothLanguages(page, view, `/home/${view}`, shown);
    });

test('the device import and a panel history show their strings when the device screen is opened first', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await bothLanguages(page, 'device-import', '/home/deviceManage', async (p) => {
    await p.getByTestId('import-devices').click();
    await expect(p.getByTestId('import-modal')).toBeVisible();
  });
  await bothLanguages(page, 'panel-history', '/home/deviceManage', async (p) => {
    await p.getByTestId('list-search').fill(PANEL);
    await p.getByTestId('list-search-button').click();
    await p.getByTestId('device-list').getByTestId('device-name').filter({ hasText: PANEL }).click();
    await p.getByTestId('detail-tab-history').click();
    await expect(p.getByTestId('history-tab')).toBeVisible();
  });
});
