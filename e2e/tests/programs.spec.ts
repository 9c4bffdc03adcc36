import crypto from 'node:crypto';
import fs from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { accounts, device, materials, programs } from '@panelfleet/contract';
import { switchLanguage } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { gradientPng } from '../support/png.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Programs with their two-level approval in the Broadcast view, as three console users of
// Riverside School made for this run: a creator (program role 0), a first-level (1) and a
// second-level (2) approver, each in their own browser context.
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-5);
const PASSWORD = 'program123';
const md5 = (text: string) => crypto.createHash('md5').update(text).digest('hex');
const NAME = `Lobby ${run}`;

test.describe.configure({ mode: 'serial' });

/** Screenshots without the 3-second notices of earlier steps on top. */
async function snapshotQuiet(page: Page, name: string) {
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 8000 });
  await snapshot(page, name);
}

async function userPage(browser: Browser, userName: string, language: 'en-US' | 'zh-CN') {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  const page = await context.newPage();
  await signIn(page, 'normal', userName, PASSWORD, language);
  await page.goto(`${url}/home/Broadcast?tab=program`);
  await expect(page.getByTestId('programs-page')).toBeVisible();
  return page;
}

const row = (page: Page) =>
  page.getByTestId('programs-page').locator('.ant-table-tbody .ant-table-row').filter({ hasText: NAME });

/** A one-second WebM recorded by the browser itself from an animated canvas: a real video to preview. */
async function recordedWebm(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 180;
    const context = canvas.getContext('2d')!;
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    for (let frame = 0; frame < 25; frame++) {
      context.fillStyle = `hsl(${frame * 14}, 70%, 45%)`;
      context.fillRect(0, 0, 320, 180);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text);
  });
  return Buffer.from(base64, 'base64');
}

async function act(page: Page, action: 'submit' | 'pass' | 'refuse', reason?: string, shot?: string) {
  await row(page).getByTestId(`program-${action}`).click();
  const modal = page.getByTestId(`program-${action}-modal`);
  await expect(modal).toBeVisible();
  if (reason !== undefined) await modal.getByTestId('program-reason').fill(reason);
  if (shot) await snapshotQuiet(page, shot);
  await page.getByTestId(`program-${action}-modal-ok`).click();
  await expect(modal).toBeHidden();
}

async function progress(page: Page, kind: 'none' | 'waiting' | 'error' | 'end', shot: string) {
  await row(page).getByTestId('program-progress').click();
  const modal = page.getByTestId('program-steps-modal');
  await expect(modal.getByTestId(`program-steps-${kind}`)).toBeVisible();
  await snapshotQuiet(page, shot);
  await page.locator('.ant-modal-close:visible').click();
  await expect(modal).toBeHidden();
}

test('create, submit, pass, refuse, edit, resubmit, pass both levels and preview a program', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  // The company account makes the three console users (program roles 0, 1, 2).
  await signIn(page, 'normal', 'customer1', 'customer123', 'en-US');
  for (const [name, role] of [
    [`pc${run}`, 0],
    [`pa${run}`, 1],
    [`pb${run}`, 2],
  ] as const)
    await apiCall(page, url, accounts.insertUser, {
      userName: name,
      password: md5(PASSWORD),
      phone: '13800000000',
      email: `${name}@example.com`,
      role,
      userType: '4',
    });

  const creator = await userPage(browser, `pc${run}`, 'en-US');
  await snapshotQuiet(creator, 'programs-tab-en-US');

  // New program: name required, default play time 3600, a playlist of an image, a video and a web page.
  await creator.getByTestId('program-add').click();
  const editor = creator.getByTestId('program-editor');
  await expect(creator.getByTestId('program-play-time')).toHaveValue('3600');
  await creator.getByTestId('program-editor-ok').click();
  await expect(editor).toContainText('Please enter the program name');
  await expect(editor).toContainText('Add at least one item to the playlist');
  await creator.getByTestId('program-name').fill(NAME);
  await creator.getByTestId('program-upload-image-input').setInputFiles({
    name: `poster-${run}.png`,
    mimeType: 'image/png',
    buffer: gradientPng(640, 360),
  });
  await expect(creator.getByTestId('program-item-0')).toContainText(`poster-${run}.png`);
  const webm = await recordedWebm(creator);
  await creator.getByTestId('program-upload-video-input').setInputFiles({
    name: `clip-${run}.webm`,
    mimeType: 'video/webm',
    buffer: webm,
  });
  await expect(creator.getByTestId('program-item-1')).toContainText(`clip-${run}.webm`);
  // Uploaded resumably (tus), then a poster frame made by ffmpeg on the server shows in the picker.
  await expect(creator.getByTestId('program-item-1').getByTestId('program-material-thumbnail')).toBeVisible();
  await creator.getByTestId('program-add-web').click();
  await creator.getByTestId('program-item-2').getByTestId('program-item-url').fill('about:blank');
  await creator.getByTestId('program-editor-ok').click();
  await expect(editor).toContainText('A web page address must start with http:// or https://');
  await creator
    .getByTestId('program-item-2')
    .getByTestId('program-item-url')
    .fill('https://example.com/menu');
  await creator.getByTestId('program-item-0').locator('.ant-input-number-input').fill('3');
  await creator.getByTestId('program-item-1').locator('.ant-input-number-input').fill('2');
  await creator.getByTestId('program-item-2').locator('.ant-input-number-input').fill('2');
  await snapshotQuiet(creator, 'program-editor-en-US');
  await creator.getByTestId('program-editor-ok').click();
  await expect(editor).toBeHidden();
  await expect(row(creator).getByTestId('program-status')).toHaveText('Draft');

  await progress(creator, 'none', 'program-progress-none-en-US');
  await act(creator, 'submit', 'Please review the lobby loop', 'program-submit-en-US');
  await expect(row(creator).getByTestId('program-status')).toHaveText('Awaiting level-1 approval');
  await expect(row(creator).getByTestId('program-edit')).toHaveCount(0);
  await progress(creator, 'waiting', 'program-progress-waiting-en-US');

  // Level 1 passes with the spec's default text; level 2 cannot act before it.
  const level1 = await userPage(browser, `pa${run}`, 'zh-CN');
  await expect(level1.getByTestId('program-add')).toHaveCount(0);
  await row(level1).getByTestId('program-pass').click();
  await expect(level1.getByTestId('program-reason')).toHaveValue('一级审批已通过');
  await snapshotQuiet(level1, 'program-pass-zh-CN');
  await level1.getByTestId('program-pass-modal-ok').click();
  await expect(row(level1).getByTestId('program-status')).toHaveText('待二级审批');

  // Level 2 refuses: a reason is required; the program returns to its creator.
  const level2 = await userPage(browser, `pb${run}`, 'en-US');
  await row(level2).getByTestId('program-refuse').click();
  await level2.getByTestId('program-refuse-modal-ok').click();
  await expect(level2.getByTestId('program-refuse-modal')).toContainText('A reason is required');
  await level2.getByTestId('program-reason').fill('The logo is outdated');
  await snapshotQuiet(level2, 'program-refuse-en-US');
  await level2.getByTestId('program-refuse-modal-ok').click();
  await expect(row(level2).getByTestId('program-status')).toHaveText('Draft');
  await progress(level2, 'error', 'program-progress-error-en-US');

  // The creator edits and resubmits; both levels pass.
  await creator.getByTestId('list-refresh').click();
  await expect(row(creator)).toContainText('The logo is outdated');
  await row(creator).getByTestId('program-edit').click();
  await creator.getByTestId('program-item-0').locator('.ant-input-number-input').fill('2');
  await creator.getByTestId('program-editor-ok').click();
  await expect(creator.getByTestId('program-editor')).toBeHidden();
  await act(creator, 'submit', 'New logo');
  await level1.getByTestId('list-refresh').click();
  await act(level1, 'pass');
  await level2.getByTestId('list-refresh').click();
  await row(level2).getByTestId('program-pass').click();
  await expect(level2.getByTestId('program-reason')).toHaveValue('Level-2 approval passed');
  await snapshotQuiet(level2, 'program-pass-en-US');
  await level2.getByTestId('program-pass-modal-ok').click();
  await expect(row(level2).getByTestId('program-status')).toHaveText('Approved');
  await progress(level2, 'end', 'program-progress-end-en-US');
  await progress(level1, 'end', 'program-progress-end-zh-CN');
  await expect(level1.getByTestId('program-steps-modal')).toHaveCount(0);

  // The preview plays the items in order, each for its duration.
  await creator.getByTestId('list-refresh').click();
  await expect(row(creator).getByTestId('program-status')).toHaveText('Approved');
  await row(creator).getByTestId('program-preview-open').click();
  const preview = creator.getByTestId('program-preview');
  await expect(preview).toHaveAttribute('data-type', 'image');
  await expect(preview.locator('img')).toHaveJSProperty('complete', true);
  await snapshotQuiet(creator, 'program-preview-image-en-US');
  await expect(preview).toHaveAttribute('data-type', 'video', { timeout: 5000 });
  await expect
    .poll(() => preview.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime > 0 || v.ended))
    .toBe(true);
  await snapshot(creator, 'program-preview-video-en-US');
  await expect(preview).toHaveAttribute('data-type', 'web', { timeout: 5000 });
  await expect(preview).toHaveAttribute('data-type', 'image', { timeout: 5000 });
  await creator.locator('.ant-modal-close:visible').click();

  // The tab and a dialog in Chinese.
  await switchLanguage(creator, 'zh-CN');
  await expect(creator.getByRole('tab', { name: '节目' })).toBeVisible();
  await expect(row(creator).getByTestId('program-status')).toHaveText('审批通过');
  await snapshotQuiet(creator, 'programs-tab-zh-CN');
  await row(creator).getByTestId('program-edit').click();
  await expect(creator.getByTestId('program-editor')).toContainText('保存修改后需要重新审批');
  await snapshotQuiet(creator, 'program-editor-zh-CN');
  await creator.locator('.ant-modal-close:visible').click();
  await progress(creator, 'end', 'program-progress-end-zh-CN-creator');

  const listed = (await apiCall(creator, url, programs.listPrograms, { start: 1, size: 10, name: NAME }))
    .listObject[0]!;
  expect(listed.items.map((item) => item.type)).toEqual(['image', 'video', 'web']);
  expect(listed.media.find((m) => m.fileType === 3)?.format).toBe('webm');
  const videos = (await apiCall(creator, url, materials.listMaterials, { fileType: 3 })).listObject;
  expect(videos.find((m) => m.fileName === `clip-${run}.webm`)?.hasThumbnail).toBe(true);

  // Publish to the two panels of a label of the demo fleet; each panel fetches, verifies and plays.
  const label = `Lobby screens ${run}`;
  const { groupId } = (await apiCall(creator, url, device.insertGroup, { groupName: label })).dataObject;
  const groups = (await apiCall(creator, url, device.listGroups, {})).listObject;
  const panels = (await apiCall(creator, url, device.listDevices, { start: 1, size: 50 })).listObject.filter(
    (d) => ['E2E-00003', 'E2E-00004'].includes(d.deviceKey),
  );
  expect(panels).toHaveLength(2);
  for (const panel of panels) {
    const held = panel.tag
      .split(device.TAG_SEPARATOR)
      .filter(Boolean)
      .map((name) => groups.find((g) => g.groupName === name)!.groupId);
    await apiCall(creator, url, device.saveGroupsAndDevices, {
      deviceIds: String(panel.deviceId),
      groupIds: [...held, groupId].join(','),
    });
  }
  await row(creator).getByTestId('program-publish').click();
  const terminals = creator.getByTestId('terminal-list');
  await creator.getByTestId('terminal-list-ok').click();
  await expect(creator.locator('.ant-notification')).toContainText('请选择需要发布的设备');
  await terminals.locator(`[data-label="${label}"]`).click();
  await expect(terminals.locator('.ant-table-row')).toHaveCount(2);
  await terminals.locator('.ant-table-thead input[type="checkbox"]').check();
  await snapshotQuiet(creator, 'program-publish-zh-CN');
  await creator.getByTestId('terminal-list-ok').click();
  await expect(terminals).toBeHidden();
  const tasks = creator.getByTestId('publish-tasks-modal');
  await expect(tasks).toBeVisible();
  for (const key of ['E2E-00003', 'E2E-00004'])
    await expect(tasks.locator(`[data-device-key="${key}"]`)).toHaveAttribute('data-state', 'playing', {
      timeout: 30_000,
    });
  await expect(tasks.getByTestId('publish-task-summary')).toContainText('播放中: 2');
  await snapshotQuiet(creator, 'program-publish-tasks-zh-CN');
  await creator.locator('.ant-modal-close:visible').click();
  await switchLanguage(creator, 'en-US');
  await row(creator).getByTestId('program-tasks').click();
  await expect(tasks.getByTestId('publish-task-summary')).toContainText('Playing: 2');
  await snapshotQuiet(creator, 'program-publish-tasks-en-US');
  await creator.locator('.ant-modal-close:visible').click();

  // Export the zip and import it back: a second program of that name, a draft with new materials.
  const download = creator.waitForEvent('download');
  await row(creator).getByTestId('program-export').click();
  const zip = await (await download).path();
  expect(fs.statSync(zip).size).toBeGreaterThan(webm.length);
  await creator.getByTestId('program-import-input').setInputFiles({
    name: `${NAME}.zip`,
    mimeType: 'application/zip',
    buffer: fs.readFileSync(zip),
  });
  await expect(creator.locator('.ant-message')).toContainText(
    'Program imported as a draft with 2 new materials',
  );
  await expect(row(creator)).toHaveCount(2);
  await expect(row(creator).getByTestId('program-status')).toHaveText(['Draft', 'Approved']);
  await snapshotQuiet(creator, 'programs-imported-en-US');
});

test('every program dialog in the other language', async ({ browser }) => {
  test.setTimeout(120_000);
  // The users of the first test, the other way round: the creator and level 2 in Chinese, level 1 in English.
  const creator = await userPage(browser, `pc${run}`, 'zh-CN');
  const name = `大堂 ${run}`;
  const media = (await apiCall(creator, url, programs.listPrograms, { start: 1, size: 10, name: NAME }))
    .listObject[0]!.media;
  const image = media.find((m) => m.fileType === 1)!;
  await apiCall(creator, url, programs.insertProgram, {
    name,
    playTime: '3600',
    content: JSON.stringify([
      { type: 'image', materialId: image.materialId, duration: 2 },
      { type: 'web', url: 'https://example.com/menu', duration: 2 },
    ]),
  });
  await creator.getByTestId('list-refresh').click();
  const mine = creator.locator('.ant-table-row').filter({ hasText: name });
  await mine.getByTestId('program-progress').click();
  await expect(creator.getByTestId('program-steps-none')).toHaveText('请先提交审核才能查看审批进度');
  await snapshotQuiet(creator, 'program-progress-none-zh-CN');
  await creator.locator('.ant-modal-close:visible').click();
  await mine.getByTestId('program-submit').click();
  await creator.getByTestId('program-reason').fill('请审核');
  await snapshotQuiet(creator, 'program-submit-zh-CN');
  await creator.getByTestId('program-submit-modal-ok').click();
  await expect(mine.getByTestId('program-status')).toHaveText('待一级审批');
  await mine.getByTestId('program-progress').click();
  await expect(creator.getByTestId('program-steps-waiting')).toContainText('等待一级审批');
  await snapshotQuiet(creator, 'program-progress-waiting-zh-CN');
  await creator.locator('.ant-modal-close:visible').click();

  const level1 = await userPage(browser, `pa${run}`, 'en-US');
  const theirs = level1.locator('.ant-table-row').filter({ hasText: name });
  await theirs.getByTestId('program-pass').click();
  await expect(level1.getByTestId('program-reason')).toHaveValue('Level-1 approval passed');
  await level1.getByTestId('program-pass-modal-ok').click();
  await expect(theirs.getByTestId('program-status')).toHaveText('Awaiting level-2 approval');

  const level2 = await userPage(browser, `pb${run}`, 'zh-CN');
  const hers = level2.locator('.ant-table-row').filter({ hasText: name });
  await hers.getByTestId('program-refuse').click();
  await level2.getByTestId('program-refuse-modal-ok').click();
  await expect(level2.getByTestId('program-refuse-modal')).toContainText('原因必须填');
  await level2.getByTestId('program-reason').fill('图片过期');
  await snapshotQuiet(level2, 'program-refuse-zh-CN');
  await level2.getByTestId('program-refuse-modal-ok').click();
  await hers.getByTestId('program-progress').click();
  await expect(level2.getByTestId('program-steps-error')).toContainText('图片过期');
  await snapshotQuiet(level2, 'program-progress-error-zh-CN');
  await level2.locator('.ant-modal-close:visible').click();

  // The Chinese preview and the English editor, terminal list and publishing of the first program.
  await hers.getByTestId('program-preview-open').click();
  await expect(level2.getByTestId('program-preview-position')).toContainText('第 1 项，共 2 项');
  await snapshotQuiet(level2, 'program-preview-zh-CN');
  await expect(level2.getByTestId('program-preview')).toHaveAttribute('data-type', 'web', { timeout: 5000 });
  await snapshot(level2, 'program-preview-web-zh-CN');
  await level2.locator('.ant-modal-close:visible').click();

  const english = await userPage(browser, `pc${run}`, 'en-US');
  const first = english.locator('.ant-table-row').filter({ hasText: NAME }).filter({ hasText: 'Approved' });
  await first.getByTestId('program-publish').click();
  await english.getByTestId('terminal-list').locator('[data-label]').first().waitFor();
  await snapshotQuiet(english, 'program-publish-en-US');
  await english.locator('.ant-modal-close:visible').click();
  await english.getByTestId('program-add').click();
  await english.getByTestId('program-editor-ok').click();
  await expect(english.getByTestId('program-editor')).toContainText('Please enter the program name');
  await snapshotQuiet(english, 'program-editor-empty-en-US');
});

test('a program’s end and stopping a publish task in the publish-task dialog', async ({ browser }) => {
  test.setTimeout(120_000);
  const creator = await userPage(browser, `pc${run}`, 'zh-CN');
  const level1 = await userPage(browser, `pa${run}`, 'en-US');
  const level2 = await userPage(browser, `pb${run}`, 'en-US');
  const image = (
    await apiCall(creator, url, programs.listPrograms, { start: 1, size: 10, name: NAME })
  ).listObject[0]!.media.find((m) => m.fileType === 1)!;
  const panels = (await apiCall(creator, url, device.listDevices, { start: 1, size: 50 })).listObject;
  const idOf = (key: string) => String(panels.find((d) => d.deviceKey === key)!.deviceId);
  /** A program that passed both levels (set up through the API), published to the panels named. */
  async function publishedProgram(name: string, playTime: number, keys: string[]) {
    const { programId } = (
      await apiCall(creator, url, programs.insertProgram, {
        name,
        playTime: String(playTime),
        content: JSON.stringify([{ type: 'image', materialId: image.materialId, duration: 2 }]),
      })
    ).dataObject;
    for (const [page, reason] of [
      [creator, 'submit'],
      [level1, 'pass 1'],
      [level2, 'pass 2'],
    ] as const)
      await apiCall(page, url, programs.approvalProcess, { programId, status: '1', reason });
    await apiCall(creator, url, programs.publishProgram, {
      programId,
      deviceIds: keys.map(idOf).join(','),
    });
    await creator.getByTestId('list-refresh').click();
    return creator.locator('.ant-table-row').filter({ hasText: name });
  }
  const tasks = creator.getByTestId('publish-tasks-modal');
  const stateOf = (key: string) =>
    tasks.locator(`[data-testid="publish-target-state"][data-device-key="${key}"]`);
  const confirmBox = creator.locator('.ant-modal-confirm');

  // A program that plays on: stop one panel (asked first; cancelling the question changes nothing).
  const long = await publishedProgram(`Stop ${run}`, 3600, ['E2E-00005', 'E2E-00006']);
  await long.getByTestId('program-tasks').click();
  for (const key of ['E2E-00005', 'E2E-00006'])
    await expect(stateOf(key)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  await tasks.locator('[data-testid="publish-target-cancel"][data-cancel-key="E2E-00005"]').click();
  await expect(confirmBox).toContainText('确定停止 E2E-00005 上的节目吗？');
  await confirmBox.getByRole('button', { name: '取 消' }).click();
  await expect(stateOf('E2E-00005')).toHaveAttribute('data-state', 'playing');
  await tasks.locator('[data-testid="publish-target-cancel"][data-cancel-key="E2E-00005"]').click();
  await snapshot(creator, 'program-publish-stop-device-zh-CN');
  await confirmBox.getByRole('button', { name: '确 定' }).click();
  await expect(creator.locator('.ant-message')).toContainText('已停止该设备的发布');
  await expect(stateOf('E2E-00005')).toHaveAttribute('data-state', 'cancelled');
  await expect(stateOf('E2E-00005')).toContainText('已取消');
  await expect(stateOf('E2E-00006')).toHaveAttribute('data-state', 'playing');
  await expect(
    tasks.locator('[data-testid="publish-target-cancel"][data-cancel-key="E2E-00005"]'),
  ).toHaveCount(0);
  await snapshotQuiet(creator, 'program-publish-stopped-device-zh-CN');
  await creator.locator('.ant-modal-close:visible').click();

  // The whole task, in English.
  await switchLanguage(creator, 'en-US');
  await long.getByTestId('program-tasks').click();
  await tasks.getByTestId('publish-task-cancel').click();
  await expect(confirmBox).toContainText('Stop the publishing of');
  await snapshot(creator, 'program-publish-stop-task-en-US');
  await confirmBox.getByRole('button', { name: 'OK' }).click();
  await expect(creator.locator('.ant-message')).toContainText('Publishing stopped on 1 panels');
  await expect(stateOf('E2E-00006')).toHaveAttribute('data-state', 'cancelled');
  await expect(tasks.getByTestId('publish-task-summary')).toContainText('Cancelled: 2');
  await expect(tasks.getByTestId('publish-task-cancel')).toHaveCount(0);
  await expect(tasks.getByTestId('publish-target-cancel')).toHaveCount(0);
  await snapshotQuiet(creator, 'program-publish-stopped-task-en-US');
  await creator.locator('.ant-modal-close:visible').click();

  // A program of 3 seconds: the panel plays it, then reports it finished.
  const short = await publishedProgram(`Short ${run}`, 3, ['E2E-00005']);
  await short.getByTestId('program-tasks').click();
  await expect(stateOf('E2E-00005')).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  await expect(stateOf('E2E-00005')).toContainText('Finished');
  await expect(tasks.getByTestId('publish-task-summary')).toContainText('Finished: 1');
  await expect(tasks.getByTestId('publish-task-cancel')).toHaveCount(0);
  await snapshotQuiet(creator, 'program-publish-finished-en-US');
  await creator.locator('.ant-modal-close:visible').click();
  await switchLanguage(creator, 'zh-CN');
  await short.getByTestId('program-tasks').click();
  await expect(stateOf('E2E-00005')).toContainText('播放结束');
  await expect(tasks.getByTestId('publish-task-summary')).toContainText('播放结束: 1');
  await snapshotQuiet(creator, 'program-publish-finished-zh-CN');
});
