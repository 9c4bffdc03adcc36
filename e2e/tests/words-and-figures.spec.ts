import { expect, test, type Page } from '@playwright/test';
import { dashboard, device, reports } from '@panelfleet/contract';
import { switchLanguage } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Issue 25: the screens tell the truth in words and figures. Against the e2e server's simulated
// panels of Riverside School (six weeks of usage reported at start): the operation log in words in
// both languages, the device detail's network card and time zone, dashboards whose history comes
// from the stored data and whose empty charts say so, and reports that offer the data's own days.
// Each screen is pictured at 1366 and 1440 px in both languages (e2e/screenshots).
const url = baseUrl('normal');
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const WIDTHS = [
  { width: 1366, height: 800 },
  { width: 1440, height: 900 },
] as const;

/** Pictures of the screen at both widths, in the language it shows. */
async function pictures(page: Page, name: string, language: string) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await snapshot(page, `${name}-${size.width}-${language}`);
  }
  await page.setViewportSize(WIDTHS[0]);
}

async function panels(page: Page) {
  const list = await apiCall(page, url, device.listDevices, { start: 1, size: 50 });
  return list.listObject.filter((d) => d.deviceKey.startsWith('E2E-'));
}

test('the operation log says what happened in words, in the language chosen', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  const [first, second] = await panels(page);
  await apiCall(page, url, device.sendCommandByDeviceId, {
    deviceId: first!.deviceId,
    order: '00',
    value: '42',
  });
  const label = `Words ${Date.now().toString(36).slice(-4)}`;
  const made = await apiCall(page, url, device.insertGroup, { groupName: label });
  await apiCall(page, url, device.saveGroupsAndDevices, {
    deviceIds: `${first!.deviceId},${second!.deviceId}`,
    groupIds: String(made.dataObject.groupId),
  });
  await apiCall(page, url, device.sendCommandByTagIds, {
    tagIds: String(made.dataObject.groupId),
    order: '07',
    value: '1',
  });

  await page.context().clearCookies();
  await signIn(page, 'normal', 'customer1', 'customer123', 'en-US');
  await page.goto(`${url}/home/operationLog`);
  const content = page.getByTestId('operation-content');
  await expect(
    content.filter({ hasText: `${first!.deviceName} (${first!.deviceKey}): Brightness 42` }),
  ).toBeVisible();
  await expect(content.filter({ hasText: `${label}: Mute on, 2 panels` })).toBeVisible();
  await expect(
    content.filter({ hasText: `Labels of ${first!.deviceName}, ${second!.deviceName}: ${label}` }),
  ).toBeVisible();
  await expect(
    page.getByTestId('operation-type').filter({ hasText: 'Remote command' }).first(),
  ).toBeVisible();
  await expect(page.getByTestId('operation-type').filter({ hasText: 'Label command' }).first()).toBeVisible();
  // No codes, ids or JSON: every type has a name, no content is a dump.
  for (const text of await page.getByTestId('operation-type').allTextContents())
    expect(text).not.toMatch(/^[a-z]+[A-Z.]/);
  for (const text of await content.allTextContents()) expect(text).not.toMatch(/[{}]|"\w+":/);
  await pictures(page, 'operation-log', 'en-US');

  await switchLanguage(page, 'zh-CN');
  await expect(
    content.filter({ hasText: `${first!.deviceName} (${first!.deviceKey})：亮度 42` }),
  ).toBeVisible();
  await expect(content.filter({ hasText: `${label}：静音 开，2 台设备` })).toBeVisible();
  await expect(page.getByTestId('operation-type').filter({ hasText: '远程控制' }).first()).toBeVisible();
  await pictures(page, 'operation-log', 'zh-CN');
});

test('the device detail shows the MAC address, netmask and time zone the panel reports', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/deviceManage`);
  await expect
    .poll(async () => (await panels(page)).filter((d) => d.isOnline === '1').length, {
      timeout: 30_000,
    })
    .toBe(6);
  const key = 'E2E-00002';
  await page.getByTestId('list-search').fill(key);
  await page.getByTestId('list-search-button').click();
  await page.getByTestId('device-list').getByTestId('device-name').filter({ hasText: key }).click();
  const modal = page.getByTestId('device-detail');
  await expect(modal.getByTestId('detail-mac')).toHaveText(/^02:50:46:[0-9a-f]{2}:[0-9a-f]{2}:[0-9a-f]{2}$/);
  await expect(modal.getByTestId('detail-netmask')).toHaveText('255.255.0.0');
  await expect(modal.getByTestId('detail-time-zone')).toHaveText('UTC+08:00 (upgrade windows apply in it)');
  await expect(modal.getByText('MAC address')).toBeVisible();
  await pictures(page, 'device-detail-fields', 'en-US');
  // The language switch is in the header, behind the modal: close it, switch, open it again.
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  await switchLanguage(page, 'zh-CN');
  await page.getByTestId('device-list').getByTestId('device-name').filter({ hasText: key }).click();
  await expect(modal.getByTestId('detail-time-zone')).toHaveText('UTC+08:00（升级时间窗按此时区执行）');
  await expect(modal.getByText('子网掩码')).toBeVisible();
  await pictures(page, 'device-detail-fields', 'zh-CN');
});

test('Dashboard A draws the usage the panels reported for past days', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US', /\/home\/index2/);
  // The panels sent six weeks of screen time when they connected: the history has it, day by day.
  await expect
    .poll(
      async () => {
        const now = Date.now();
        const today = now - (now % 86_400_000);
        const history = await apiCall(page, url, dashboard.history, {
          period: 'day',
          startTime: today - 13 * 86_400_000,
          endTime: today + 86_400_000,
        });
        return history.listObject.filter((p) => p.time < today && p.screenOnMs > 0).length;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(5);
  await page.reload();
  await expect(page.getByTestId('chart-usage')).toBeVisible();
  await expect(page.getByTestId('chart-usage')).not.toHaveAttribute('data-empty', 'true');
  const figures = (await apiCall(page, url, dashboard.previewCustomerDevice, {})).dataObject;
  const busiest = Math.max(1, ...figures.mapDataCN.map((r) => r.value));
  await expect(page.locator('[data-scale-max]')).toHaveAttribute('data-scale-max', String(busiest));
  await pictures(page, 'dashboard-a', 'en-US');
  await switchLanguage(page, 'zh-CN');
  await expect(page.getByTestId('chart-usage')).toBeVisible();
  await pictures(page, 'dashboard-a', 'zh-CN');
});

test('Dashboard B says which gauges have no data instead of drawing a needle', async ({ page }) => {
  await signIn(page, 'normal', 'manager1', 'manager123', 'en-US', /\/home\/index1/);
  // Panels report no disk: that gauge says so.
  await expect(page.getByTestId('gauge-disk')).toHaveAttribute('data-empty', 'true');
  await expect(page.getByTestId('gauge-disk')).toContainText('No data yet');
  await pictures(page, 'dashboard-b', 'en-US');
  await switchLanguage(page, 'zh-CN');
  await expect(page.getByTestId('gauge-disk')).toContainText('暂无数据');
  await pictures(page, 'dashboard-b', 'zh-CN');
});

test('the device map is pictured at both widths in both languages', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/Map`);
  await expect(page.getByTestId('fleet-map')).toBeVisible();
  await page.getByTestId('fleet-map-toggle-china').click();
  await expect(page.getByTestId('fleet-map-china')).toBeVisible();
  await pictures(page, 'device-map', 'en-US');
  await switchLanguage(page, 'zh-CN');
  await expect(page.getByTestId('fleet-map-china')).toBeVisible();
  await pictures(page, 'device-map', 'zh-CN');
});

test('a report offers the days its data span and shows them in one click', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/report`);
  await page.getByRole('tab', { name: 'Device run time report' }).click();
  const panel = page.getByTestId('report-deviceTime');
  const range = (
    await apiCall(page, url, reports.reportDataRange, {
      report: 'deviceTime',
      timeZone: await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    })
  ).dataObject;
  expect(range.firstDay).not.toBeNull();
  await expect(panel.getByTestId('report-data-range-deviceTime')).toContainText(
    `Data from ${range.firstDay} to ${range.lastDay}.`,
  );
  await panel.getByTestId('report-show-data').click();
  await expect(panel.locator('.ant-table-row').first()).toBeVisible();
  await expect(panel.getByTestId('report-mode')).toContainText('Month');
  await switchLanguage(page, 'zh-CN');
  await expect(panel.getByTestId('report-data-range-deviceTime')).toContainText(
    `数据范围：${range.firstDay} 至 ${range.lastDay}。`,
  );
});

test('without a mail server the forgotten-password page says where the mail went', async ({ page }) => {
  await page.goto(`${url}/findPassword`);
  await page.locator('input[autocomplete="email"]').fill('customer1@example.com');
  await page.getByTestId('find-password-submit').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText("written to the server's outbox folder");
  await snapshot(page, 'find-password-outbox-en-US');
});
