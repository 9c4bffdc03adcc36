import ExcelJS from 'exceljs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { alerts, device } from '@panelfleet/contract';
import { answerConfirm, pickOptions } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Issue 26, the console side: an operator of Riverside School makes an offline rule (1 minute, no
// extra duration), a simulated panel goes dark (powered off through the device API), the header's
// bell counts it without a reload, the operator acknowledges it with a note in the notification
// centre, and the alert clears by itself when the panel is powered on again. Once per language,
// each with its own panel (E2E-00003 in English, E2E-00005 in Chinese); both panels end online.
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-4);
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const WORDS = {
  'en-US': { cleared: 'Cleared', ended: 'Condition ended', delete: 'OK', sheet: 'Alerts' },
  'zh-CN': { cleared: '已清除', ended: '条件已解除', delete: '确 定', sheet: '告警' },
} as const;

async function panel(page: Page, key: string) {
  const list = await apiCall(page, url, device.listDevices, { start: 1, size: 50 });
  const found = list.listObject.find((d) => d.deviceKey === key);
  if (!found) throw new Error(`${key} is not listed`);
  return found;
}

/** The input of an antd InputNumber (the test id lands on the input or on its wrapper). */
const numberInput = (scope: Locator, testId: string) =>
  scope.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
const bell = (page: Page) => page.getByTestId('alert-bell');
const rowOf = (page: Page, key: string) => page.getByTestId('alert-row').filter({ hasText: key });

for (const [language, key] of [
  ['en-US', 'E2E-00003'],
  ['zh-CN', 'E2E-00005'],
] as const) {
  test(`${language}: an offline rule raises an alert the bell counts, acknowledged, cleared when the panel returns`, async ({
    page,
  }) => {
    const words = WORDS[language];
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    const target = await panel(page, key);
    await expect.poll(async () => (await panel(page, key)).isOnline, { timeout: 60_000 }).toBe('1');
    const before = (await apiCall(page, url, alerts.countAlerts, {})).dataObject.active;
    await expect(bell(page)).toHaveAttribute('data-count', String(before));

    // The menu entry opens the centre; its rules tab has its own URL.
    await page.locator('[data-menu="alerts"]').click();
    await expect(page).toHaveURL(/\/home\/alerts$/);
    await page.getByTestId('tab-alert-rules').click();
    await expect(page).toHaveURL(/\/home\/alertRules$/);

    // A rule on this panel's going dark only: a label of its own would also do; the text filter
    // below keeps to this panel's alert however many panels of the school are offline meanwhile.
    const ruleName = `Dark ${key} ${run}`;
    await page.getByTestId('rule-add').click();
    const dialog = page.getByTestId('rule-modal');
    await dialog.getByTestId('rule-name').fill(ruleName);
    await dialog.locator('[data-testid="rule-severity"] input[value="critical"]').click();
    await numberInput(dialog, 'rule-minutes').fill('1');
    await numberInput(dialog, 'rule-duration').fill('0');
    await snapshot(page, `alerts-rule-dialog-${language}`);
    await page.getByTestId('rule-modal-ok').click();
    await expect(dialog).toBeHidden();
    const ruleRow = page.locator('.ant-table-row').filter({ hasText: ruleName });
    await expect(ruleRow).toBeVisible();
    await snapshot(page, `alerts-rules-${language}`);

    // The panel goes dark; after the rule's minute the bell counts its alert, without a reload.
    await apiCall(page, url, device.sendCommandByDeviceId, { deviceId: target.deviceId, order: '02' });
    await expect.poll(async () => (await panel(page, key)).isOnline, { timeout: 30_000 }).toBe('0');
    await expect(bell(page)).toHaveAttribute('data-count', String(before + 1), { timeout: 180_000 });
    await snapshot(page, `alerts-bell-${language}`);

    // The bell opens the centre, which lists the panel's alert: critical, active, linked to the panel.
    await bell(page).click();
    await expect(page).toHaveURL(/\/home\/alerts$/);
    const row = rowOf(page, key);
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('alert-state')).toHaveAttribute('data-state', 'active');
    await expect(row).toContainText(ruleName);
    await snapshot(page, `alerts-centre-active-${language}`);

    // Acknowledge it with a note: by whom and the note show, and the bell no longer counts it.
    await row.locator('.ant-checkbox-input').check();
    await page.getByTestId('alert-acknowledge').click();
    await page.getByTestId('alert-note').fill(`Caretaker called ${run}`);
    await page.getByTestId('alert-note-ok').click();
    await expect(row.getByTestId('alert-state')).toHaveAttribute('data-state', 'acknowledged');
    await expect(row.getByTestId('alert-acknowledged-by')).toHaveText('operator1');
    await expect(row.getByTestId('alert-note')).toHaveText(`Caretaker called ${run}`);
    await expect(bell(page)).toHaveAttribute('data-count', String(before));
    await snapshot(page, `alerts-centre-acknowledged-${language}`);

    // The panel returns: the alert clears by itself and leaves the open list.
    await apiCall(page, url, device.sendPowerUpByDeviceId, { deviceId: target.deviceId });
    await expect.poll(async () => (await panel(page, key)).isOnline, { timeout: 60_000 }).toBe('1');
    await expect(row).toHaveCount(0, { timeout: 60_000 });
    await pickOptions(page, page.getByTestId('alert-filter-state'), [words.cleared]);
    await page.getByTestId('list-search').fill(key);
    await page.getByTestId('list-search-button').click();
    const cleared = rowOf(page, key).filter({ hasText: ruleName });
    await expect(cleared.getByTestId('alert-state')).toHaveAttribute('data-state', 'cleared');
    await expect(cleared).toContainText(words.ended);
    await snapshot(page, `alerts-centre-cleared-${language}`);

    // The export holds what the centre lists, headed in the console's language.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('alert-export').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe(words.sheet);
    const cells = sheet.getSheetValues().flatMap((r) => (Array.isArray(r) ? r.map(String) : []));
    expect(cells).toContain(key);
    expect(cells).toContain(ruleName);

    // The rule goes; the alert's history stays.
    await page.getByTestId('tab-alert-rules').click();
    await ruleRow.getByTestId('rule-delete').click();
    await answerConfirm(page, words.delete);
    await expect(ruleRow).toHaveCount(0);
  });
}
