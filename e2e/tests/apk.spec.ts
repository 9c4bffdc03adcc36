import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apk, device, deviceDetail, uploads } from '@panelfleet/contract';
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
const INSTALL_LABEL = `apk ${run}`;
/** The panels of the label the install goes to; the first renews its app. */
const RENEW_KEYS = ['E2E-00001', 'E2E-00002'];
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

test('upload an APK: the card shows the label and icon read from it; cancel a slow upload, resume one cut by a reload', async ({
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

  // The same APK again, cut by a reload at a few MB: choosing it again resumes that upload.
  const fillBig = async () => {
    await page.getByTestId('apk-upload').click();
    await page.getByTestId('apk-form-apk').locator('input[type=file]').setInputFiles(big);
    for (const [i, part] of ['RS', 'BIG', '24', 'X'].entries())
      await page.getByTestId(`apk-mark-${i}`).fill(part);
    await page.getByTestId('apk-form-apk').getByRole('button', { name: 'OK' }).click();
  };
  await fillBig();
  await expect(page.getByTestId('apk-progress-mb')).toHaveText(/^[2-9]\.\d MB \/ 12\.\d MB$/, {
    timeout: 20_000,
  });
  const stored = await page.evaluate(() =>
    Object.entries(localStorage)
      .filter(([key]) => key.startsWith('tus::'))
      .map(([, value]) => (JSON.parse(value) as { uploadUrl: string }).uploadUrl),
  );
  expect(stored).toHaveLength(1);
  const uploadId = stored[0]!.split('/').pop()!;
  await page.reload();
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const partial = (await apiCall(page, url, uploads.getUpload, { uploadId })).dataObject;
  expect(partial.offset).toBeGreaterThan(0);
  expect(partial.offset).toBeLessThan(12 * 1024 * 1024);
  expect((await cards(page)).some((c) => c.packageName === `${PKG}.big`)).toBe(false);
  await fillBig();
  await expect(page.getByTestId(`apk-card-${PKG}.big`)).toBeVisible({ timeout: 30_000 });
  // The cut upload became the APK (a new upload would have left it receiving).
  await expect(apiCall(page, url, uploads.getUpload, { uploadId })).rejects.toThrow(/does not exist/);

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

  // Install version 1 on a label of the e2e fleet: the dialog chooses panels by key or name, or
  // labels; the install task's panels then show their states until both are done.
  const panels = (await apiCall(page, url, device.listDevices, { start: 1, size: 50 })).listObject;
  const members = panels.filter((d) => RENEW_KEYS.includes(d.deviceKey));
  const group = (await apiCall(page, url, device.insertGroup, { groupName: INSTALL_LABEL })).dataObject;
  await apiCall(page, url, device.saveGroupsAndDevices, {
    deviceIds: members.map((d) => d.deviceId).join(','),
    groupIds: String(group.groupId),
  });
  await detail.getByTestId('apk-version-install-1').click();
  const dialog = page.locator('.ant-modal', { has: page.getByTestId('apk-install-target') });
  // The header box chooses every panel on every page (5 a page), and the count says so.
  const everyPanel = (await apiCall(page, url, device.listDevices, { start: 1, size: 50 })).totalRecords;
  expect(everyPanel).toBeGreaterThan(5);
  await dialog.getByTestId('apk-install-all-panels').click();
  await expect(dialog.getByTestId('apk-install-count')).toHaveText(`${everyPanel} panels chosen`);
  await dialog.locator('.ant-pagination-item-2').click();
  await expect(dialog.locator('.ant-table-row .ant-checkbox-input:checked')).toHaveCount(everyPanel - 5);
  await dialog.getByTestId('apk-install-all-panels').click();
  await expect(dialog.getByTestId('apk-install-count')).toHaveCount(0);
  await page.getByTestId('apk-install-search').locator('input').fill('E2E-00001');
  await expect(dialog.locator('.ant-table-row')).toHaveCount(1);
  await dialog.locator('.ant-table-row .ant-checkbox-input').check();
  await snapshot(page, 'apk-install-dialog-en');
  await dialog.getByText('Labels', { exact: true }).click();
  await dialog.locator(`[data-testid="apk-install-label"][data-label="${INSTALL_LABEL}"]`).click();
  // Before the install: the panels the label reaches.
  await expect(dialog.getByTestId('apk-install-count')).toHaveText(`2 panels in ${INSTALL_LABEL}`);
  await snapshot(page, 'apk-install-labels-en');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Installing on 2 panels')).toBeVisible();
  const task = page.getByTestId('apk-task');
  await expect(task.getByTestId('target-state')).toHaveCount(2);
  await expect(task.getByTestId('task-progress')).toHaveAttribute('data-done', '2', { timeout: 30_000 });
  await expect(task.locator('[data-testid=target-state][data-state=succeeded]')).toHaveCount(2, {
    timeout: 10_000,
  });
  await snapshot(page, 'apk-install-task-en');
  await page.locator('.ant-modal', { has: task }).locator('.ant-modal-close').click();
});

test("renew an app from a panel's apps tab: the newer version of the repository is installed", async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  const target = (await apiCall(page, url, device.listDevices, { start: 1, size: 50 })).listObject.find(
    (d) => d.deviceKey === RENEW_KEYS[0],
  )!;
  await page.goto(`${url}/home/deviceManage`);
  await page.getByTestId('list-search').fill(target.deviceKey);
  await page.getByTestId('list-search-button').click();
  await page
    .getByTestId('device-list')
    .getByTestId('device-name')
    .filter({ hasText: target.deviceKey })
    .click();
  const modal = page.locator('.ant-modal', { has: page.getByTestId('detail-title') });
  await expect(modal.getByTestId('detail-online')).toHaveAttribute('data-online', '1');
  const apps = modal.getByTestId('detail-apps');
  // The tab may be clicked while the dialog still opens: until the apps show.
  await expect(async () => {
    await modal.getByRole('tab', { name: 'Apps' }).click();
    await expect(apps).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  const row = apps.locator('.ant-table-row', { hasText: LABEL });
  await expect(row.getByTestId(`app-new-version-${PKG}`)).toHaveText('2.0.0');
  await expect(apps.getByTestId('apps-renew')).toBeDisabled();
  await row.locator('input[type="checkbox"]').check();
  await expect(apps.getByTestId('apps-renew')).toBeEnabled();
  await snapshot(page, 'device-apps-renew-en');
  await apps.getByTestId('apps-renew').click();
  await expect(page.getByText(`Renewing on the panel: ${LABEL}`)).toBeVisible();
  await expect
    .poll(
      async () =>
        (
          await apiCall(page, url, deviceDetail.listDeviceApps, { deviceId: target.deviceId })
        ).listObject.find((a) => a.packageName === PKG)?.versionName,
      { timeout: 30_000 },
    )
    .toBe('2.0.0');
  await apps.getByTestId('apps-refresh').click();
  await expect(row.getByText('2.0.0')).toBeVisible();
  await expect(row.getByTestId(`app-new-version-${PKG}`)).toHaveCount(0);
  await snapshot(page, 'device-apps-renewed-en');

  // The renew is an install task like any other.
  await page.goto(`${url}/home/apk`);
  await page.getByTestId('apk-install-tasks').click();
  await expect(
    page.getByTestId('apk-tasks').locator('.ant-table-row', { hasText: `${PKG} 2.0.0` }),
  ).toBeVisible();
  await snapshot(page, 'apk-install-tasks-en');
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
  const installDialog = page.locator('.ant-modal', { has: page.getByTestId('apk-install-target') });
  await installDialog.getByText('标签', { exact: true }).click();
  await expect(
    installDialog.locator(`[data-testid="apk-install-label"][data-label="${INSTALL_LABEL}"]`),
  ).toBeVisible();
  await snapshot(page, 'apk-install-labels-zh');
  await installDialog.getByText('所选设备', { exact: true }).click();
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

  // The second panel of the label still has version 1: its apps tab offers 2.0.0.
  const second = (await apiCall(page, url, device.listDevices, { start: 1, size: 50 })).listObject.find(
    (d) => d.deviceKey === RENEW_KEYS[1],
  )!;
  await page.goto(`${url}/home/deviceManage`);
  await page.getByTestId('list-search').fill(second.deviceKey);
  await page.getByTestId('list-search-button').click();
  await page
    .getByTestId('device-list')
    .getByTestId('device-name')
    .filter({ hasText: second.deviceKey })
    .click();
  const panelModal = page.locator('.ant-modal', { has: page.getByTestId('detail-title') });
  const apps = panelModal.getByTestId('detail-apps');
  await expect(async () => {
    await panelModal.getByRole('tab', { name: '应用' }).click();
    await expect(apps).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  const row = apps.locator('.ant-table-row', { hasText: LABEL });
  await expect(row.getByTestId(`app-new-version-${PKG}`)).toHaveText('2.0.0');
  await row.locator('input[type="checkbox"]').check();
  await snapshot(page, 'device-apps-renew-zh');
  await panelModal.locator('.ant-modal-close').first().click();
  await page.goto(`${url}/home/apk`);
  await page.getByTestId('apk-search').locator('input').fill(run);
  await page.getByTestId('apk-search').locator('input').press('Enter');

  // The install tasks: the label's install and the renew, each with its panels.
  await page.getByTestId('apk-install-tasks').click();
  const tasks = page.getByTestId('apk-tasks');
  await expect(tasks.locator('.ant-table-row', { hasText: PKG })).toHaveCount(2);
  await snapshot(page, 'apk-install-tasks-zh');
  await tasks
    .locator('.ant-table-row', { hasText: `${PKG} 1.0.0` })
    .getByTestId('apk-task-view')
    .click();
  await expect(page.getByTestId('apk-task').getByTestId('target-state')).toHaveCount(2);
  await snapshot(page, 'apk-install-task-zh');
  await page
    .locator('.ant-modal', { has: page.getByTestId('apk-task') })
    .locator('.ant-modal-close')
    .click();
  await page.locator('.ant-modal', { has: tasks }).locator('.ant-modal-close').click();
  await page.getByTestId(`apk-card-${PKG}`).click();

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
