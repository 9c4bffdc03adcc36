import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type CDPSession, type Locator, type Page } from '@playwright/test';
import { device, ota, uploads } from '@panelfleet/contract';
import { apiCall } from '../support/api.js';
import { pickOption, pickOptions, switchLanguage } from '../support/antd.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';
import { tableFitsBothWidths } from '../support/layout.js';

// The OTA console against the e2e server's simulated panels of Riverside School (E2E-00001 oem,
// 00002 rs, 00003 x9_vn, 00004 oem, 00005 rs, 00006 x9_vn; all on 1.4.2): operator1 (type 4)
// uploads a firmware image for the rs series through the dialog (tus), describes it, tries a
// timed upgrade, then force-upgrades a label in two waves; the simulated panels verify, install
// and report, and the task list, its dialogs and the OTA log (sales1, type 1) show the results.
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-5);
const version = `1.9.${parseInt(run, 36) % 100_000}`;
const LABEL = `OTA rs ${run}`;
const LABEL_KEYS = ['E2E-00001', 'E2E-00002', 'E2E-00005'];
const RS_KEYS = ['E2E-00002', 'E2E-00005'];

test.describe.configure({ mode: 'serial' });

const rows = (scope: Page | Locator) => scope.locator('.ant-table-row');
const settled = (page: Page) => expect(page.locator('.ant-table .ant-spin-blur')).toHaveCount(0);
const confirmOk = (page: Page) =>
  page.locator('.ant-modal-confirm').getByRole('button', { name: /^(OK|确 ?定)$/ });

/** The input of an antd InputNumber (the test id lands on the input or on its wrapper). */
const numberInput = (scope: Locator, testId: string) =>
  scope.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();

/** Closes the dialog that holds `inner` with its close button, and waits until it has gone. */
async function close(page: Page, inner: Locator) {
  await page.locator('.ant-modal-wrap').filter({ has: inner }).locator('.ant-modal-close').click();
  await expect(inner).toBeHidden();
}

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

/** A dialog in both languages: opened, pictured and closed in English, then again in Chinese. */
async function dialogBothLanguages(page: Page, name: string, open: () => Promise<void>, dialog: Locator) {
  for (const language of ['en-US', 'zh-CN'] as const) {
    if (language === 'zh-CN') await switchLanguage(page, 'zh-CN');
    await open();
    await expect(dialog).toBeVisible();
    await settled(page);
    await snapshot(page, `${name}-${language}`);
    await close(page, dialog);
  }
  await switchLanguage(page, 'en-US');
}

/** A firmware image on disk (a stable file, as a person picks one: name, size and time stay). */
function firmware(name: string, megabytes: number) {
  const file = path.join(os.tmpdir(), `pf-e2e-${run}-${name}`);
  const fd = fs.openSync(file, 'w');
  for (let mb = 0; mb < megabytes; mb++) fs.writeSync(fd, crypto.randomBytes(1024 * 1024));
  fs.closeSync(fd);
  made.push(file);
  return file;
}
const made: string[] = [];
test.afterAll(() => {
  for (const file of made) fs.rmSync(file, { force: true });
});

/** Slows the browser's uploads (bytes per second; -1: full speed) so that the progress dialog can be seen. */
async function uploadRate(cdp: CDPSession, bytesPerSecond: number) {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

async function fleet(page: Page) {
  const list = await apiCall(page, url, device.listDevices, { start: 1, size: 50 });
  return list.listObject.filter((d) => d.deviceKey.startsWith('E2E-'));
}

const fileRow = (page: Page) => rows(page).filter({ hasText: version });
// Long enough to be ellipsised in the files table, which shows the whole of it on hover.
const IMAGE_NAME = 'pf-rs-firmware-for-the-classroom-panels-of-riverside-school.bin';

test('a customer administrator uploads firmware, describes it and force-upgrades a label in two waves', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await expect
    .poll(async () => (await fleet(page)).filter((d) => d.isOnline === '1').length, { timeout: 30_000 })
    .toBe(6);
  // The label the upgrade goes to: two rs panels and an oem panel the file does not fit.
  const panels = await fleet(page);
  const group = (await apiCall(page, url, device.insertGroup, { groupName: LABEL })).dataObject;
  await apiCall(page, url, device.saveGroupsAndDevices, {
    deviceIds: panels
      .filter((d) => LABEL_KEYS.includes(d.deviceKey))
      .map((d) => d.deviceId)
      .join(','),
    groupIds: String(group.groupId),
  });

  // The OTA management screen of a customer administrator: files, APKs, tasks, policies, versions, machine types, sources.
  await page.goto(`${url}/home/upgradeManage`);
  await expect(page.getByTestId('tab-ota-files')).toBeVisible();
  for (const tab of ['apk', 'renew', 'upgradeTactics', 'otaVersion', 'machineManage', 'sourceManage'])
    await expect(page.getByTestId(`sub-view-${tab}`)).toBeVisible();
  await bothLanguages(page, 'ota-files-empty');

  // The upload dialog: what is missing is said before anything is sent.
  await page.getByTestId('ota-upload').click();
  const form = page.getByTestId('ota-upload-form');
  await form.getByTestId('ota-upload-ok').click();
  await expect(form.getByText('Choose the firmware file')).toBeVisible();
  await expect(form.getByText('Enter the version the file installs')).toBeVisible();
  await expect(form.getByText('Choose at least one machine type')).toBeVisible();
  await snapshot(page, 'ota-upload-errors-en-US');

  // Upload 6 MB at 1.5 MB/s: the progress dialog shows MB done of MB total and cannot be closed.
  const image = firmware(IMAGE_NAME, 6);
  await form.locator('input[type="file"]').setInputFiles(image);
  await expect(form.getByTestId('ota-upload-chosen')).toContainText(`${IMAGE_NAME} (6.0 M)`);
  await form.getByTestId('ota-upload-version').fill(version);
  await pickOptions(page, form.getByTestId('ota-file-machine-types'), ['rs']);
  await form.getByTestId('ota-file-remark').fill('Faster start-up for the rs series');
  await snapshot(page, 'ota-upload-form-en-US');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await uploadRate(cdp, 1.5 * 1024 * 1024);
  await form.getByTestId('ota-upload-ok').click();
  const progress = page.getByTestId('upload-progress');
  await expect(progress).toBeVisible();
  await expect(progress.getByTestId('upload-progress-mb')).toContainText(/ of 6\.0 MB$/);
  await expect(progress.getByTestId('upload-progress-mb')).not.toContainText(/^0\.0 MB/);
  await snapshot(page, 'ota-upload-progress-en-US');
  await page.keyboard.press('Escape');
  await expect(progress).toBeVisible();
  await expect(progress).toBeHidden({ timeout: 30_000 });
  await uploadRate(cdp, -1);

  // Listed with the New badge, its hashes those of the bytes on disk.
  await expect(fileRow(page)).toBeVisible();
  await expect(fileRow(page).getByTestId('ota-file-new')).toBeVisible();
  const bytes = fs.readFileSync(image);
  const md5 = crypto.createHash('md5').update(bytes).digest('hex');
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  await bothLanguages(page, 'ota-files', async (p) => {
    await expect(p.getByRole('columnheader', { name: '文件名' })).toBeVisible();
    await expect(fileRow(p).getByTestId('ota-file-new')).toHaveText('新');
  });
  // The files table fits 1440 and 1366 px; the long file name ends in "…" and shows whole on hover.
  await tableFitsBothWidths(page, 'ota-files-table', async (p) => {
    const name = fileRow(p).getByTestId('ota-file-name');
    await expect(name).toContainText('pf-rs-firmware');
    expect(await name.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    await name.hover();
    await expect(p.locator('.ant-tooltip:visible')).toContainText(IMAGE_NAME);
    await p.mouse.move(0, 0);
    await expect(p.locator('.ant-tooltip:visible')).toHaveCount(0);
  });

  // A second file with the same version is refused; cancelling an upload deletes its bytes (in Chinese).
  await switchLanguage(page, 'zh-CN');
  await page.getByTestId('ota-upload').click();
  const second = firmware('pf-rs-again.bin', 8);
  await form.locator('input[type="file"]').setInputFiles(second);
  await form.getByTestId('ota-upload-version').fill(version);
  await pickOptions(page, form.getByTestId('ota-file-machine-types'), ['rs']);
  await snapshot(page, 'ota-upload-form-zh-CN');
  await uploadRate(cdp, 1024 * 1024);
  await form.getByTestId('ota-upload-ok').click();
  await expect(progress.getByTestId('upload-progress-mb')).toContainText(/^已上传 [1-9]/);
  await snapshot(page, 'ota-upload-progress-zh-CN');
  await page.getByTestId('upload-cancel').click();
  await expect(page.getByText('上传已取消，已上传的数据已删除')).toBeVisible();
  await expect(form).toBeVisible();
  await uploadRate(cdp, -1);
  await form.getByTestId('ota-upload-ok').click();
  await expect(page.getByText(`版本 ${version} 的文件已存在`)).toBeVisible({ timeout: 20_000 });
  await expect(form).toBeVisible();
  await snapshot(page, 'ota-upload-refused-zh-CN');
  await close(page, form);
  await switchLanguage(page, 'en-US');
  const listed = await apiCall(page, url, ota.listOtaFiles, { start: 1, size: 50 });
  expect(listed.listObject.filter((f) => f.otaVersion === version)).toHaveLength(1);

  // View: the hashes of the bytes sent, the signed manifest and the platform's key.
  const view = page.getByTestId('ota-file-view');
  await fileRow(page).getByTestId('row-view').click();
  await expect(view).toContainText(md5);
  await expect(view).toContainText(sha256);
  await expect(view.getByTestId('ota-file-manifest')).toContainText(`"version": "${version}"`);
  await close(page, view);
  await dialogBothLanguages(page, 'ota-file-view', () => fileRow(page).getByTestId('row-view').click(), view);

  // Edit: the remark and what it fits; the version stays.
  const edit = page.getByTestId('ota-file-edit');
  await dialogBothLanguages(page, 'ota-file-edit', () => fileRow(page).getByTestId('row-edit').click(), edit);
  await fileRow(page).getByTestId('row-edit').click();
  await edit.getByTestId('ota-file-remark').fill('Faster start-up and quieter fans for the rs series');
  await edit.getByTestId('ota-file-edit-ok').click();
  await expect(edit).toBeHidden();
  await expect(fileRow(page)).toContainText('quieter fans');

  // Descriptions, 5 a page: one in English, one in Chinese, a reminder edited, one viewed.
  await fileRow(page).getByTestId('row-descriptions').click();
  const descriptions = page.getByTestId('ota-descriptions');
  const describe = page.getByTestId('ota-description-form');
  await descriptions.getByTestId('description-add').click();
  await describe.getByTestId('ota-description-form-ok').click();
  await expect(describe.getByText('Enter the description')).toBeVisible();
  await snapshot(page, 'ota-description-add-errors-en-US');
  await pickOption(page, describe.getByTestId('ota-description-language'), 'en_US');
  await describe.getByTestId('ota-description-text').fill('Faster start-up, quieter fans.');
  await describe.getByTestId('ota-description-remind').fill('The panel restarts once.');
  await snapshot(page, 'ota-description-add-en-US');
  await describe.getByTestId('ota-description-form-ok').click();
  await expect(describe).toBeHidden();
  await descriptions.getByTestId('description-add').click();
  await pickOption(page, describe.getByTestId('ota-description-language'), 'zh_CN');
  await describe.getByTestId('ota-description-text').fill('启动更快，风扇更安静。');
  await describe.getByTestId('ota-description-form-ok').click();
  await expect(describe).toBeHidden();
  await expect(rows(descriptions)).toHaveCount(2);
  await snapshot(page, 'ota-descriptions-en-US');
  const chinese = rows(descriptions).filter({ hasText: 'zh_CN' });
  await chinese.getByTestId('description-remind').click();
  await describe.getByTestId('ota-description-remind').fill('更新时设备会重启一次。');
  await snapshot(page, 'ota-description-remind-en-US');
  await describe.getByTestId('ota-description-form-ok').click();
  await expect(describe).toBeHidden();
  await chinese.getByTestId('description-view').click();
  const shown = page.getByTestId('ota-description-view');
  await expect(shown).toContainText('启动更快，风扇更安静。');
  await expect(shown).toContainText('更新时设备会重启一次。');
  await snapshot(page, 'ota-description-view-en-US');
  await close(page, shown);
  await close(page, descriptions);
  await switchLanguage(page, 'zh-CN');
  await fileRow(page).getByTestId('row-descriptions').click();
  await expect(rows(descriptions)).toHaveCount(2);
  await snapshot(page, 'ota-descriptions-zh-CN');
  await rows(descriptions).filter({ hasText: 'en_US' }).getByTestId('description-edit').click();
  await snapshot(page, 'ota-description-edit-zh-CN');
  await close(page, describe);
  await rows(descriptions).filter({ hasText: 'en_US' }).getByTestId('description-view').click();
  await expect(shown).toContainText('Faster start-up, quieter fans.');
  await snapshot(page, 'ota-description-view-zh-CN');
  await close(page, shown);
  await close(page, descriptions);
  await switchLanguage(page, 'en-US');

  // A timed upgrade tomorrow: a scheduled task, which keeps the file from being deleted.
  const force = page.getByTestId('force-upgrade');
  await fileRow(page).getByTestId('row-force-upgrade').click();
  await force.getByTestId('force-ok').click();
  await expect(page.getByText('Choose at least one label')).toBeVisible();
  await force.locator(`[data-testid="force-label"][data-label="${LABEL}"]`).click();
  const pickable = force.getByTestId('force-devices');
  await expect(rows(pickable)).toHaveCount(2);
  for (const key of RS_KEYS) await expect(rows(pickable).filter({ hasText: key })).toHaveCount(1);
  // Before sending: how many panels the upgrade reaches, and the one of the label it leaves out.
  await expect(force.getByTestId('force-count')).toHaveText(
    `2 panels in ${LABEL}; 1 more in these labels that the file does not fit`,
  );
  await force.getByTestId('force-timed').click();
  const tomorrow = new Date(Date.now() + 24 * 3600_000);
  const when = `${tomorrow.toLocaleDateString('sv-SE')} 08:30`;
  const timeInput = force
    .locator('[data-testid="force-upgrade-time"] input, input[data-testid="force-upgrade-time"]')
    .first();
  await timeInput.click();
  await timeInput.fill(when);
  await page.locator('.ant-picker-dropdown:visible .ant-picker-ok button').click();
  await expect(timeInput).toHaveValue(when);
  await snapshot(page, 'ota-force-timed-en-US');
  await force.getByTestId('force-ok').click();
  await expect(page).toHaveURL(/\/home\/renew$/);
  const tasks = rows(page);
  await expect(tasks.first().getByTestId('task-state')).toHaveAttribute('data-state', 'scheduled');
  await tasks.first().getByTestId('task-view').click();
  const taskView = page.getByTestId('task-view-dialog');
  await expect(taskView).toContainText(`${tomorrow.toLocaleDateString('sv-SE')} 08:30:00`);
  await snapshot(page, 'ota-task-view-timed-en-US');
  await close(page, taskView);

  await page.getByTestId('tab-ota-files').click();
  await expect(page.getByTestId('ota-upload')).toBeVisible();
  await fileRow(page).getByTestId('row-delete').click();
  await confirmOk(page).click();
  await expect(page.getByText('The file is used by 1 unfinished task(s); cancel them first')).toBeVisible();
  await snapshot(page, 'ota-file-delete-refused-en-US');
  await expect(fileRow(page)).toBeVisible();

  // Cancel the timed task (after a confirmation).
  await page.getByTestId('sub-view-renew').click();
  await tasks.first().getByTestId('task-cancel').click();
  await snapshot(page, 'ota-task-cancel-confirm-en-US');
  await confirmOk(page).click();
  await expect(tasks.first().getByTestId('task-state')).toHaveAttribute('data-state', 'cancelled');

  // Now: two waves of one panel each; the simulated panels download, verify, install and report.
  await page.getByTestId('tab-ota-files').click();
  await expect(page.getByTestId('ota-upload')).toBeVisible();
  await fileRow(page).getByTestId('row-force-upgrade').click();
  // This test's label only: other specs leave labels of their own in the company.
  await force.locator(`[data-testid="force-label"][data-label="${LABEL}"]`).click();
  await force.locator('[data-testid="force-wave-mode"] input[value="count"]').click();
  await numberInput(force, 'force-first-wave').fill('1');
  await numberInput(force, 'force-wave-step').fill('1');
  await numberInput(force, 'force-min-results').fill('1');
  await snapshot(page, 'ota-force-waves-en-US');
  await force.getByTestId('force-ok').click();
  await expect(page).toHaveURL(/\/home\/renew$/);
  const task = tasks.first();
  await expect(task.getByTestId('task-state')).toHaveAttribute('data-state', /running|completed/);
  await snapshot(page, 'ota-tasks-running-en-US');
  await expect(task.getByTestId('task-state')).toHaveAttribute('data-state', 'completed', {
    timeout: 120_000,
  });
  await expect(task.getByTestId('task-progress')).toHaveAttribute('data-done', '3');
  await expect(task.getByTestId('task-progress')).toHaveAttribute('data-failed', '0');
  await bothLanguages(page, 'ota-tasks');
  // The progress label and "Wave 2 of 2" each keep to their place, at 1440 and 1366 px.
  await tableFitsBothWidths(page, 'ota-tasks-table', async () => {
    const progress = await task.getByTestId('task-progress').boundingBox();
    const wave = await task.getByTestId('task-wave').boundingBox();
    expect(progress && wave && wave.y >= progress.y + progress.height - 1).toBe(true);
  });

  // The view dialog: two waves, each done; the manage dialog: each panel's state.
  await dialogBothLanguages(page, 'ota-task-view', () => task.getByTestId('task-view').click(), taskView);
  await task.getByTestId('task-view').click();
  await expect(rows(taskView.getByTestId('task-waves'))).toHaveCount(2);
  await close(page, taskView);
  const manage = page.getByTestId('task-devices');
  await task.getByTestId('task-manage').click();
  for (const key of RS_KEYS)
    await expect(rows(manage).filter({ hasText: key }).getByTestId('target-state')).toHaveAttribute(
      'data-state',
      'succeeded',
    );
  const skipped = rows(manage).filter({ hasText: 'E2E-00001' });
  await expect(skipped.getByTestId('target-state')).toHaveAttribute('data-state', 'skipped');
  await expect(skipped).toContainText('the file does not fit this machine type');
  await close(page, manage);
  await dialogBothLanguages(page, 'ota-task-devices', () => task.getByTestId('task-manage').click(), manage);

  // The panels run the new version.
  await expect
    .poll(async () =>
      (await fleet(page)).filter((d) => RS_KEYS.includes(d.deviceKey)).map((d) => d.otaVersion),
    )
    .toEqual([version, version]);
  // The file is no longer new.
  await page.getByTestId('tab-ota-files').click();
  await expect(page.getByTestId('ota-upload')).toBeVisible();
  await expect(fileRow(page)).toBeVisible();
  await expect(fileRow(page).getByTestId('ota-file-new')).toHaveCount(0);
  await dialogBothLanguages(
    page,
    'ota-force-upgrade',
    () => fileRow(page).getByTestId('row-force-upgrade').click(),
    force,
  ); // The count in Chinese, before sending.
  await switchLanguage(page, 'zh-CN');
  await fileRow(page).getByTestId('row-force-upgrade').click();
  await force.locator(`[data-testid="force-label"][data-label="${LABEL}"]`).click();
  await expect(force.getByTestId('force-count')).toHaveText(
    `${LABEL} 中的 2 台面板；这些标签中另有 1 台与此文件不匹配`,
  );
  await snapshot(page, 'ota-force-count-zh-CN');
  await close(page, force);
  await switchLanguage(page, 'en-US');
});

test('OTA staff read the OTA log of the upgrade, filter it, and keep upgrade policies', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, 'normal', 'sales1', 'sales123', 'en-US');
  // The distributor's OTA management: its own files (none yet), no force upgrade, nothing refused.
  await page.goto(`${url}/home/otaPromote`);
  await expect(page.getByTestId('ota-upload')).toBeVisible();
  await settled(page);
  await expect(page.getByTestId('sub-view-warningMsg')).toBeVisible();
  await expect(page.getByTestId('row-force-upgrade')).toHaveCount(0);
  await expect(page.locator('.ant-notification-notice-error')).toHaveCount(0);
  await bothLanguages(page, 'ota-files-distributor');
  await page.goto(`${url}/home/otaLog`);
  await expect(page.getByTestId('tab-abnormal-log')).toBeVisible();
  await page.getByTestId('ota-log-version').fill(version);
  await page.getByTestId('list-search-button').click();
  const log = rows(page);
  for (const key of RS_KEYS)
    await expect(log.filter({ hasText: key }).filter({ hasText: 'Update success' }).first()).toBeVisible();
  // A panel the file does not fit was skipped, and those of the cancelled timed task cancelled:
  // the log says so, and calls nothing "Abnormal".
  const status = (key: string, state: string) =>
    log.filter({ hasText: key }).locator(`[data-testid="ota-log-status"][data-state="${state}"]`).first();
  await expect(status('E2E-00001', 'skipped')).toHaveText('Skipped');
  await expect(status('E2E-00002', 'cancelled')).toHaveText('Cancelled');
  await expect(page.getByTestId('ota-log-status').filter({ hasText: 'Abnormal' })).toHaveCount(0);
  await bothLanguages(page, 'ota-log', async (p) => {
    await expect(rows(p).filter({ hasText: '更新成功' }).first()).toBeVisible();
    await expect(status('E2E-00001', 'skipped')).toHaveText('已跳过');
    await expect(status('E2E-00002', 'cancelled')).toHaveText('已取消');
    await expect(p.getByTestId('ota-log-status').filter({ hasText: '异常' })).toHaveCount(0);
  });
  await pickOption(page, page.getByTestId('ota-log-status-filter'), 'Update success');
  await page.getByTestId('ota-log-device').fill('E2E-00005');
  await page.getByTestId('list-search-button').click();
  await expect(log.filter({ hasText: 'E2E-00005' }).first()).toBeVisible();
  await expect(log.filter({ hasText: 'E2E-00002' })).toHaveCount(0);
  await expect(log.filter({ hasText: 'Skipped' })).toHaveCount(0);
  await snapshot(page, 'ota-log-filtered-en-US');
  await page.getByTestId('tab-abnormal-log').click();
  await expect(page).toHaveURL(/\/home\/abnormalLog$/);
  await bothLanguages(page, 'ota-log-abnormal-tab');

  // The task list reads the customer's task without steering it.
  await page.goto(`${url}/home/renew`);
  await expect(rows(page).filter({ hasText: version }).first()).toBeVisible();
  await expect(page.getByTestId('task-cancel')).toHaveCount(0);
  await bothLanguages(page, 'ota-tasks-read-only');

  // Policies: add (name and one filter needed), the IP whitelist, a time-zone window, serial numbers.
  const name = `Campus ${run}`;
  await page.goto(`${url}/home/upgradeTactics`);
  await bothLanguages(page, 'ota-policies-empty');
  const policy = page.getByTestId('policy-form');
  await page.getByTestId('list-add').click();
  await policy.getByTestId('policy-enable-timezone').click();
  await policy.getByTestId('policy-form-ok').click();
  await expect(policy.getByText('The name cannot be empty')).toBeVisible();
  await expect(policy.getByText('IP, time zone and serial number cannot all be off')).toBeVisible();
  await snapshot(page, 'ota-policy-errors-en-US');
  await policy.getByTestId('policy-name').fill(name);
  await policy.getByTestId('policy-enable-ip').click();
  await policy.getByTestId('policy-enable-timezone').click();
  await policy.getByTestId('policy-enable-sn').click();
  await policy.getByTestId('policy-remark').fill('After lessons, school network only');
  await policy.getByTestId('policy-form-ok').click();
  await expect(policy).toBeHidden();
  const rule = rows(page).filter({ hasText: name });
  await expect(rule).toBeVisible();
  await dialogBothLanguages(page, 'ota-policy-edit', () => rule.getByTestId('row-edit').click(), policy);

  const ips = page.getByTestId('policy-ips');
  await rule.getByTestId('policy-ip').click();
  await ips.getByTestId('policy-ip-input').fill('300.1.2.3');
  await ips.getByTestId('policy-ip-add').click();
  await expect(ips.getByTestId('policy-ip-error')).toHaveText(
    'Enter a valid IP address (or a CIDR block such as 10.0.0.0/8)',
  );
  await snapshot(page, 'ota-policy-ip-invalid-en-US');
  await ips.getByTestId('policy-ip-input').fill('10.20.0.0/16');
  await ips.getByTestId('policy-ip-add').click();
  await expect(rows(ips).filter({ hasText: '10.20.0.0/16' })).toBeVisible();
  await close(page, ips);
  await dialogBothLanguages(page, 'ota-policy-ips', () => rule.getByTestId('policy-ip').click(), ips);

  const zones = page.getByTestId('policy-zones');
  const zone = page.getByTestId('zone-form');
  await rule.getByTestId('policy-zone').click();
  await zones.getByTestId('zone-add').click();
  await zone.getByTestId('zone-form-ok').click();
  await expect(zone.getByText('The time cannot be empty')).toBeVisible();
  await zone.getByTestId('zone-time-zone').click();
  await page.keyboard.type('GMT+08');
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: 'GMT+08:00' })
    .click();
  const start = zone
    .locator('[data-testid="zone-start-time"] input, input[data-testid="zone-start-time"]')
    .first();
  await start.click();
  await start.fill('2026-12-01 18:30:00');
  await page.locator('.ant-picker-dropdown:visible .ant-picker-ok button').click();
  await zone.getByTestId('zone-remark').fill('after lessons');
  await snapshot(page, 'ota-policy-zone-add-en-US');
  await zone.getByTestId('zone-form-ok').click();
  await expect(zone).toBeHidden();
  await expect(rows(zones).filter({ hasText: 'GMT+08:00' })).toContainText('2026-12-01 18:30:00');
  await snapshot(page, 'ota-policy-zones-en-US');
  await close(page, zones);
  await switchLanguage(page, 'zh-CN');
  await rule.getByTestId('policy-zone').click();
  await rows(zones).first().getByTestId('zone-edit').click();
  await snapshot(page, 'ota-policy-zone-edit-zh-CN');
  await close(page, zone);
  await snapshot(page, 'ota-policy-zones-zh-CN');
  await close(page, zones);
  await switchLanguage(page, 'en-US');

  const sns = page.getByTestId('policy-sns');
  await rule.getByTestId('policy-sn').click();
  await sns.getByTestId('policy-sn-text').fill('E2E-00002\nE2E-00005, E2E-00002');
  await sns.getByTestId('policy-sn-add').click();
  await expect(page.getByText('2 added, 2 on the list')).toBeVisible();
  await expect(rows(sns)).toHaveCount(2);
  await close(page, sns);
  await dialogBothLanguages(page, 'ota-policy-sns', () => rule.getByTestId('policy-sn').click(), sns);
  await expect(rule.getByTestId('policy-filters')).toContainText('2');
  await bothLanguages(page, 'ota-policies');

  await rule.getByTestId('row-delete').click();
  await confirmOk(page).click();
  await expect(rule).toHaveCount(0);
});

test('the platform keeps the OTA version catalog; versions in use are locked', async ({ page }) => {
  const name = `2.0.${parseInt(run, 36) % 100_000}`;
  await signIn(page, 'normal', 'admin', 'admin123', 'en-US');
  await page.goto(`${url}/home/otaPromote`);
  await page.getByTestId('sub-view-otaVersion').click();
  await expect(page).toHaveURL(/\/home\/otaVersion$/);
  const form = page.getByTestId('ota-version-form');
  await page.getByTestId('list-add').click();
  await form.getByTestId('ota-version-form-ok').click();
  await expect(form.getByText('Enter the version number')).toBeVisible();
  await snapshot(page, 'ota-version-add-errors-en-US');
  await form.getByTestId('ota-version-name').fill(name);
  await form.getByTestId('ota-version-form-ok').click();
  await expect(form).toBeHidden();
  const row = rows(page).filter({ hasText: name });
  await expect(row).toBeVisible();
  await dialogBothLanguages(page, 'ota-version-edit', () => row.getByTestId('row-edit').click(), form);
  await row.getByTestId('row-edit').click();
  await form.locator('[data-testid="ota-version-enable"] input[value="0"]').click();
  await form.getByTestId('ota-version-form-ok').click();
  await expect(row).toContainText('Disabled');
  // 1.4.2 is what the simulated panels reported before the upgrade: referenced, so locked.
  const listedOld = await apiCall(page, url, ota.listOtaVersions, { start: 1, size: 5, otaVersion: '1.4.2' });
  if (!listedOld.listObject.some((v) => v.otaVersion === '1.4.2'))
    await apiCall(page, url, ota.insertOtaVersion, { otaVersion: '1.4.2', enable: '1' });
  await page.getByTestId('list-search').fill('1.4.2');
  await page.getByTestId('list-search-button').click();
  const used = rows(page).filter({ hasText: '1.4.2' }).first();
  await expect(used.getByTestId('ota-version-references')).not.toHaveText('0');
  await expect(used.getByTestId('row-edit')).toBeDisabled();
  await expect(used.getByTestId('row-delete')).toBeDisabled();
  await snapshot(page, 'ota-versions-locked-en-US');
  await page.getByTestId('list-refresh').click();
  await bothLanguages(page, 'ota-versions');
  await row.getByTestId('row-delete').click();
  await confirmOk(page).click();
  await expect(row).toHaveCount(0);
});

test('an upload cut off by a reload resumes where it stopped, and its partial file is never listed', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const resumed = `${version}.1`;
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/upgradeManage`);
  // 100 MB, generated for this run (not committed), sent at 2 MB/s until the cut.
  const image = firmware('pf-rs-resume.bin', 100);
  const form = page.getByTestId('ota-upload-form');
  const progress = page.getByTestId('upload-progress');
  const fill = async () => {
    await form.locator('input[type="file"]').setInputFiles(image);
    await form.getByTestId('ota-upload-version').fill(resumed);
    await pickOptions(page, form.getByTestId('ota-file-machine-types'), ['rs']);
  };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await uploadRate(cdp, 2 * 1024 * 1024);
  await page.getByTestId('ota-upload').click();
  await fill();
  await expect(form.getByTestId('ota-upload-chosen')).toContainText('pf-rs-resume.bin (100.0 M)');
  await form.getByTestId('ota-upload-ok').click();
  const mb = progress.getByTestId('upload-progress-mb');
  await expect(mb).toContainText(/^([3-9]|1\d)\.\d MB of 100\.0 MB$/, { timeout: 30_000 });
  await snapshot(page, 'ota-upload-100mb-progress-en-US');
  // The browser keeps the upload's address under the file's fingerprint.
  const stored = await page.evaluate(() =>
    Object.entries(localStorage)
      .filter(([key]) => key.startsWith('tus::'))
      .map(([, value]) => (JSON.parse(value) as { uploadUrl: string }).uploadUrl),
  );
  expect(stored).toHaveLength(1);
  const uploadId = stored[0]!.split('/').pop()!;

  // The tab reloads mid-upload: the server holds part of the bytes, and no file is listed for them.
  await page.reload();
  const partial = (await apiCall(page, url, uploads.getUpload, { uploadId })).dataObject;
  expect(partial.state).toBe('receiving');
  expect(partial.offset).toBeGreaterThan(0);
  expect(partial.offset).toBeLessThan(100 * 1024 * 1024);
  const listed = await apiCall(page, url, ota.listOtaFiles, { start: 1, size: 50 });
  expect(listed.listObject.some((f) => f.otaVersion === resumed)).toBe(false);

  // Choosing the same file again says it resumes, and it does: the same upload becomes the file.
  await page.getByTestId('ota-upload').click();
  await fill();
  await expect(form.getByTestId('ota-upload-resumable')).toBeVisible();
  await snapshot(page, 'ota-upload-resumable-en-US');
  // The rest at 25 MB/s, sent from the offset the server kept (the tus PATCH says where it starts).
  const sentFrom: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && request.url().endsWith(`/${uploadId}`))
      sentFrom.push(Number(request.headers()['upload-offset']));
  });
  await uploadRate(cdp, 25 * 1024 * 1024);
  await form.getByTestId('ota-upload-ok').click();
  await expect(form).toBeHidden();
  await expect(mb).toContainText(/ MB of 100\.0 MB$/);
  await snapshot(page, 'ota-upload-100mb-resumed-en-US');
  await expect(progress).toBeHidden({ timeout: 120_000 });
  await uploadRate(cdp, -1);
  expect(sentFrom.length).toBeGreaterThan(0);
  expect(sentFrom[0]).toBeGreaterThanOrEqual(partial.offset);
  expect(sentFrom[0]).toBeLessThan(100 * 1024 * 1024);
  await expect(fileRow(page).filter({ hasText: resumed })).toBeVisible();
  // The cut upload was the one made into the file (a new upload would have left it receiving).
  await expect(apiCall(page, url, uploads.getUpload, { uploadId })).rejects.toThrow(/does not exist/);
  const made = (await apiCall(page, url, ota.listOtaFiles, { start: 1, size: 50 })).listObject.find(
    (f) => f.otaVersion === resumed,
  );
  expect(made?.sha256).toBe(crypto.createHash('sha256').update(fs.readFileSync(image)).digest('hex'));
  expect(
    await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tus::')).length),
  ).toBe(0);
});

test('a staged upgrade of two labels pauses when a wave fails, resumes, and the OTA log shows every result', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const staged = `${version}.2`;
  const wings = [`Wing A ${run}`, `Wing B ${run}`];
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await expect
    .poll(async () => (await fleet(page)).filter((d) => d.isOnline === '1').length, { timeout: 30_000 })
    .toBe(6);
  // Two labels of three panels each; the file fits oem and rs, so the x9_vn panels (00003, 00006) are skipped.
  const panels = await fleet(page);
  const members = [
    ['E2E-00001', 'E2E-00002', 'E2E-00003'],
    ['E2E-00004', 'E2E-00005', 'E2E-00006'],
  ];
  for (const [i, name] of wings.entries()) {
    const label = (await apiCall(page, url, device.insertGroup, { groupName: name })).dataObject;
    await apiCall(page, url, device.saveGroupsAndDevices, {
      deviceIds: panels
        .filter((d) => members[i]!.includes(d.deviceKey))
        .map((d) => d.deviceId)
        .join(','),
      groupIds: String(label.groupId),
    });
  }
  // Waves of two panels by device id: the first panel of wave 1 receives a corrupted image (the
  // simulator's fault hook), so wave 1 ends with 1 of 2 failed, over the 30% threshold.
  const eligible = panels
    .filter((d) => ['oem', 'rs'].includes(d.machineType))
    .sort((a, b) => a.deviceId - b.deviceId)
    .map((d) => d.deviceKey);
  expect(eligible).toHaveLength(4);
  const [failing, passing, cancelled, last] = eligible as [string, string, string, string];
  const hook = await page.request.post(`${url}/e2e/panels/${failing}/corrupt-next-ota`, {
    headers: { Origin: url },
  });
  expect(hook.ok()).toBe(true);

  await page.goto(`${url}/home/upgradeManage`);
  await page.getByTestId('ota-upload').click();
  const form = page.getByTestId('ota-upload-form');
  await form.locator('input[type="file"]').setInputFiles(firmware('pf-wings.bin', 2));
  await form.getByTestId('ota-upload-version').fill(staged);
  await pickOptions(page, form.getByTestId('ota-file-machine-types'), ['oem', 'rs']);
  await form.getByTestId('ota-upload-ok').click();
  await expect(form).toBeHidden({ timeout: 30_000 });
  const row = rows(page).filter({ hasText: staged });
  await expect(row).toBeVisible();

  // Force upgrade: both labels, waves of 2 panels, pause when more than 30% of at least 2 results
  // fail. Filled in English and closed, then again in Chinese and sent.
  const force = page.getByTestId('force-upgrade');
  const fillForce = async () => {
    await row.getByTestId('row-force-upgrade').click();
    for (const name of wings)
      await force.locator(`[data-testid="force-label"][data-label="${name}"]`).click();
    await expect(rows(force.getByTestId('force-devices'))).toHaveCount(4);
    await force.locator('[data-testid="force-wave-mode"] input[value="count"]').click();
    await numberInput(force, 'force-first-wave').fill('2');
    await numberInput(force, 'force-wave-step').fill('2');
    await numberInput(force, 'force-failure-share').fill('30');
    await numberInput(force, 'force-min-results').fill('2');
  };
  await fillForce();
  await snapshot(page, 'ota-force-two-labels-en-US');
  await close(page, force);
  await switchLanguage(page, 'zh-CN');
  await fillForce();
  await snapshot(page, 'ota-force-two-labels-zh-CN');
  await force.getByTestId('force-ok').click();
  await expect(page).toHaveURL(/\/home\/renew$/);
  await switchLanguage(page, 'en-US');

  // Wave 1 fails its share: the task pauses itself and says why; wave 2 has not started.
  const task = rows(page).filter({ hasText: staged }).first();
  await expect(task.getByTestId('task-state')).toHaveAttribute('data-state', 'paused', { timeout: 120_000 });
  await expect(task.getByTestId('task-progress')).toHaveAttribute('data-failed', '1');
  const taskView = page.getByTestId('task-view-dialog');
  await task.getByTestId('task-view').click();
  await expect(taskView.getByTestId('task-state-reason')).toContainText(
    'Paused: 1 of 2 results of wave 1 failed (50%, more than 30%)',
  );
  await expect(rows(taskView.getByTestId('task-waves'))).toHaveCount(2);
  await close(page, taskView);
  await dialogBothLanguages(page, 'ota-task-paused', () => task.getByTestId('task-view').click(), taskView);

  // The manage dialog: the failed panel with its reason, wave 2 still queued; one of it is cancelled.
  const manage = page.getByTestId('task-devices');
  const target = (key: string) => rows(manage).filter({ hasText: key });
  await task.getByTestId('task-manage').click();
  await expect(target(failing).getByTestId('target-state')).toHaveAttribute('data-state', 'failed');
  await expect(target(failing)).toContainText("the image's SHA-256 does not match");
  await expect(target(passing).getByTestId('target-state')).toHaveAttribute('data-state', 'succeeded');
  for (const key of [cancelled, last])
    await expect(target(key).getByTestId('target-state')).toHaveAttribute('data-state', 'queued');
  await target(cancelled).getByTestId('task-device-cancel').click();
  await snapshot(page, 'ota-task-cancel-one-confirm-en-US');
  await confirmOk(page).click();
  await expect(target(cancelled).getByTestId('target-state')).toHaveAttribute('data-state', 'cancelled');
  await expect(target(cancelled)).toContainText('cancelled by the operator');
  await expect(target(last).getByTestId('target-state')).toHaveAttribute('data-state', 'queued');
  // The skipped panels (the list is 5 a page; the state filter shows them together).
  await pickOption(page, manage.getByTestId('task-devices-state'), 'Skipped');
  await expect(rows(manage)).toHaveCount(2);
  for (const key of ['E2E-00003', 'E2E-00006']) {
    await expect(target(key).getByTestId('target-state')).toHaveAttribute('data-state', 'skipped');
    await expect(target(key)).toContainText('the file does not fit this machine type');
  }
  await close(page, manage);
  await dialogBothLanguages(
    page,
    'ota-task-devices-paused',
    () => task.getByTestId('task-manage').click(),
    manage,
  );

  // The operator accepts wave 1 and resumes: wave 2 runs and the task completes.
  await task.getByTestId('task-view').click();
  await taskView.page().getByTestId('task-view-resume').click();
  await snapshot(page, 'ota-task-resume-confirm-en-US');
  await confirmOk(page).click();
  await expect(task.getByTestId('task-state')).toHaveAttribute('data-state', /running|completed/);
  await snapshot(page, 'ota-task-waves-running-en-US');
  await close(page, taskView);
  await expect(task.getByTestId('task-state')).toHaveAttribute('data-state', 'completed', {
    timeout: 120_000,
  });
  // Done: 2 succeeded, 1 cancelled, 2 skipped; failed: 1.
  await expect(task.getByTestId('task-progress')).toHaveAttribute('data-done', '5');
  await expect(task.getByTestId('task-progress')).toHaveAttribute('data-failed', '1');
  await expect(task.getByTestId('task-progress')).toHaveAttribute('data-total', '6');
  await dialogBothLanguages(
    page,
    'ota-task-completed',
    () => task.getByTestId('task-view').click(),
    taskView,
  );
  await expect
    .poll(async () =>
      Object.fromEntries((await fleet(page)).map((d) => [d.deviceKey, d.otaVersion === staged])),
    )
    .toEqual({
      'E2E-00001': false,
      'E2E-00002': false,
      'E2E-00003': false,
      'E2E-00004': false,
      'E2E-00005': false,
      'E2E-00006': false,
      [passing]: true,
      [last]: true,
    });

  // The OTA log of the version (OTA staff, as in the OTA log test): succeeded, failed with the
  // reason, cancelled and skipped.
  await page.context().clearCookies();
  await signIn(page, 'normal', 'sales1', 'sales123', 'en-US');
  await page.goto(`${url}/home/otaLog`);
  await page.getByTestId('ota-log-version').fill(staged);
  await page.getByTestId('list-search-button').click();
  const log = (key: string) => rows(page).filter({ hasText: key }).filter({ hasText: staged });
  await expect(rows(page).first()).toBeVisible();
  await bothLanguages(page, 'ota-log-staged', async (p) => {
    await expect(rows(p).filter({ hasText: '更新成功' }).first()).toBeVisible();
  });
  // By status (the list is 5 a page): each panel once, with its result.
  const byStatus = async (status: string, keys: string[]) => {
    await pickOption(page, page.getByTestId('ota-log-status-filter'), status);
    await page.getByTestId('list-search-button').click();
    await settled(page);
    await expect(rows(page)).toHaveCount(keys.length);
    for (const key of keys) await expect(log(key)).toHaveCount(1);
  };
  await byStatus('Update success', [passing, last]);
  await byStatus('Update failed', [failing]);
  await expect(log(failing)).toContainText("Failed: the image's SHA-256 does not match");
  await snapshot(page, 'ota-log-staged-failed-en-US');
  await byStatus('Skipped or cancelled', [cancelled, 'E2E-00003', 'E2E-00006']);
  await expect(log(cancelled)).toContainText('Cancelled: cancelled by the operator');
  for (const key of ['E2E-00003', 'E2E-00006'])
    await expect(log(key)).toContainText('Skipped: the file does not fit this machine type');
  await switchLanguage(page, 'zh-CN');
  await expect(log(cancelled)).toContainText('已取消');
  await snapshot(page, 'ota-log-staged-skipped-zh-CN');
  await switchLanguage(page, 'en-US');
});
