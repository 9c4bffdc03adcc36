import { expect, test, type Page } from '@playwright/test';
import { device, settings } from '@panelfleet/contract';
import { pickOption } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { enrollPanels } from '../support/enroll.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// "All N matching" (issue 28 item 4) on the device list: twelve x9_vn panels enrolled for the test
// (three pages of five), the first page ticked, "select all 12 matching" chosen, a template pushed;
// the push's results list all twelve, which are more than the page the browser had.
const url = baseUrl('normal');
const PANELS = 12;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const rows = (page: Page) => page.getByTestId('device-list').locator('.ant-table-tbody .ant-table-row');

// The panels enrolled here leave the company again, history and all: other specs count its panels.
test.afterEach(async ({ page }) => {
  const listed = await apiCall(page, url, device.listDevices, { start: 1, size: 100 });
  for (const panel of listed.listObject.filter((d) => /^AM(EN|ZH)-/.test(d.deviceKey)))
    await apiCall(page, url, device.removeDevice, { deviceId: panel.deviceId, keepHistory: '0' });
});

for (const [language, words] of [
  ['en-US', { prefix: 'AMEN', choose: `Select all ${PANELS} panels matching`, chosen: 'are selected' }],
  ['zh-CN', { prefix: 'AMZH', choose: `选择符合`, chosen: '已选择符合' }],
] as const) {
  test(`selects all panels matching across pages and pushes a setting to them (${language})`, async ({
    page,
  }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    await enrollPanels(page, url, words.prefix, PANELS);
    const template = await apiCall(page, url, settings.addSetting, { type: '0', series: 'x9_vn' });

    await page.goto(`${url}/home/deviceManage`);
    await expect(page.getByTestId('device-list')).toBeVisible();
    await page.getByTestId('list-search').fill(words.prefix.toLowerCase());
    await page.getByTestId('list-search-button').click();
    await expect(rows(page)).toHaveCount(5);

    // Ticking the page offers every panel matching, counted by the server.
    await page.getByTestId('device-list').locator('.ant-table-thead .ant-checkbox-input').check();
    const choose = page.getByTestId('all-matching-choose');
    await expect(choose).toHaveAttribute('data-count', String(PANELS));
    await expect(choose).toContainText(words.choose);
    await snapshot(page, `all-matching-offer-${language}`);
    await choose.click();
    await expect(page.getByTestId('all-matching-chosen')).toContainText(words.chosen);
    await expect(page.getByTestId('push-setting')).toContainText(`(${PANELS})`);
    // Labels are edited on ticked panels only: not offered for "all matching".
    await expect(page.getByTestId('edit-labels')).toBeDisabled();
    await snapshot(page, `all-matching-chosen-${language}`);

    // Another page shows ticked too: the selection is the filter, not the page.
    await page.getByTestId('device-list').locator('.ant-pagination-item-3').click();
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).locator('.ant-checkbox-input:checked')).toHaveCount(2);

    await page.getByTestId('push-setting').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('push-setting-choice') });
    await pickOption(page, dialog.getByTestId('push-setting-choice'), `x9_vn`);
    await snapshot(page, `all-matching-push-${language}`);
    await page.getByTestId('push-setting-ok').click();

    const result = page.getByTestId('push-result');
    await expect(result).toBeVisible();
    await expect(result.getByTestId('push-count-offline')).toHaveAttribute('data-count', String(PANELS));
    await expect(result.locator('.ant-pagination-total-text, .ant-pagination')).toBeVisible();
    // Every panel of the filter is in the results, page after page.
    const keys = new Set<string>();
    const listed = result.locator('.ant-table-tbody .ant-table-row');
    for (let pageNo = 1; pageNo <= 3; pageNo++) {
      const shown = pageNo > 1 ? await listed.first().getAttribute('data-device-key') : null;
      if (pageNo > 1) await result.locator(`.ant-pagination-item-${pageNo}`).click();
      await expect(listed.first()).toBeVisible();
      // The page is read once its rows replaced the previous page's (they load after the click).
      if (shown) await expect(listed.first()).not.toHaveAttribute('data-device-key', shown);
      for (const key of await listed.evaluateAll((els) => els.map((e) => e.getAttribute('data-device-key'))))
        if (key) keys.add(key);
    }
    expect([...keys].sort()).toEqual(
      Array.from({ length: PANELS }, (_, i) => `${words.prefix}-${String(i + 1).padStart(3, '0')}`),
    );
    await snapshot(page, `all-matching-result-${language}`);
    // The pushed template was this test's, and the push reached no panel outside the filter.
    expect(template.id).toBeGreaterThan(0);
  });
}
