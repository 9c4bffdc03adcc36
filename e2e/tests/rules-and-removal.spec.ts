import { expect, test, type Page } from '@playwright/test';
import { apk, DEFAULT_PAGE_SIZE, device, logs } from '@panelfleet/contract';
import { switchLanguage } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Issue 25 items 10 and 13: removing a panel from the device list (keeping or deleting its
// history), the operation log of the platform and of a distributor, and no APK install button
// for a user type that may not install.
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-5).toUpperCase();

test.describe.configure({ mode: 'serial', timeout: 120_000 });
test.use({ viewport: { width: 1440, height: 900 } });

/** A panel enrolled into Riverside School with the company's secret; its serial. */
async function enrolledPanel(page: Page, serial: string) {
  const { dataObject } = await apiCall(page, url, device.getEnrollmentSecret, {});
  const enrolled = await page.request.post(`${url}/device/enroll`, {
    data: {
      v: 1,
      serial,
      enrollmentSecret: dataObject.enrollmentSecret,
      model: 'PF-86',
      machineType: 'x9_vn',
    },
  });
  expect(enrolled.ok()).toBe(true);
  return serial;
}

const rowOf = (page: Page, serial: string) =>
  page.getByTestId('device-list').locator('.ant-table-tbody .ant-table-row').filter({ hasText: serial });

async function findInList(page: Page, serial: string) {
  await page.getByTestId('list-search').fill(serial);
  await page.getByTestId('list-search-button').click();
}

for (const [language, keep] of [
  ['en-US', true],
  ['zh-CN', false],
] as const) {
  test(`removes a panel from the device list, history ${keep ? 'kept' : 'deleted'}, ${language}`, async ({
    page,
  }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    const serial = await enrolledPanel(page, `RM${keep ? 'K' : 'D'}-${run}`);
    await page.goto(`${url}/home/deviceManage`);
    await findInList(page, serial);
    await expect(rowOf(page, serial)).toHaveCount(1);
    await rowOf(page, serial).getByTestId('row-remove').click();
    const dialog = page.getByTestId('device-remove');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(serial);
    await expect(dialog).toContainText(language === 'en-US' ? 'Its history' : '历史记录');
    // Keeping the history is what the dialog offers first.
    await expect(dialog.getByRole('radio').first()).toBeChecked();
    await expect(dialog.getByRole('radio').nth(1)).not.toBeChecked();
    if (!keep) await dialog.getByTestId('device-remove-delete').click();
    await snapshot(page, `words-rules/remove-device-${keep ? 'keep' : 'delete'}-${language}`);
    await page.getByTestId('device-remove-ok').click();
    await expect(dialog).toBeHidden();
    const done = {
      'en-US': ['The panel was removed with its history', 'The panel was removed; its history is kept'],
      'zh-CN': ['设备及其历史记录已删除', '设备已移除，其历史记录已保留'],
    } as const;
    await expect(page.locator('.ant-message')).toContainText(done[language][keep ? 1 : 0]);
    await expect(rowOf(page, serial)).toHaveCount(0);
    const listed = await apiCall(page, url, device.listDevices, { start: 1, size: 10, deviceName: serial });
    expect(listed.listObject).toEqual([]);
  });
}

for (const account of [
  { userName: 'admin', password: 'admin123' },
  { userName: 'sales1', password: 'sales123' },
]) {
  test(`${account.userName} opens an operation log of its own actions from the menu, in both languages`, async ({
    page,
  }) => {
    await signIn(page, 'normal', account.userName, account.password, 'en-US');
    const mine = await apiCall(page, url, logs.listOperationLog, { start: 1, size: 50 });
    await page.locator('[data-menu="operationLog"]').click();
    await expect(page).toHaveURL(/\/home\/operationLog$/);
    const view = page.locator('[data-view="operationLog"]');
    await expect(view).toBeVisible();
    await expect(view.getByTestId('operation-content')).toHaveCount(
      Math.min(mine.listObject.length, DEFAULT_PAGE_SIZE),
    );
    // Its own organisation's actions (a private server's sync logs under the platform too), never
    // another organisation's users'.
    const others = ['admin', 'sales1', 'operator1', 'customer1'].filter((name) => name !== account.userName);
    for (const row of mine.listObject) expect(others).not.toContain(row.userName);
    await expect(view).toContainText('Operation log');
    await snapshot(page, `words-rules/operation-log-${account.userName}-en-US`);
    await switchLanguage(page, 'zh-CN');
    await expect(view).toContainText('操作日志');
    await snapshot(page, `words-rules/operation-log-${account.userName}-zh-CN`);
  });
}

test('a distributor sees application cards without an install button it could not use', async ({ page }) => {
  await signIn(page, 'normal', 'sales1', 'sales123', 'en-US');
  const cards = await apiCall(page, url, apk.listApkCards, { start: 1, size: 20 });
  await page.goto(`${url}/home/apkRenew`);
  await expect(page.getByTestId('apk-upload')).toBeVisible();
  await expect(page.getByTestId('apk-install-tasks')).toHaveCount(0);
  if (cards.listObject.length) {
    await page.getByTestId(`apk-card-${cards.listObject[0]!.packageName}`).click();
    await expect(page.getByTestId('apk-versions')).toBeVisible();
    await expect(page.locator('[data-testid^="apk-version-install-"]')).toHaveCount(0);
  }
  await snapshot(page, 'words-rules/apk-distributor-en-US');
});
