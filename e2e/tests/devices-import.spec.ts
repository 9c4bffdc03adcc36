import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { device } from '@panelfleet/contract';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// The device list's CSV import against the e2e server's simulated panels (E2E-00001...E2E-00006
// of Riverside School): a file with one bad line shows that line and cannot be applied; the fixed
// file is applied and the list shows the new name. Each language renames its own panel and gives
// it its name and remark back at the end (through the same import, by the API), because other
// specs find panels by name.
const url = baseUrl('normal');

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const rows = (page: Page) => page.getByTestId('device-list').locator('.ant-table-tbody .ant-table-row');
const folder = path.resolve(import.meta.dirname, '../test-results/device-import');

/** A CSV as a spreadsheet saves it (byte order mark, CRLF), written where the browser can pick it. */
function csvFile(name: string, lines: string[]) {
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, name);
  fs.writeFileSync(file, `\uFEFF${lines.join('\r\n')}\r\n`);
  return file;
}

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** Previews and applies a CSV through the API with the browser's session (the restore step). */
async function importByApi(page: Page, lines: string[]) {
  const file = {
    name: 'restore.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${lines.join('\r\n')}\r\n`),
  };
  const headers = { Origin: url, Accept: 'application/json' };
  const preview = await page.request.post(`${url}${device.DEVICE_IMPORT_PREVIEW_PATH}`, {
    multipart: { file },
    headers,
  });
  const { token } = device.previewDeviceImport.reply.parse(await preview.json()).dataObject;
  const apply = await page.request.post(`${url}${device.DEVICE_IMPORT_APPLY_PATH}`, {
    multipart: { file, token },
    headers,
  });
  expect((await apply.json()) as unknown).toMatchObject({ hhtStatus: 'success' });
}

for (const [language, panel, words] of [
  [
    'en-US',
    'E2E-00002',
    {
      name: 'Import hall',
      error: 'A serial number is 4 to 64 letters, digits, _ or -',
      updated: 'Panels changed',
    },
  ],
  [
    'zh-CN',
    'E2E-00003',
    { name: '导入大厅', error: '序列号须为 4 至 64 个字母、数字、_ 或 -', updated: '修改的设备' },
  ],
] as const) {
  test(`imports a CSV: a bad line is shown, the fixed file is applied (${language})`, async ({ page }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    const before = (await apiCall(page, url, device.listDevices, { start: 1, size: 50 })).listObject.find(
      (d) => d.deviceKey === panel,
    )!;
    await page.goto(`${url}/home/deviceManage`);
    await expect(page.getByTestId('device-list')).toBeVisible();

    const heading = 'Serial number,Name,Location,Remark';
    const bad = csvFile(`bad-${language}.csv`, [
      heading,
      `${panel},${words.name},Hall 1,imported`,
      `not a serial!,Nobody,,`,
      `IMP-E2E-${language},Not enrolled yet,Store room,`,
    ]);
    await page.getByTestId('import-devices').click();
    const dialog = page.getByTestId('import-modal');
    await expect(dialog).toBeVisible();
    await snapshot(page, `devices-import-pick-${language}`);
    await dialog.locator('input[type=file]').setInputFiles(bad);
    const errors = dialog.getByTestId('import-errors');
    await expect(errors).toBeVisible();
    await expect(errors.locator('.ant-table-row')).toHaveCount(1);
    await expect(errors.locator('.ant-table-row').first()).toContainText('3');
    await expect(errors.locator('.ant-table-row').first()).toContainText(words.error);
    await expect(dialog.getByTestId('import-count-errors')).toHaveText('1');
    await expect(page.getByTestId('import-apply')).toBeDisabled();
    await snapshot(page, `devices-import-errors-${language}`);

    const good = csvFile(`good-${language}.csv`, [
      heading,
      `${panel},${words.name},Hall 1,imported`,
      `IMP-E2E-${language},Not enrolled yet,Store room,`,
    ]);
    await dialog.locator('input[type=file]').setInputFiles(good);
    await expect(dialog.getByTestId('import-changes')).toBeVisible();
    await expect(dialog.getByTestId('import-count-errors')).toHaveText('0');
    await expect(dialog.getByTestId('import-count-updated')).toHaveText('1');
    await expect(dialog.getByTestId('import-count-pending')).toHaveText('1');
    await expect(dialog).toContainText(words.updated);
    await snapshot(page, `devices-import-preview-${language}`);
    await page.getByTestId('import-apply').click();
    await expect(dialog.getByTestId('import-done')).toBeVisible();
    await snapshot(page, `devices-import-done-${language}`);
    await page.getByTestId('import-close').click();
    await expect(dialog).toBeHidden();

    await page.getByTestId('list-search').fill(panel);
    await page.getByTestId('list-search-button').click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(words.name);
    await snapshot(page, `devices-import-list-${language}`);

    await importByApi(page, [
      'serial,name,location,remark',
      `${panel},${quoted(before.deviceName)},,${quoted(before.remark)}`,
    ]);
    const after = (await apiCall(page, url, device.listDevices, { start: 1, size: 50 })).listObject.find(
      (d) => d.deviceKey === panel,
    )!;
    expect({ name: after.deviceName, remark: after.remark }).toEqual({
      name: before.deviceName,
      remark: before.remark,
    });
  });
}
