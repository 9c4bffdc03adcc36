import { expect, test, type Locator, type Page } from '@playwright/test';
import { device } from '@panelfleet/contract';
import { pickOption, switchLanguage } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Device list, edit device, edit labels and the Labels page against the e2e server's six simulated
// panels (E2E-00001...E2E-00006 of Riverside School). Panel E2E-00006 is renamed and given its
// own label; the test gives it its serial as name again at the end, because other specs find
// panels by name.
const url = baseUrl('normal');
const FLEET = 6;
const run = Date.now().toString(36).slice(-4);
const north = `North ${run}`;
const east = `East ${run}`;
const science = `Science ${run}`;

// The machine is shared and slow at times; a label round trip waits for real panels.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const rows = (page: Page) => page.getByTestId('device-list').locator('.ant-table-tbody .ant-table-row');
const rowOf = (page: Page, text: string) => rows(page).filter({ hasText: text });
const labelRows = (page: Page) => page.getByTestId('labels-page').locator('.ant-table-tbody .ant-table-row');

/** Every listed panel of the fleet, read through the API with the browser's session. */
async function fleetRows(page: Page) {
  const list = await apiCall(page, url, device.listDevices, { start: 1, size: 50 });
  return list.listObject.filter((d) => d.deviceKey.startsWith('E2E-'));
}

async function openDevices(page: Page) {
  await page.goto(`${url}/home/deviceManage`);
  await expect(page.getByTestId('device-list')).toBeVisible();
  // The panels enroll right after the server starts: wait until all six are listed and online.
  await expect
    .poll(async () => (await fleetRows(page)).filter((d) => d.isOnline === '1').length, { timeout: 30_000 })
    .toBe(FLEET);
  await page.getByTestId('list-refresh').click();
  await expect(rows(page)).toHaveCount(5);
}

async function chooseLabel(input: Locator, page: Page, name: string, confirm: boolean) {
  await input.click();
  await page.keyboard.type(name);
  if (!confirm) return;
  await page.keyboard.press('Enter');
  // The options list stays open after Enter and may cover the dialog's buttons.
  await page.locator('.ant-modal-title').click();
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
}

test('lists the panels page by page, searches by name start and keeps online state fresh', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await openDevices(page);
  // The six simulated panels, and any panel another spec enrolled into the company before.
  const total = (await apiCall(page, url, device.listDevices, { start: 1, size: 1 })).totalRecords;
  expect(total).toBeGreaterThanOrEqual(FLEET);
  expect(total).toBeLessThanOrEqual(10);
  await expect(page.locator('.ant-pagination-total-text')).toHaveText(`${total} in total`);
  const simulated = rows(page).filter({ has: page.getByTestId('device-name').filter({ hasText: /^E2E-/ }) });
  await expect(simulated.first().getByTestId('device-online')).toHaveAttribute('data-online', '1');

  await page.locator('.ant-pagination-item-2').click();
  await expect(rows(page)).toHaveCount(total - 5);
  await page.locator('.ant-pagination-item-1').click();
  await expect(rows(page)).toHaveCount(5);
  await pickOption(page, page.locator('.ant-pagination-options .ant-select'), '10 / page');
  await expect(rows(page)).toHaveCount(total);
  const names = await rows(page).getByTestId('device-name').allInnerTexts();
  // The server orders by lower(name) byte-wise (then id); for these ASCII names that is code unit order.
  const byKey = (a: string, b: string) =>
    a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
  expect(names).toEqual([...names].sort(byKey));

  await page.getByTestId('list-search').fill('e2e-00003');
  await page.getByTestId('list-search-button').click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('E2E-00003');
  await page.getByTestId('list-search').fill('nothing like this');
  await page.getByTestId('list-search-button').click();
  await expect(rows(page)).toHaveCount(0);
  await page.getByTestId('list-refresh').click();
  await expect(rows(page)).toHaveCount(total); // the refresh clears the search and keeps 10 a page

  await snapshot(page, 'device-list-en-US');
  await switchLanguage(page, 'zh-CN');
  await expect(page.getByTestId('tab-device-list')).toHaveText('设备列表');
  await snapshot(page, 'device-list-zh-CN');
  await switchLanguage(page, 'en-US');
});

test('edits a device: name and label rules, an unconfirmed label counts, remark counter, serial read-only', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await openDevices(page);
  await page.getByTestId('list-search').fill('E2E-00006');
  await page.getByTestId('list-search-button').click();
  await expect(rows(page)).toHaveCount(1);
  await rows(page).first().getByTestId('row-edit').click();

  const dialog = page.getByTestId('device-edit');
  await expect(dialog.getByTestId('device-edit-serial')).toHaveValue('E2E-00006');
  await expect(dialog.getByTestId('device-edit-serial')).toBeDisabled();
  await dialog.getByTestId('device-edit-name').fill('');
  // Labels another spec gave the panel go first (Backspace takes the last one off each time).
  await dialog.getByTestId('device-edit-labels').click();
  for (let i = 0; i < 10; i++) await page.keyboard.press('Backspace');
  await page.locator('.ant-modal-title').click();
  await dialog.getByTestId('device-edit-ok').click();
  await expect(dialog.getByText('Please enter the device name')).toBeVisible();
  await expect(dialog.getByText('Please give the device at least one label')).toBeVisible();
  await snapshot(page, 'device-edit-errors-en-US');

  await dialog.getByTestId('device-edit-name').fill(`Science Hall ${run}`);
  await dialog.getByTestId('device-edit-remark').fill('By the stairs');
  await dialog.getByTestId('device-edit-location').fill('Science block, room 2');
  await expect(dialog.locator('.ant-input-data-count')).toHaveText('13 / 200');
  await chooseLabel(dialog.getByTestId('device-edit-labels'), page, science, true);
  // Typed but not confirmed with Enter: it counts and is saved too.
  await chooseLabel(dialog.getByTestId('device-edit-labels'), page, north, false);
  await snapshot(page, 'device-edit-en-US');
  await dialog.getByTestId('device-edit-ok').click();
  await expect(dialog).toBeHidden();

  await page.getByTestId('list-search').fill('science hall');
  await page.getByTestId('list-search-button').click();
  const edited = rowOf(page, 'E2E-00006');
  await expect(edited).toHaveCount(1);
  await expect(edited.getByTestId('device-labels')).toContainText(science);
  await expect(edited.getByTestId('device-labels')).toContainText(north);
  await expect(edited).toContainText('By the stairs');
  // The location is the panel's, shown in its detail.
  await edited.getByTestId('device-name').click();
  await expect(page.getByTestId('detail-location')).toHaveText('Science block, room 2');
  await snapshot(page, 'device-detail-location-en-US');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('detail-location')).toBeHidden();

  // The same dialog in Chinese.
  await switchLanguage(page, 'zh-CN');
  await edited.getByTestId('row-edit').click();
  await expect(page.locator('.ant-modal-title')).toHaveText('编辑设备');
  await expect(page.getByTestId('device-edit').getByText('位置', { exact: true })).toBeVisible();
  await expect(page.getByTestId('device-edit-location')).toHaveValue('Science block, room 2');
  await page.getByTestId('device-edit').getByTestId('device-edit-name').fill('');
  await page.getByTestId('device-edit').getByTestId('device-edit-ok').click();
  await expect(page.getByTestId('device-edit').getByText('请输入设备名称')).toBeVisible();
  await snapshot(page, 'device-edit-zh-CN');
  await page.keyboard.press('Escape');
  await switchLanguage(page, 'en-US');
});

test('gives the selected devices exactly the chosen labels', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await openDevices(page);
  await page.getByTestId('edit-labels').click();
  await expect(page.locator('.ant-message').getByText('Please select at least one device')).toBeVisible();
  // Only the simulated panels (other specs may have enrolled more into the company).
  await page.getByTestId('list-search').fill('E2E-');
  await page.getByTestId('list-search-button').click();
  await expect(rowOf(page, 'E2E-00005')).toHaveCount(1);

  for (const serial of ['E2E-00004', 'E2E-00005'])
    await rowOf(page, serial).locator('.ant-checkbox-input').check();
  await page.getByTestId('edit-labels').click();
  const dialog = page.getByTestId('labels-edit');
  await expect(dialog.getByTestId('labels-edit-count')).toContainText('Selected devices: 2');
  // The labels the two share (another spec may have given them one) go first.
  await dialog.getByTestId('labels-edit-input').click();
  for (let i = 0; i < 10; i++) await page.keyboard.press('Backspace');
  await chooseLabel(dialog.getByTestId('labels-edit-input'), page, east, true);
  await dialog.getByTestId('labels-edit-ok').click();
  await expect(dialog).toBeHidden();
  for (const serial of ['E2E-00004', 'E2E-00005'])
    await expect(rowOf(page, serial).getByTestId('device-labels')).toHaveText(east);
});

test('Labels page: tick labels, send brightness to two labels, and the panels report it; power off and start up by label', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await openDevices(page);
  await page.getByTestId('tab-labels').click();
  await expect(page).toHaveURL(/\/home\/Labels$/);
  const labels = page.getByTestId('labels-page');
  await expect(labels.getByTestId('label-chip').filter({ hasText: north })).toBeVisible();

  await labels.getByTestId('labels-brightness').click();
  await expect(page.locator('.ant-message').getByText('Please tick at least one label')).toBeVisible();
  await expect(page.getByTestId('labels-level')).toBeHidden();

  await labels.getByTestId('label-chip').filter({ hasText: north }).click();
  await labels.getByTestId('label-chip').filter({ hasText: east }).click();
  await expect(labelRows(page)).toHaveCount(3);
  await expect(labelRows(page).getByTestId('label-device-online').first()).toHaveAttribute(
    'data-online',
    '1',
  );
  await snapshot(page, 'labels-page-en-US');

  await labels.getByTestId('labels-brightness').click();
  const level = page.getByTestId('labels-level');
  await expect(level.getByTestId('labels-level-input').locator('input')).toHaveValue('80');
  await level.getByTestId('labels-level-input').locator('input').fill('37');
  await snapshot(page, 'labels-brightness-en-US');
  await level.getByTestId('labels-level-ok').click();
  await expect(level).toBeHidden();
  await expect(page.locator('.ant-message').getByText('Command sent')).toBeVisible();
  const targets = ['E2E-00004', 'E2E-00005', 'E2E-00006'];
  // The panels execute the order and report their new state; the server stores what they report.
  await expect
    .poll(
      async () =>
        (await fleetRows(page)).filter((d) => targets.includes(d.deviceKey)).map((d) => d.brightness),
      { timeout: 20_000 },
    )
    .toEqual([37, 37, 37]);
  expect(
    (await fleetRows(page)).filter((d) => !targets.includes(d.deviceKey)).every((d) => d.brightness !== 37),
  ).toBe(true);

  await labels.getByTestId('labels-volume').click();
  await expect(
    page.getByTestId('labels-level').getByTestId('labels-level-input').locator('input'),
  ).toHaveValue('60');
  await page.getByTestId('labels-level').getByRole('button', { name: 'Cancel' }).click();

  // Power off one label: its panel disconnects and the table shows it offline without a reload.
  await labels.getByTestId('label-chip').filter({ hasText: east }).click();
  await expect(labelRows(page)).toHaveCount(1);
  await labels.getByTestId('labels-power-off').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText(north);
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(labelRows(page).first().getByTestId('label-device-online')).toHaveAttribute(
    'data-online',
    '0',
    { timeout: 15_000 },
  );
  await labels.getByTestId('labels-start-up').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(labelRows(page).first().getByTestId('label-device-online')).toHaveAttribute(
    'data-online',
    '1',
    { timeout: 30_000 },
  );

  await switchLanguage(page, 'zh-CN');
  await labels.getByTestId('label-chip').filter({ hasText: east }).click();
  await expect(labels.getByTestId('labels-power-off')).toHaveText(/关\s*机/);
  await snapshot(page, 'labels-page-zh-CN');
  await labels.getByTestId('labels-brightness').click();
  await expect(page.locator('.ant-modal-title')).toHaveText('亮度');
  await snapshot(page, 'labels-brightness-zh-CN');
  await page.keyboard.press('Escape');
  await switchLanguage(page, 'en-US');
});

test('gives E2E-00006 its serial as name again', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  const panel = (await fleetRows(page)).find((d) => d.deviceKey === 'E2E-00006')!;
  await apiCall(page, url, device.updateDevice, {
    deviceId: panel.deviceId,
    deviceName: 'E2E-00006',
    deviceKey: 'E2E-00006',
    tag: panel.tag,
    remark: '',
    state: '1',
  });
  expect((await fleetRows(page)).find((d) => d.deviceKey === 'E2E-00006')!.deviceName).toBe('E2E-00006');
});
