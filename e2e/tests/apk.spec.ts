import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apk, device, deviceDetail } from '@panelfleet/contract';
import { apkSigner, buildApk, type ApkSpec } from '../../apps/server/test/apk-fixtures.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// The APK repository screen (view apk) against the e2e server, as Riverside School's
// administrator (operator1, type 4): real APKs built on the spot (binary manifest, resources,
// icons, v2 signature) go through the resumable upload; the server reads them.
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-5);
const PKG = `com.riverside.board${run}`;
const HELPER = `com.riverside.helper${run}`;
const LABEL = `Board ${run}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-apk-'));
const signer = apkSigner(`Riverside ${run}`);

test.describe.configure({ mode: 'serial' });

async function apkFile(name: string, spec: ApkSpec) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, await buildApk(spec, signer));
  return file;
}

async function openApkView(page: Page, language: 'en-US' | 'zh-CN') {
  await signIn(page, 'normal', 'operator1', 'operator123', language);
  await page.goto(`${url}/home/apk`);
  await expect(page.getByTestId('apk-upload')).toBeVisible();
}

/** Slows the browser's uploads so that the progress dialog can be seen and cancelled. */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return cdp;
}

async function cards(page: Page) {
  return (await apiCall(page, url, apk.listApkCards, { start: 1, size: 100 })).listObject;
}

test('upload an APK: the card shows the label and icon read from it; cancel a slow upload', async ({
  page,
}) => {
  await openApkView(page, 'en-US');
  await snapshot(page, 'apk-list-en');

  // A large APK at 1 MB/s: the non-closable progress dialog shows MB/MB, and Cancel stops it.
  const big = await apkFile('big.apk', {
    packageName: `${PKG}.big`,
    versionCode: 1,
    versionName: '1.0.0',
    label: `Big ${run}`,
    padding: 12 * 1024 * 1024,
  });
  const cdp = await throttleUploads(page, 1024 * 1024);
  await page.getByTestId('apk-upload').click();
  await page.getByTestId('apk-form-apk').locator('input[type=file]').setInputFiles(big);
  for (const [i, part] of ['RS', 'BIG', '24', 'X'].entries())
    await page.getByTestId(`apk-mark-${i}`).fill(part);
  await page.getByTestId('apk-form-apk').getByRole('button', { name: 'OK' }).click();
  const progress = page.getByTestId('apk-progress-mb');
  await expect(progress).toBeVisible();
  await expect(page.getByTestId('apk-progress-mb')).toHaveText(/^[1-9]\d*\.\d MB \/ 12\.\d MB$/, {
    timeout: 20_000,
  });
  await snapshot(page, 'apk-progress-en');
  await page.getByTestId('apk-upload-cancel').click();
  await expect(progress).toBeHidden();
  await expect(page.getByText('Cancelled')).toBeVisible();
  expect((await cards(page)).some((c) => c.packageName === `${PKG}.big`)).toBe(false);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  // A real one: the form (file, four-box mark, description), then the card.
  const first = await apkFile('board-1.apk', {
    packageName: PKG,
    versionCode: 1,
    versionName: '1.0.0',
    label: LABEL,
  });
  await page.getByTestId('apk-upload').click();
  const form = page.getByTestId('apk-form-apk');
  await form.locator('input[type=file]').setInputFiles(first);
  // Chinese characters are stripped; focus moves on after four characters.
  await page.getByTestId('apk-mark-0').pressSequentially('RS中文ab');
  await expect(page.getByTestId('apk-mark-0')).toHaveValue('RSab');
  await expect(page.getByTestId('apk-mark-1')).toBeFocused();
  for (const [i, part] of ['24', 'X9', 'A'].entries()) await page.getByTestId(`apk-mark-${i + 1}`).fill(part);
  await page.getByTestId('apk-remark-apk').fill('Whiteboard for classrooms');
  await snapshot(page, 'apk-upload-dialog-en');
  await form.getByRole('button', { name: 'OK' }).click();
  const card = page.getByTestId(`apk-card-${PKG}`);
  await expect(card).toBeVisible({ timeout: 20_000 });
  await expect(card.getByTestId('apk-card-label')).toHaveText(LABEL);
  await expect(card.getByTestId('apk-card-version')).toHaveText('1.0.0 · 0 MB');
  // The icon is the PNG the server extracted (not the default picture).
  await expect(card.locator('img')).toHaveAttribute('src', /\/apkUpgrade\/icon\?kind=version&id=\d+/);
  expect(await card.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(144);
  await page.getByTestId('apk-search').locator('input').fill(run);
  await page.getByTestId('apk-search').locator('input').press('Enter');
  await expect(page.getByTestId(`apk-card-${PKG}`)).toBeVisible();
  await snapshot(page, 'apk-cards-en');
});

test('detail panel: a new version becomes the latest; descriptions; auxiliary apps; refusals', async ({
  page,
}) => {
  await openApkView(page, 'en-US');
  await page.getByTestId('apk-search').locator('input').fill(run);
  await page.getByTestId('apk-search').locator('input').press('Enter');
  await page.getByTestId(`apk-card-${PKG}`).click();
  const detail = page.getByTestId('apk-detail');
  await expect(detail.getByTestId('apk-detail-package')).toHaveText(PKG);
  await expect(detail.getByTestId('apk-detail-label')).toHaveText(LABEL);

  // A lower or equal versionCode is refused with the server's reason.
  await page.getByTestId('apk-upload-version').click();
  await page
    .getByTestId('apk-form-version')
    .locator('input[type=file]')
    .setInputFiles(
      await apkFile('board-1b.apk', { packageName: PKG, versionCode: 1, versionName: '1.0.1', label: LABEL }),
    );
  await page.getByTestId('apk-form-version').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText(/versionCode 1 is not higher than the latest \(1\)/)).toBeVisible({
    timeout: 20_000,
  });
  await snapshot(page, 'apk-refused-en');

  await page.getByTestId('apk-upload-version').click();
  await page
    .getByTestId('apk-form-version')
    .locator('input[type=file]')
    .setInputFiles(
      await apkFile('board-2.apk', { packageName: PKG, versionCode: 2, versionName: '2.0.0', label: LABEL }),
    );
  await page.getByTestId('apk-remark-version').fill('Faster ink');
  await snapshot(page, 'apk-version-dialog-en');
  await page.getByTestId('apk-form-version').getByRole('button', { name: 'OK' }).click();
  await expect(detail.getByTestId('apk-version-2')).toBeVisible({ timeout: 20_000 });
  await expect(detail.getByTestId('apk-version-2').getByTestId('apk-latest')).toBeVisible();
  await expect(detail.getByTestId('apk-version-1').getByTestId('apk-latest')).toHaveCount(0);
  await expect(detail.getByTestId('apk-remark-text-2')).toHaveText('Faster ink');

  await detail.getByTestId('apk-remark-edit-1').click();
  await page.getByTestId('apk-remark-input').fill('First classroom release');
  await snapshot(page, 'apk-remark-dialog-en');
  await page.getByTestId('apk-remark-modal').getByRole('button', { name: 'OK' }).click();
  await expect(detail.getByTestId('apk-remark-text-1')).toHaveText('First classroom release');

  // An auxiliary app of version 2, then its deletion.
  await detail.getByTestId('apk-version-2').getByText('Auxiliary apps (0)').click();
  await detail.getByTestId('apk-sub-upload-2').click();
  await page
    .getByTestId('apk-form-sub')
    .locator('input[type=file]')
    .setInputFiles(
      await apkFile('helper.apk', {
        packageName: HELPER,
        versionCode: 3,
        versionName: '0.3',
        label: 'Helper',
      }),
    );
  await snapshot(page, 'apk-sub-dialog-en');
  await page.getByTestId('apk-form-sub').getByRole('button', { name: 'OK' }).click();
  await expect(detail.getByTestId(`apk-sub-${HELPER}`)).toBeVisible({ timeout: 20_000 });
  await snapshot(page, 'apk-detail-en', { fullPage: true });
  await detail.getByTestId(`apk-sub-delete-${HELPER}`).click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(detail.getByTestId(`apk-sub-${HELPER}`)).toHaveCount(0);

  // Install version 2 on one panel, chosen by its key: the simulated panel downloads, verifies,
  // installs and reports the app.
  const panels = (await apiCall(page, url, device.listDevices, { start: 1, size: 50 })).listObject;
  const target = panels.find((d) => d.deviceKey === 'E2E-00001')!;
  await detail.getByTestId('apk-version-install-2').click();
  await page.getByTestId('apk-install-search').locator('input').fill('E2E-00001');
  const dialog = page.locator('.ant-modal', { has: page.getByTestId('apk-install-search') });
  await expect(dialog.locator('.ant-table-row')).toHaveCount(1);
  await dialog.locator('.ant-table-row .ant-checkbox-input').check();
  await snapshot(page, 'apk-install-dialog-en');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Installing on 1 panels')).toBeVisible();
  await expect
    .poll(
      async () =>
        (
          await apiCall(page, url, deviceDetail.listDeviceApps, { deviceId: target.deviceId })
        ).listObject.find((a) => a.packageName === PKG)?.versionName,
      { timeout: 30_000 },
    )
    .toBe('2.0.0');
});

test('zh-CN: the list, detail and dialogs', async ({ page }) => {
  await openApkView(page, 'zh-CN');
  await page.getByTestId('apk-search').locator('input').fill(run);
  await page.getByTestId('apk-search').locator('input').press('Enter');
  await expect(page.getByTestId(`apk-card-${PKG}`)).toBeVisible();
  await snapshot(page, 'apk-cards-zh');
  await page.getByTestId('apk-upload').click();
  await expect(page.getByTestId('apk-mark-0')).toBeVisible();
  await snapshot(page, 'apk-upload-dialog-zh');
  await page.getByTestId('apk-form-apk').getByRole('button', { name: '确 定' }).click();
  await expect(page.getByText('此项不能为空')).toBeVisible();
  await page.getByTestId('apk-form-apk').getByRole('button', { name: '取 消' }).click();
  await page.getByTestId(`apk-card-${PKG}`).click();
  const detail = page.getByTestId('apk-detail');
  await expect(detail.getByTestId('apk-version-2')).toBeVisible();
  await detail.getByTestId('apk-version-2').getByText('附属应用（0）').click();
  await snapshot(page, 'apk-detail-zh', { fullPage: true });
  await page.getByTestId('apk-upload-version').click();
  await snapshot(page, 'apk-version-dialog-zh');
  await page.getByTestId('apk-form-version').getByRole('button', { name: '取 消' }).click();
  await detail.getByTestId('apk-remark-edit-2').click();
  await snapshot(page, 'apk-remark-dialog-zh');
  await page.getByTestId('apk-remark-modal').getByRole('button', { name: '取 消' }).click();
  await detail.getByTestId('apk-version-install-2').click();
  await expect(page.getByTestId('apk-install-search')).toBeVisible();
  await snapshot(page, 'apk-install-dialog-zh');
  await page
    .locator('.ant-modal', { has: page.getByTestId('apk-install-search') })
    .getByRole('button', { name: '确 定' })
    .click();
  await expect(page.getByText('请至少选择一台设备')).toBeVisible();
  await page
    .locator('.ant-modal', { has: page.getByTestId('apk-install-search') })
    .getByRole('button', { name: '取 消' })
    .click();
  await detail.getByTestId('apk-sub-upload-2').click();
  await snapshot(page, 'apk-sub-dialog-zh');
  await page.getByTestId('apk-form-sub').getByRole('button', { name: '取 消' }).click();

  // Deleting both versions closes the panel and the card goes.
  for (const code of [1, 2]) {
    await detail.getByTestId(`apk-version-delete-${code}`).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: '确 定' }).click();
    if (code === 1) await expect(detail.getByTestId('apk-version-1')).toHaveCount(0);
  }
  await expect(page.getByTestId('apk-detail')).toHaveCount(0);
  await expect(page.getByTestId(`apk-card-${PKG}`)).toHaveCount(0);
  expect((await cards(page)).some((c) => c.packageName === PKG)).toBe(false);
});
