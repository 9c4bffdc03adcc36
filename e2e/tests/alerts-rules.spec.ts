import { expect, test } from '@playwright/test';
import { answerConfirm, pickOption, switchLanguage } from '../support/antd.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Issue 26, the rules tab: a rule of every condition kind of the contract is made through the
// dialog's form for that kind (its default parameters) and listed in words; one is edited; all go.
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-4);
test.describe.configure({ mode: 'serial', timeout: 180_000 });

/** Each kind as the dialog offers it and the list then says it (the dialog's defaults). */
const KINDS = [
  ['Panel offline', 'Panel offline longer than 10 min'],
  ['Panel not reporting', 'Panel sent no state for 10 min'],
  ['Task failure share', 'OTA task: more than 30 % of its panels failed'],
  ['Task paused by its health gate', 'OTA task paused by its health gate'],
  ['Task finished', 'OTA task finished'],
  ['Abnormal logs', 'More than 10 abnormal logs within 10 min'],
  ['Reported value past a threshold', 'CPU temperature (°C) above 80'],
  ['Command failed or expired', 'A command failed or expired'],
  ['Certificate or licence expiring', 'Certificate expiring within 30 days'],
] as const;

test('a rule of every kind through its form, listed in words, edited, deleted', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/alertRules`);
  const dialog = page.getByTestId('rule-modal');
  const rowOf = (name: string) => page.locator('.ant-table-row').filter({ hasText: name });

  for (const [index, [kind, words]] of KINDS.entries()) {
    const name = `Kind ${index} ${run}`;
    await page.getByTestId('rule-add').click();
    await dialog.getByTestId('rule-name').fill(name);
    await pickOption(page, dialog.getByTestId('rule-kind'), kind);
    if (index === 6) await snapshot(page, 'alerts-rule-threshold-en-US');
    await page.getByTestId('rule-modal-ok').click();
    await expect(dialog).toBeHidden();
    await expect(rowOf(name).getByTestId('rule-condition')).toHaveText(words);
  }
  await snapshot(page, 'alerts-rules-every-kind-en-US', { fullPage: true });

  // Newest first, five a page: the threshold rule (the third newest) is on the first page, and
  // opens as saved; below 70 instead of above 80.
  const threshold = rowOf(`Kind 6 ${run}`);
  await threshold.getByTestId('rule-edit').click();
  await expect(dialog.getByTestId('rule-name')).toHaveValue(`Kind 6 ${run}`);
  await pickOption(page, dialog.getByTestId('rule-direction'), 'Below');
  await dialog
    .locator('input[data-testid="rule-value"], [data-testid="rule-value"] input')
    .first()
    .fill('70');
  await page.getByTestId('rule-modal-ok').click();
  await expect(dialog).toBeHidden();
  await expect(threshold.getByTestId('rule-condition')).toHaveText('CPU temperature (°C) below 70');

  await switchLanguage(page, 'zh-CN');
  await expect(threshold.getByTestId('rule-condition')).toHaveText('CPU 温度（°C）低于 70');
  await snapshot(page, 'alerts-rules-every-kind-zh-CN', { fullPage: true });

  // Newest first: each deletion brings the next older rule onto the first page.
  for (const index of [...KINDS.keys()].reverse()) {
    const row = rowOf(`Kind ${index} ${run}`);
    await row.getByTestId('rule-delete').click();
    await answerConfirm(page, '确 定');
    await expect(row).toHaveCount(0);
  }
});
