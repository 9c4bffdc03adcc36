import { expect, test, type Page } from '@playwright/test';
import { device } from '@panelfleet/contract';
import { switchLanguage } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Dynamic labels (issue 28 item 3) against the e2e server's simulated fleet (E2E-00001 ...
// E2E-00006 of Riverside School): a label made with the filter builder shows its live member
// count, is marked dynamic among the label chips, and a notification sent to it reaches the
// panels its filter matches.
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-4);
const FLEET = 6;
/** The label page lists 5 panels a page. */
const PAGE = 5;

test.describe.configure({ mode: 'serial' });

/** Screenshots without the 3-second notices of earlier steps on top. */
async function snapshotQuiet(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 8000 });
  await snapshot(page, name, options);
}

/** The labels page, once every panel of the fleet is online. */
async function openLabels(page: Page) {
  await page.goto(`${url}/home/deviceManage`);
  await expect(page.getByTestId('device-list')).toBeVisible();
  await expect
    .poll(
      async () =>
        (await apiCall(page, url, device.listDevices, { start: 1, size: 50 })).listObject.filter(
          (d) => d.deviceKey.startsWith('E2E-') && d.isOnline === '1',
        ).length,
      { timeout: 30_000 },
    )
    .toBe(FLEET);
  await page.getByTestId('tab-labels').click();
  await expect(page).toHaveURL(/\/home\/Labels$/);
  return page.getByTestId('labels-page');
}

test('makes a dynamic label with the filter builder and sends a notification to it', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  const labels = await openLabels(page);
  await labels.getByTestId('labels-new-dynamic').click();
  const modal = page.getByTestId('dynamic-label');
  await expect(modal.locator('.ant-modal-title')).toHaveText('New dynamic label');
  const count = modal.getByTestId('dynamic-label-count');
  await expect(count).toContainText('Fill in at least one condition');
  const name = `Online pair ${run}`;
  await modal.getByTestId('dynamic-label-name').fill(name);
  // The fleet's panels by serial number pattern, and online.
  await modal.getByTestId('dynamic-label-serial-pattern').fill('e2e-0000?');
  await expect(count).toHaveAttribute('data-count', String(FLEET));
  await expect(count).toContainText(`${FLEET} panels match`);
  await modal.getByTestId('dynamic-label-online').click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: 'Online' })
    .click();
  await expect(count).toHaveAttribute('data-count', String(FLEET));
  await snapshotQuiet(page, 'dynamic-label-builder-en-US');
  await modal.getByTestId('dynamic-label-ok').click();
  await expect(modal).toBeHidden();

  // The chip says the label is dynamic; its panels are the ones the filter matches.
  const chip = labels.getByTestId('label-chip').filter({ hasText: name });
  await expect(chip.getByTestId('label-chip-dynamic')).toHaveText('dynamic');
  await chip.click();
  const devices = labels.getByTestId('label-devices');
  await expect(devices.locator('.ant-table-tbody .ant-table-row')).toHaveCount(PAGE);
  await expect(labels.locator('.ant-pagination-item')).toHaveCount(2);
  await expect(labels.getByTestId('labels-edit-dynamic')).toBeVisible();
  await snapshotQuiet(page, 'dynamic-label-chips-en-US');

  // A notification to the dynamic label reaches every panel it matches.
  await page.locator('[data-menu="Broadcast"]').click();
  const broadcast = page.getByTestId('broadcast-page');
  await broadcast.getByTestId('broadcast-chip').filter({ hasText: name }).click();
  await expect(
    broadcast.getByTestId('broadcast-devices').locator('.ant-table-tbody .ant-table-row'),
  ).toHaveCount(PAGE);
  await broadcast.getByTestId('broadcast-send').click();
  const notice = page.getByTestId('notice-modal');
  await notice.getByTestId('notice-title').fill(`Dynamic ${run}`);
  await notice.getByTestId('notice-text').fill('Sent to a dynamic label.');
  await notice.getByTestId('notice-level-ordinary').click();
  await notice.getByTestId('notice-position-top').click();
  await notice.getByTestId('notice-send').click();
  await expect(notice).toBeHidden();
  const report = broadcast.getByTestId('broadcast-report');
  await expect(report).toContainText(`Dynamic ${run}`);
  await expect(report.getByTestId('notice-delivery-row')).toHaveCount(FLEET);
  await expect(report.getByTestId('notice-delivery-summary')).toHaveText(
    `Shown ${FLEET}, failed 0, waiting 0 (panels: ${FLEET})`,
    { timeout: 20_000 },
  );
  await snapshotQuiet(page, 'dynamic-label-broadcast-en-US');
});

test('the filter builder in Chinese, editing a dynamic label', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  const labels = await openLabels(page);
  await switchLanguage(page, 'zh-CN');
  await labels.getByTestId('labels-new-dynamic').click();
  const modal = page.getByTestId('dynamic-label');
  await expect(modal.locator('.ant-modal-title')).toHaveText('新建动态标签');
  const name = `一号 ${run}`;
  await modal.getByTestId('dynamic-label-name').fill(name);
  await modal.getByTestId('dynamic-label-serial-pattern').fill('E2E-00001');
  const count = modal.getByTestId('dynamic-label-count');
  await expect(count).toContainText('1 台设备符合条件');
  await snapshotQuiet(page, 'dynamic-label-builder-zh-CN');
  await modal.getByTestId('dynamic-label-ok').click();
  await expect(modal).toBeHidden();

  const chip = labels.getByTestId('label-chip').filter({ hasText: name });
  await expect(chip.getByTestId('label-chip-dynamic')).toHaveText('动态');
  await chip.click();
  await labels.getByTestId('labels-edit-dynamic').click();
  await expect(modal.locator('.ant-modal-title')).toHaveText('编辑动态标签');
  await expect(modal.getByTestId('dynamic-label-serial-pattern')).toHaveValue('E2E-00001');
  await modal.getByTestId('dynamic-label-serial-pattern').fill('E2E-0000?');
  await expect(count).toContainText(`${FLEET} 台设备符合条件`);
  await modal.getByTestId('dynamic-label-ok').click();
  await expect(modal).toBeHidden();
  const devices = labels.getByTestId('label-devices');
  await expect(devices.locator('.ant-table-tbody .ant-table-row')).toHaveCount(PAGE);
  await expect(labels.locator('.ant-pagination-item')).toHaveCount(2);
  await snapshotQuiet(page, 'dynamic-label-chips-zh-CN');
});
