import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// The device list's export against the e2e server's six simulated panels (E2E-00001...E2E-00006
// of Riverside School): the list is searched, the export holds exactly what the search matches,
// headed in the console's language, as CSV and as Excel.
const url = baseUrl('normal');

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const rows = (page: Page) => page.getByTestId('device-list').locator('.ant-table-tbody .ant-table-row');

async function download(page: Page, item: 'export-csv' | 'export-xlsx', picture?: string) {
  await page.getByTestId('export-devices').hover();
  await expect(page.getByTestId(item)).toBeVisible();
  if (picture) await snapshot(page, picture);
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(item).click()]);
  return file;
}

for (const [language, words] of [
  ['en-US', { serial: 'Serial number', name: 'Name', sheet: 'Panels' }],
  ['zh-CN', { serial: '序列号', name: '名称', sheet: '设备' }],
] as const) {
  test(`exports the searched device list as CSV and Excel (${language})`, async ({ page }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    await page.goto(`${url}/home/deviceManage`);
    await expect(page.getByTestId('device-list')).toBeVisible();
    await page.getByTestId('list-search').fill('e2e-00003');
    await page.getByTestId('list-search-button').click();
    await expect(rows(page)).toHaveCount(1);

    const csv = await download(page, 'export-csv', `devices-export-menu-${language}`);
    expect(csv.suggestedFilename()).toMatch(/^devices-.*\.csv$/);
    const text = fs.readFileSync(await csv.path(), 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]!.split(',').slice(0, 2)).toEqual([words.serial, words.name]);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['E2E-00003']);

    const xlsx = await download(page, 'export-xlsx');
    expect(xlsx.suggestedFilename()).toMatch(/^devices-.*\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await xlsx.path());
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe(words.sheet);
    expect(sheet.getRow(1).getCell(1).value).toBe(words.serial);
    expect(sheet.getRow(2).getCell(1).value).toBe('E2E-00003');
    expect(sheet.rowCount).toBe(2);
  });
}
