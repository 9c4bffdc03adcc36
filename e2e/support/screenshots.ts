import path from 'node:path';
import type { Page } from '@playwright/test';

const folder = path.resolve(import.meta.dirname, '../screenshots');

/** Saves a full-window picture for people to look at (e2e/screenshots, not committed). */
export async function snapshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await page.waitForTimeout(400); // antd transitions settle before the picture
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: options.fullPage ?? false });
}
