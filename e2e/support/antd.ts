import type { Locator, Page } from '@playwright/test';

/** Opens an antd Select and picks the option with this label. */
export async function pickOption(page: Page, select: Locator, label: string) {
  await select.click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: label }).first().click();
}

/** Switches the console language through the header or page switch. */
export async function switchLanguage(page: Page, language: 'zh-CN' | 'en-US') {
  await page.getByTestId('lang-switch').click();
  await page.locator(`[data-lang="${language}"]`).click();
}
