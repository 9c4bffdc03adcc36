import { expect, test, type Page } from '@playwright/test';
import { device, settings } from '@panelfleet/contract';
import { apiCall } from '../support/api.js';
import { switchLanguage } from '../support/antd.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Issue 25, items 4 and 9: a panel picker means the panels the user sees as chosen and says how
// many before sending; the OTA screens each have their own URL, breadcrumb, banner and tab.
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-5);
const LABEL = `Picker ${run}`;
const X9_KEYS = ['E2E-00003', 'E2E-00006'];

async function fleet(page: Page) {
  const list = await apiCall(page, url, device.listDevices, { start: 1, size: 50 });
  return list.listObject.filter((d) => d.deviceKey.startsWith('E2E-'));
}

async function signInOperator(page: Page, language: 'en-US' | 'zh-CN') {
  await signIn(page, 'normal', 'operator1', 'operator123', language);
  await expect.poll(async () => (await fleet(page)).length, { timeout: 30_000 }).toBe(6);
}

test('a settings push: ticking a label chooses its panels, the count says how many and which are left out', async ({
  page,
}) => {
  await signInOperator(page, 'en-US');
  const panels = await fleet(page);
  const group = (await apiCall(page, url, device.insertGroup, { groupName: LABEL })).dataObject;
  await apiCall(page, url, device.saveGroupsAndDevices, {
    deviceIds: panels.map((d) => d.deviceId).join(','),
    groupIds: String(group.groupId),
  });
  const template = await apiCall(page, url, settings.addSetting, { type: '0', series: 'x9_vn' });
  await page.goto(`${url}/home/setting`);
  const push = page
    .locator('.ant-table-row', {
      has: page.locator(`[data-testid="setting-open"][data-id="${template.id}"]`),
    })
    .getByTestId('setting-push');
  const terminals = page.getByTestId('terminal-list');
  const count = terminals.getByTestId('terminal-count');
  const row = (key: string) => terminals.locator('.ant-table-row', { hasText: key });

  for (const language of ['en-US', 'zh-CN'] as const) {
    if (language === 'zh-CN') await switchLanguage(page, 'zh-CN');
    await push.click();
    await terminals.locator(`[data-testid="terminal-label"][data-label="${LABEL}"]`).click();
    // The label's six panels are listed, 5 a page; the two x9_vn panels the template fits (one on
    // each page) are chosen at once, and the header box says every page is chosen.
    await expect(terminals.locator('.ant-pagination-total-text')).toHaveText(/\b6\b/);
    await expect(row(X9_KEYS[0]!).locator('input[type="checkbox"]')).toBeChecked();
    await expect(
      terminals.locator(
        'input[data-testid="terminal-all-panels"], [data-testid="terminal-all-panels"] input',
      ),
    ).toBeChecked();
    await expect(count).toHaveText(
      language === 'en-US'
        ? `2 panels in ${LABEL}; 4 listed cannot take it (greyed out)`
        : `${LABEL} 中的 2 台面板；列出的 4 台不适用（灰色）`,
    );
    await snapshot(page, `panel-picker-terminal-${language}`);
    // One unticked by itself: the count says so.
    await row(X9_KEYS[0]!).locator('input[type="checkbox"]').uncheck();
    await expect(count).toHaveText(
      language === 'en-US'
        ? `1 of 2 panels in ${LABEL}; 4 listed cannot take it (greyed out)`
        : `${LABEL} 中 2 台面板里的 1 台；列出的 4 台不适用（灰色）`,
    );
    // The header box: every panel that can take it on every page, again.
    await terminals.getByTestId('terminal-all-panels').click();
    await expect(count).toHaveAttribute('data-count', '2');
    await terminals.locator('.ant-pagination-item-2').click();
    await expect(row(X9_KEYS[1]!).locator('input[type="checkbox"]')).toBeChecked();
    await terminals.locator('.ant-pagination-item-1').click();
    await terminals.getByTestId('terminal-all-panels').click();
    await expect(count).toHaveAttribute('data-count', '0');
    // Unticking the label leaves nothing chosen.
    await terminals.locator(`[data-testid="terminal-label"][data-label="${LABEL}"]`).click();
    await expect(terminals.locator('.ant-table-row')).toHaveCount(0);
    await expect(count).toHaveCount(0);
    await terminals.locator('.ant-modal-footer button').first().click();
    await expect(terminals).toBeHidden();
  }
  await switchLanguage(page, 'en-US');
});

test('the task list opens at /taskList with its own breadcrumb; OTA versions have their own banner', async ({
  page,
}) => {
  await signInOperator(page, 'en-US');
  for (const language of ['en-US', 'zh-CN'] as const) {
    if (language === 'zh-CN') await switchLanguage(page, 'zh-CN');
    const words =
      language === 'en-US'
        ? { tasks: 'Task list', versions: /OTA versions/, types: /machine types/ }
        : { tasks: '任务列表', versions: /OTA 版本/, types: /机型/ };
    await page.goto(`${url}/taskList`);
    await expect(page).toHaveURL(/\/home\/renew$/);
    await expect(page.locator('.ant-tabs-tab-active')).toHaveText(words.tasks);
    await expect(page.getByTestId('breadcrumbs').locator('[data-crumb="renew"]')).toHaveText(words.tasks);
    await snapshot(page, `ota-task-list-breadcrumb-${language}`);

    await page.goto(`${url}/home/otaVersion`);
    const banner = page.getByTestId('catalog-read-only');
    await expect(banner).toHaveText(words.versions);
    await expect(banner).not.toHaveText(words.types);
    await snapshot(page, `ota-versions-banner-${language}`);
    await page.goto(`${url}/home/machineManage`);
    await expect(banner).toHaveText(words.types);
  }
  await switchLanguage(page, 'en-US');
});

test("a distributor's menu entries of OTA management each open their own tab", async ({ page }) => {
  await signIn(page, 'normal', 'sales1', 'sales123', 'en-US');
  // Menu entry, the tab it opens.
  const entries = [
    ['upgradeTactics', 'sub-view-upgradeTactics'],
    ['apkRenew', 'sub-view-apkRenew'],
    ['otaPromote', 'tab-ota-files'],
  ] as const;
  for (const language of ['en-US', 'zh-CN'] as const) {
    if (language === 'zh-CN') await switchLanguage(page, 'zh-CN');
    for (const [view, tab] of entries) {
      await page.locator(`.ant-menu [data-menu="${view}"]`).click();
      await expect(page).toHaveURL(new RegExp(`/home/${view}$`));
      await expect(page.locator('.ant-tabs-tab-active').getByTestId(tab)).toBeVisible();
      await expect(page.locator(`.ant-menu-item-selected [data-menu="${view}"]`)).toBeVisible();
      await snapshot(page, `distributor-menu-${view}-${language}`);
    }
  }
  await switchLanguage(page, 'en-US');
});
