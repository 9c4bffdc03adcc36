import { expect, type Locator, type Page } from '@playwright/test';

/** Opens an antd Select and picks the option with this label. */
export async function pickOption(page: Page, select: Locator, label: string) {
  await select.click();
  await clickOption(page, select, label);
}

/** Chooses the options with these labels in an antd multiple select, in order, then closes it. */
export async function pickOptions(page: Page, select: Locator, labels: string[]) {
  await select.click();
  for (const label of labels) await clickOption(page, select, label);
  await page.keyboard.press('Escape');
}

async function clickOption(page: Page, select: Locator, label: string) {
  const option = page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: label })
    .first();
  // A long list renders only the options in view (and opens scrolled to the first chosen one): a
  // searchable select narrows to the one wanted.
  if (!(await option.isVisible()) && (await select.locator('input[type="search"]').count()))
    await page.keyboard.type(label);
  await option.click();
}

/** Switches the console language through the header or page switch. */
export async function switchLanguage(page: Page, language: 'zh-CN' | 'en-US') {
  await page.getByTestId('lang-switch').click();
  await page.locator(`[data-lang="${language}"]`).click();
}

/**
 * Answers the open confirmation (OK, Cancel, 确 定, 取 消) once it has finished zooming in, and
 * waits for it to close: a click while it still zooms can miss the button (seen in CI, where the
 * dialog then stayed open).
 */
export async function answerConfirm(page: Page, button: string) {
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog).toBeVisible();
  await expect(
    page.locator('.ant-modal[class*="ant-zoom-appear"], .ant-modal[class*="ant-zoom-enter"]'),
  ).toHaveCount(0);
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}
