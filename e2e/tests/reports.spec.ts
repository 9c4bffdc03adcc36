import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { device } from '@panelfleet/contract';
import { apiCall } from '../support/api.js';
import { answerConfirm, pickOption, switchLanguage } from '../support/antd.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Reports, logs, error tips and reminders against the e2e fleet (E2E-00001...): six weeks of
// usage history and a few logs the panels sent through the protocol, two of them today (one too
// large for MQTT, uploaded over HTTP).
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-5);

test.describe.configure({ mode: 'serial' });

const rows = (scope: Page | Locator) => scope.locator('.ant-table-row');
const settled = (page: Page) => expect(page.locator('.ant-table .ant-spin-blur')).toHaveCount(0);
const panelOf = (page: Page, kind: string) => page.getByTestId(`report-${kind}`);
const today = () => new Date().toISOString().slice(0, 10);
/** The text box of an antd date picker (the test id lands on the input or on its wrapper). */
const pickerInput = (scope: Page | Locator, id: string) =>
  scope.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();

/** Snapshot now, switch to Chinese, snapshot again, switch back. */
async function bothLanguages(page: Page, name: string, check?: (page: Page) => Promise<void>) {
  await settled(page);
  await snapshot(page, `${name}-en-US`);
  await switchLanguage(page, 'zh-CN');
  if (check) await check(page);
  await settled(page);
  await snapshot(page, `${name}-zh-CN`);
  await switchLanguage(page, 'en-US');
}

const PERIODS: Record<string, RegExp> = {
  day: /^\d{4}-\d{2}-\d{2}$/,
  week: /^\d{4}-\d{2}-\d{2} ~ \d{4}-\d{2}-\d{2}$/,
  month: /^\d{4}-\d{2}$/,
  year: /^\d{4}$/,
  recent: /^\d{4}-\d{2}-\d{2}$/,
};
const MODE_LABELS: Record<string, string> = {
  day: 'Day',
  week: 'Week',
  month: 'Month',
  year: 'Year',
  recent: 'Recent 7 days',
};

async function chooseMode(page: Page, panel: Locator, mode: string) {
  await pickOption(page, panel.getByTestId('report-mode'), MODE_LABELS[mode]!);
  if (mode === 'week') {
    const input = pickerInput(panel, 'report-week-date');
    await input.click();
    await input.fill(today());
    await input.press('Enter');
    await expect(panel.getByTestId('report-week-bounds')).toContainText(' ~ ');
  }
}

test('every report in every time mode, the 请选择日期 rule, preview and a real .xlsx export', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  // A write of this company today, for the operation-log report.
  await apiCall(page, url, device.insertGroup, { groupName: `report ${run}` });
  await page.goto(`${url}/home/report`);
  await expect(page.getByRole('tab', { name: 'Error log report' })).toBeVisible();
  // The last three tabs are rendered on their first click only.
  await expect(page.getByTestId('report-appTime')).toHaveCount(0);

  for (const [kind, tab] of [
    ['errorLog', 'Error log report'],
    ['deviceTime', 'Device run time report'],
    ['appTime', 'Device app run time report'],
  ] as const) {
    await page.getByRole('tab', { name: tab }).click();
    const panel = panelOf(page, kind);
    for (const mode of ['day', 'week', 'month', 'year', 'recent']) {
      await chooseMode(page, panel, mode);
      await panel.getByTestId('report-search').click();
      // The rows of the new mode replace the previous ones (the list keeps them while it loads).
      await expect(rows(panel).first().locator('td').first(), `${kind} by ${mode}`).toHaveText(
        PERIODS[mode]!,
      );
    }
    await snapshot(page, `report-${kind}-recent-en-US`);
    // Refresh: back to day mode, filters cleared.
    await panel.getByTestId('report-refresh').click();
    await expect(panel.getByTestId('report-mode')).toContainText('Day');
  }

  // A range of days typed into the picker, and a device name filter.
  const appTime = panelOf(page, 'appTime');
  const start = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
  const [from, to] = [
    appTime.locator('.ant-picker-range input').first(),
    appTime.locator('.ant-picker-range input').last(),
  ];
  await from.click();
  await from.fill(start);
  await from.press('Enter');
  await to.fill(today());
  await to.press('Enter');
  await appTime.getByTestId('report-device-name').fill('E2E-00002');
  await appTime.getByTestId('report-search').click();
  await expect(rows(appTime).first().locator('td').nth(1)).toHaveText('E2E-00002');
  await settled(page);
  const deviceNames = await rows(appTime).locator('td:nth-child(2)').allTextContents();
  expect(deviceNames.length).toBeGreaterThan(0);
  expect(new Set(deviceNames)).toEqual(new Set(['E2E-00002']));
  const totalText = (await appTime.locator('.ant-pagination-total-text').textContent())!;
  const total = Number(/\d+/.exec(totalText)![0]);
  expect(total).toBeGreaterThan(10);
  // Changing the page size goes back to page 1.
  await appTime.locator('.ant-pagination-item-2').click();
  await expect(appTime.locator('.ant-pagination-item-active')).toHaveText('2');
  await pickOption(page, appTime.locator('.ant-pagination-options .ant-select'), '10 / page');
  await expect(appTime.locator('.ant-pagination-item-active')).toHaveText('1');
  await snapshot(page, 'report-appTime-range-en-US');

  // Export: the same rows as an .xlsx, read back here.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    appTime.getByTestId('report-export').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/appTime-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const file = await download.path();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0]!;
  expect(sheet.getRow(1).values).toEqual([
    undefined,
    'Period',
    'Device name',
    'Device key',
    'App name',
    'Package name',
    'Run time',
  ]);
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  expect(sheet.rowCount - 1).toBe(total);
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    expect(row.getCell(1).value).toBeInstanceOf(Date);
    expect(row.getCell(1).numFmt).toBe('yyyy-mm-dd');
    expect(row.getCell(2).value).toBe('E2E-00002');
    expect(row.getCell(6).numFmt).toBe('[h]:mm:ss');
    // A duration is a number of days; exceljs reads date-like formats back as dates from 1899-12-30.
    expect(row.getCell(6).value).toBeInstanceOf(Date);
  }

  // Preview: a printable page of the same rows with the filters in its title.
  const [preview] = await Promise.all([
    page.waitForEvent('popup'),
    appTime.getByTestId('report-preview').click(),
  ]);
  await preview.waitForLoadState();
  await expect(preview).toHaveTitle(
    new RegExp(
      `Device app run time report · By day · ${start} to ${today()} · device name contains "E2E-00002"`,
    ),
  );
  await expect(preview.locator('tbody tr')).toHaveCount(total);
  await snapshot(preview, 'report-preview-en-US');
  await preview.close();

  // Week without a date: search, preview and export all say so.
  await pickOption(page, appTime.getByTestId('report-mode'), 'Week');
  await appTime.getByTestId('report-export').click();
  await expect(page.getByText('Please choose a date')).toBeVisible();
  await switchLanguage(page, 'zh-CN');
  await pickOption(page, appTime.getByTestId('report-mode'), '周');
  await appTime.getByTestId('report-search').click();
  await expect(page.getByText('请选择日期')).toBeVisible();
  await snapshot(page, 'report-choose-date-zh-CN');
  await appTime.getByTestId('report-refresh').click();
  await settled(page);
  await expect(rows(appTime).first()).toBeVisible();
  await expect(
    appTime
      .locator('td')
      .filter({ hasText: /\d+(小时|分钟|秒)/ })
      .first(),
  ).toBeVisible();
  await snapshot(page, 'report-appTime-zh-CN');
  const [previewZh] = await Promise.all([
    page.waitForEvent('popup'),
    appTime.getByTestId('report-preview').click(),
  ]);
  await previewZh.waitForLoadState();
  await expect(previewZh).toHaveTitle(/设备应用运行时长报表 · 按日/);
  await snapshot(previewZh, 'report-preview-zh-CN');
  await previewZh.close();
  await switchLanguage(page, 'en-US');

  // The operation-log report lists today's write.
  await page.getByRole('tab', { name: 'Operation log report' }).click();
  const ops = panelOf(page, 'operationLog');
  await ops.getByTestId('report-search').click();
  await expect(rows(ops).filter({ hasText: `report ${run}` })).toBeVisible();
  await bothLanguages(page, 'report-operationLog');

  // The command feedback log is one click away.
  await page.getByTestId('report-feedback').click();
  await expect(page).toHaveURL(/\/home\/feedBack$/);
});

test('the operation log lists the company writes and searches by content', async ({ page }) => {
  await signIn(page, 'normal', 'customer1', 'customer123', 'en-US');
  await page.goto(`${url}/home/operationLog`);
  await page.getByTestId('list-search').fill(`REPORT ${run}`);
  await page.getByTestId('list-search-button').click();
  await settled(page);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('operator1');
  await expect(rows(page).first().getByTestId('operation-type')).toHaveText('Add label');
  await bothLanguages(page, 'operation-log', async (p) => {
    await expect(p.getByTestId('operation-type')).toHaveText('新增标签');
  });
});

test('a customer manager views a large abnormal log page by page and processes it', async ({ page }) => {
  await signIn(page, 'normal', 'manager1', 'manager123', 'en-US');
  await page.goto(`${url}/home/abnormalLog`);
  await page.getByTestId('abnormal-filter-device').fill('E2E-00001');
  await page.getByTestId('abnormal-filter-app').fill('Browser');
  const date = pickerInput(page, 'abnormal-filter-date');
  await date.click();
  await date.fill(today());
  await date.press('Enter');
  await page.getByTestId('list-search-button').click();
  await settled(page);
  const row = rows(page).filter({ hasText: 'anr-large.txt' });
  await expect(row).toHaveCount(1);
  await bothLanguages(page, 'abnormal-log');

  await row.getByTestId('row-view').click();
  const dialog = page.getByTestId('abnormal-log-text-dialog');
  await expect(dialog.getByTestId('abnormal-log-text')).toContainText('00001 浏览器无响应');
  await expect(dialog.getByTestId('abnormal-log-text')).not.toContainText('10000 浏览器无响应');
  await expect(page.getByTestId('abnormal-log-download')).toHaveAttribute(
    'href',
    /\/deviceErrorLog\/download\?id=\d+/,
  );
  await snapshot(page, 'abnormal-log-view-en-US');
  await dialog.getByTestId('abnormal-log-pages').locator('.ant-pagination-next').click();
  await expect(dialog.getByTestId('abnormal-log-text')).not.toContainText('00001 浏览器无响应');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('abnormal-log-download').click(),
  ]);
  const whole = fs.readFileSync(await download.path(), 'utf8');
  expect(whole.split('\n').filter(Boolean)).toHaveLength(10_000);
  await page.getByTestId('abnormal-log-close').click();

  await switchLanguage(page, 'zh-CN');
  await row.getByTestId('row-view').click();
  await expect(page.locator('.ant-modal-title')).toHaveText('日志 anr-large.txt');
  await snapshot(page, 'abnormal-log-view-zh-CN');
  await page.getByTestId('abnormal-log-close').click();
  await switchLanguage(page, 'en-US');

  // Cancel first: nothing changes; then confirm: processed, and the button is disabled.
  await row.getByTestId('row-process').click();
  await snapshot(page, 'abnormal-log-process-confirm-en-US');
  await answerConfirm(page, 'Cancel');
  await expect(page.getByText('Cancelled')).toBeVisible();
  await expect(row.getByTestId('abnormal-log-status')).toHaveAttribute('data-status', '0');
  await row.getByTestId('row-process').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('The log is marked processed')).toBeVisible();
  await expect(row.getByTestId('abnormal-log-status')).toHaveAttribute('data-status', '1');
  await expect(row.getByTestId('row-process')).toBeDisabled();
  await bothLanguages(page, 'abnormal-log-processed');
});

test('the platform adds, edits and deletes an error tip in two languages', async ({ page }) => {
  const code = `e2e-${run}`;
  await signIn(page, 'normal', 'admin', 'admin123', 'en-US');
  await page.goto(`${url}/home/errorMsg`);
  await bothLanguages(page, 'error-tips');
  const form = page.getByTestId('tip-form');

  await page.getByTestId('list-add').click();
  await form.getByTestId('tip-form-ok').click();
  await expect(form.getByText('Please fill in all the fields')).toHaveCount(3);
  await snapshot(page, 'error-tip-add-errors-en-US');
  await form.getByTestId('tip-code').fill(code);
  await pickOption(page, form.getByTestId('tip-language'), 'English');
  await form.getByTestId('tip-message').fill('The panel could not reach the server');
  await form.getByTestId('tip-form-ok').click();
  await expect(form).toBeHidden();

  await switchLanguage(page, 'zh-CN');
  await page.getByTestId('list-add').click();
  await form.getByTestId('tip-form-ok').click();
  await expect(form.getByText('请把内容填写完全')).toHaveCount(3);
  await snapshot(page, 'error-tip-add-errors-zh-CN');
  await form.getByTestId('tip-code').fill(code);
  await pickOption(page, form.getByTestId('tip-language'), '英文');
  await form.getByTestId('tip-message').fill('重复');
  await form.getByTestId('tip-form-ok').click();
  // One tip per code and language: the dialog stays open.
  await expect(page.getByText('该错误码在此语言下已有提示')).toBeVisible();
  await expect(form).toBeVisible();
  await pickOption(page, form.getByTestId('tip-language'), '中文');
  await form.getByTestId('tip-message').fill('面板无法连接服务器');
  await form.getByTestId('tip-form-ok').click();
  await expect(form).toBeHidden();
  await page.getByTestId('list-search').fill(code);
  await page.getByTestId('list-search-button').click();
  await expect(rows(page)).toHaveCount(2);
  await snapshot(page, 'error-tips-two-languages-zh-CN');

  const chinese = rows(page).filter({ hasText: '中文' });
  await chinese.getByTestId('row-edit').click();
  await expect(page.locator('.ant-modal-title')).toHaveText('编辑错误提示');
  await form.getByTestId('tip-message').fill('');
  await form.getByTestId('tip-form-ok').click();
  await expect(form.getByText('请填写完全！')).toBeVisible();
  await snapshot(page, 'error-tip-edit-zh-CN');
  await form.getByTestId('tip-message').fill('面板无法连接服务器，请检查网络');
  await form.getByTestId('tip-form-ok').click();
  await expect(chinese).toContainText('请检查网络');
  await switchLanguage(page, 'en-US');

  const english = rows(page).filter({ hasText: 'English' });
  await english.getByTestId('row-edit').click();
  await snapshot(page, 'error-tip-edit-en-US');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await english.getByTestId('row-delete').click();
  await snapshot(page, 'error-tip-delete-en-US');
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(rows(page)).toHaveCount(1);
});

test('OTA staff add, edit and delete a reminder with messages in two languages', async ({ page }) => {
  const version = `9.${run}`;
  await signIn(page, 'normal', 'sales1', 'sales123', 'en-US');
  await page.goto(`${url}/home/otaPromote`);
  await page.getByTestId('sub-view-warningMsg').click();
  await expect(page).toHaveURL(/\/home\/warningMsg$/);
  await bothLanguages(page, 'reminders');

  const form = page.getByTestId('warning-form');
  await page.getByTestId('list-add').click();
  await form.getByTestId('warning-machine-type').focus();
  await form.getByTestId('warning-ota-version').focus();
  await form.getByTestId('warning-remark').focus();
  await expect(form.getByText('Please enter the machine type')).toBeVisible();
  await expect(form.getByText('Please enter the version')).toBeVisible();
  await snapshot(page, 'reminder-add-errors-en-US');
  await form.getByTestId('warning-machine-type').fill('  x9_vn  ');
  await form.getByTestId('warning-ota-version').fill(version);
  await form.getByTestId('warning-remark').fill('Keep the power on');
  await form.getByTestId('warning-form-ok').click();
  await expect(form).toBeHidden();
  await page.getByTestId('list-search').fill('x9');
  await page.getByTestId('list-search-button').click();
  const row = rows(page).filter({ hasText: version });
  await expect(row).toContainText('x9_vn');

  await row.getByTestId('row-edit').click();
  await form.getByTestId('warning-remark').fill('Keep the power on until it restarts');
  await snapshot(page, 'reminder-edit-en-US');
  await form.getByTestId('warning-form-ok').click();
  await expect(row).toContainText('until it restarts');

  // The nested dialogs: the messages, and one message.
  await row.getByTestId('row-messages').click();
  const messages = page.getByTestId('warning-messages-dialog');
  const messageForm = page.getByTestId('warning-message-form');
  await messages.getByTestId('message-add').click();
  await messageForm.getByTestId('warning-message-form-ok').click();
  await expect(messageForm.getByText('Please choose a language')).toBeVisible();
  await pickOption(page, messageForm.getByTestId('warning-message-language'), 'en_US');
  await messageForm.getByTestId('warning-message-text').fill('  Keep the panel on during the update.  ');
  await snapshot(page, 'reminder-message-add-en-US');
  await messageForm.getByTestId('warning-message-form-ok').click();
  await expect(messageForm).toBeHidden();
  await messages.getByTestId('message-add').click();
  await pickOption(page, messageForm.getByTestId('warning-message-language'), 'zh_CN');
  await messageForm.getByTestId('warning-message-text').fill('升级期间请勿断电。');
  await messageForm.getByTestId('warning-message-form-ok').click();
  await expect(rows(messages)).toHaveCount(2);
  await expect(rows(messages).filter({ hasText: 'en_US' })).toContainText(
    'Keep the panel on during the update.',
  );
  await snapshot(page, 'reminder-messages-en-US');

  // Editing keeps the language locked.
  await rows(messages).filter({ hasText: 'zh_CN' }).getByTestId('message-edit').click();
  await expect(messageForm.locator('.ant-select-disabled')).toBeVisible();
  await messageForm.getByTestId('warning-message-text').fill('升级期间请保持通电。');
  await messageForm.getByTestId('warning-message-form-ok').click();
  await expect(rows(messages).filter({ hasText: 'zh_CN' })).toContainText('请保持通电');
  await rows(messages).filter({ hasText: 'en_US' }).getByTestId('message-delete').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(rows(messages)).toHaveCount(1);
  await page.locator('.ant-modal-close').last().click();

  await row.getByTestId('row-view').click();
  await expect(page.getByTestId('warning-view-dialog')).toContainText('请保持通电');
  await snapshot(page, 'reminder-view-en-US');
  await page.getByRole('button', { name: 'OK' }).click();

  // The same dialogs in Chinese.
  await switchLanguage(page, 'zh-CN');
  await row.getByTestId('row-messages').click();
  await messages.getByTestId('message-add').click();
  // A long list: narrow it by typing.
  await messageForm.getByTestId('warning-message-language').click();
  await page.keyboard.type('de_DE');
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: 'de_DE' })
    .first()
    .click();
  await messageForm.getByTestId('warning-message-text').fill('Bitte eingeschaltet lassen.');
  await snapshot(page, 'reminder-message-add-zh-CN');
  await messageForm.getByTestId('warning-message-form-ok').click();
  await expect(rows(messages)).toHaveCount(2);
  await snapshot(page, 'reminder-messages-zh-CN');
  await page.locator('.ant-modal-close').last().click();
  await row.getByTestId('row-view').click();
  await snapshot(page, 'reminder-view-zh-CN');
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await row.getByTestId('row-edit').click();
  await snapshot(page, 'reminder-edit-zh-CN');
  await page
    .getByTestId('warning-form')
    .getByRole('button', { name: /取\s*消/ })
    .click();
  await row.getByTestId('row-delete').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('确定删除？');
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /取\s*消/ })
    .click();
  await expect(page.getByText('已取消')).toBeVisible();
  await row.getByTestId('row-delete').click();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(row).toHaveCount(0);
  await switchLanguage(page, 'en-US');
});
