import { expect, test, type Page } from '@playwright/test';
import { device, settings } from '@panelfleet/contract';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { enrollPanels } from '../support/enroll.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// "All N matching" in a panel picker (issue 28 item 4): twelve x9_vn panels enrolled for the test
// in one label; the settings page's terminal list ticks the label and every listed panel (three
// pages of five), then "all 12 panels of the label"; the push sends the label as a filter and its
// results list all twelve. The panels and the template leave again; the label (no call removes a
// label) is found by name and reused, empty, by the next run.
const url = baseUrl('normal');
const PANELS = 12;
const LABEL = 'Picker all matching';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let templateId = 0;
test.afterEach(async ({ page }) => {
  const listed = await apiCall(page, url, device.listDevices, { start: 1, size: 100 });
  for (const panel of listed.listObject.filter((d) => /^PM(EN|ZH)C?-/.test(d.deviceKey)))
    await apiCall(page, url, device.removeDevice, { deviceId: panel.deviceId, keepHistory: '0' });
  if (templateId) await apiCall(page, url, settings.deleteSetting, { id: templateId });
  templateId = 0;
});

/** Enrolls PANELS panels of series x9_vn whose serials start with `prefix`, in the test's label. */
async function enrollLabelled(page: Page, prefix: string) {
  await enrollPanels(page, url, prefix, PANELS);
  const listed = await apiCall(page, url, device.listDevices, { start: 1, size: 100, deviceName: prefix });
  const ids = listed.listObject.filter((d) => d.deviceKey.startsWith(`${prefix}-`)).map((d) => d.deviceId);
  expect(ids).toHaveLength(PANELS);
  const groups = await apiCall(page, url, device.listGroups, {});
  const label =
    groups.listObject.find((g) => g.groupName === LABEL) ??
    (await apiCall(page, url, device.insertGroup, { groupName: LABEL })).dataObject;
  await apiCall(page, url, device.saveGroupsAndDevices, {
    deviceIds: ids.join(','),
    groupIds: String(label.groupId),
  });
}

for (const [language, words] of [
  ['en-US', { prefix: 'PMEN', choose: `Select all ${PANELS} panels of ${LABEL}`, chosen: 'are selected' }],
  ['zh-CN', { prefix: 'PMZH', choose: `选择 ${LABEL} 的全部 ${PANELS} 台设备`, chosen: '已选择' }],
] as const) {
  test(`selects all panels of a label in the terminal list and pushes a setting to them (${language})`, async ({
    page,
  }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    await enrollLabelled(page, words.prefix);
    templateId = (await apiCall(page, url, settings.addSetting, { type: '0', series: 'x9_vn' })).id;

    await page.goto(`${url}/home/setting`);
    const row = page.locator('.ant-table-row', {
      has: page.locator(`[data-testid="setting-open"][data-id="${templateId}"]`),
    });
    await row.getByTestId('setting-push').click();
    const terminals = page.getByTestId('terminal-list');
    await terminals.locator(`[data-label="${LABEL}"]`).click();
    await expect(terminals.locator('.ant-table-row')).toHaveCount(5);
    // Ticking the label chose its twelve; the header box keeps every page chosen and offers the filter.
    await terminals.locator('.ant-table-thead input[type="checkbox"]').check();
    const choose = terminals.getByTestId('terminal-all-matching-choose');
    await expect(choose).toHaveAttribute('data-count', String(PANELS));
    await expect(choose).toContainText(words.choose);
    await snapshot(page, `picker-matching-offer-${language}`);
    await choose.click();
    await expect(terminals.getByTestId('terminal-all-matching-chosen')).toContainText(words.chosen);
    await snapshot(page, `picker-matching-chosen-${language}`);

    const sent = page.waitForRequest((r) => r.url().includes(settings.sendSetting.path));
    await page.getByTestId('terminal-list-ok').click();
    // The call names the label, never the panels the browser listed.
    const body = (await sent).postDataJSON() as Record<string, unknown>;
    expect(body.deviceIds).toBeUndefined();
    expect(body.matching).toMatchObject({ tagIds: [expect.any(Number)] });

    const result = page.getByTestId('push-result');
    await expect(result).toBeVisible();
    await expect(result.getByTestId('push-count-offline')).toHaveAttribute('data-count', String(PANELS));
    const keys = new Set<string>();
    for (let pageNo = 1; pageNo <= 3; pageNo++) {
      if (pageNo > 1) await result.locator(`.ant-pagination-item-${pageNo}`).click();
      const listed = result.locator('.ant-table-tbody .ant-table-row');
      await expect(listed.first()).toBeVisible();
      for (const key of await listed.evaluateAll((els) => els.map((e) => e.getAttribute('data-device-key'))))
        if (key) keys.add(key);
    }
    expect([...keys].sort()).toEqual(
      Array.from({ length: PANELS }, (_, i) => `${words.prefix}-${String(i + 1).padStart(3, '0')}`),
    );
    await snapshot(page, `picker-matching-result-${language}`);
  });
}

// The device list's commands go to "all matching" only: the menu is offered once chosen, and a
// restart reaches every panel of the filter (twelve, more than the page of five in view).
for (const [language, words] of [
  ['en-US', { prefix: 'PMENC', restart: 'Restart', sent: `Sent to ${PANELS} panels` }],
  ['zh-CN', { prefix: 'PMZHC', restart: '重启', sent: `已发送给 ${PANELS} 台设备` }],
] as const) {
  test(`restarts all panels matching the device list's filter (${language})`, async ({ page }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    await enrollLabelled(page, words.prefix);
    await page.goto(`${url}/home/deviceManage`);
    const list = page.getByTestId('device-list');
    await expect(list).toBeVisible();
    await page.getByTestId('list-search').fill(words.prefix.toLowerCase());
    await page.getByTestId('list-search-button').click();
    await expect(list.locator('.ant-table-tbody .ant-table-row')).toHaveCount(5);
    await expect(page.getByTestId('matching-commands')).toBeDisabled();
    await list.locator('.ant-table-thead .ant-checkbox-input').check();
    await page.getByTestId('all-matching-choose').click();
    await expect(page.getByTestId('all-matching-chosen')).toBeVisible();
    await page.getByTestId('matching-commands').click();
    await page.getByRole('menuitem', { name: words.restart }).click();
    await snapshot(page, `device-list-matching-restart-${language}`);
    const sent = page.waitForRequest((r) => r.url().includes(device.sendCommandToMatching.path));
    await page.locator('.ant-modal-confirm .ant-btn-primary').click();
    expect((await sent).postDataJSON()).toMatchObject({
      order: '03',
      matching: { deviceName: words.prefix.toLowerCase() },
    });
    await expect(page.locator('.ant-message')).toContainText(words.sent);
    await snapshot(page, `device-list-matching-sent-${language}`);
  });
}
