import crypto from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { device, materials } from '@panelfleet/contract';
import { wavTone } from '../../apps/server/test/audio-fixtures.js';
import { answerConfirm, switchLanguage } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { gradientPng } from '../support/png.js';
import { signIn } from '../support/session.js';

// Notifications with a custom audio, the audio list and screen time, against the e2e server's
// simulated panels (E2E-00001...E2E-00006 of Riverside School): the panels report app usage every
// 2 s, fetch a notification's audio through its signed URL and acknowledge what they showed.
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-4);

test.describe.configure({ mode: 'serial' });

const rows = (page: Page) => page.getByTestId('device-list').locator('.ant-table-tbody .ant-table-row');

/** Screenshots without the 3-second notices of earlier steps on top. */
async function snapshotQuiet(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 8000 });
  await snapshot(page, name, options);
}

/** The device list with every panel of the fleet online, searched down to one panel. */
async function showPanel(page: Page, deviceKey: string) {
  await page.goto(`${url}/home/deviceManage`);
  await expect(page.getByTestId('device-list')).toBeVisible();
  await expect
    .poll(
      async () =>
        (await apiCall(page, url, device.listDevices, { start: 1, size: 50 })).listObject.filter(
          (d) => d.deviceKey.startsWith('E2E-') && d.isOnline === '1',
        ).length,
      { timeout: 30_000 },
    )
    .toBe(6);
  await page.getByTestId('list-search').fill(deviceKey);
  await page.getByTestId('list-search-button').click();
  await expect(rows(page)).toHaveCount(1);
  return rows(page).first();
}

test('shows a panel’s screen time today and over the recent days, built from its usage reports', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  const row = await showPanel(page, 'E2E-00003');
  await row.getByTestId('row-screen-time').click();
  const modal = page.getByTestId('screen-time-modal');
  await expect(modal).toBeVisible();
  await expect(modal.locator('.ant-modal-title')).toContainText('E2E-00003');

  const today = modal.getByTestId('screen-time-day');
  await expect(today.getByTestId('screen-time-slot')).toHaveCount(24);
  // The panel reports every 2 s: refresh until its reports are in. A refresh reads the day anew
  // (the list is empty while it loads), so each try waits a moment for the rows to come.
  await expect(async () => {
    await today.getByTestId('screen-time-refresh').click();
    await expect(today.getByTestId('screen-time-app').first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  const slots = await today
    .getByTestId('screen-time-slot')
    .evaluateAll((hours) => hours.map((hour) => Number(hour.getAttribute('data-total'))));
  expect(slots.at(-1)).toBeGreaterThan(0);
  // The day holds the live reports of this hour and the fleet's history of the hours before it
  // (the e2e fleet sends 42 days): under a minute in all is the spec's "<1 min".
  const dayTotal = slots.reduce((sum, ms) => sum + ms, 0);
  await expect(today.getByTestId('screen-time-total')).toContainText(
    dayTotal < 60_000 ? '<1 min' : /\d+ (h|min)/,
  );
  await snapshot(page, 'screen-time-today-en-US');

  await modal.getByTestId('screen-time-tab-recent').click();
  const recent = modal.getByTestId('screen-time-recent');
  await expect(recent.getByTestId('screen-time-slot')).toHaveCount(7);
  await expect
    .poll(async () => Number(await recent.getByTestId('screen-time-slot').last().getAttribute('data-total')))
    .toBeGreaterThan(0);
  await expect(recent.getByTestId('screen-time-app').first()).toBeVisible();
  await snapshot(page, 'screen-time-recent-en-US');

  await modal.locator('.ant-modal-close').click();
  await expect(modal).toBeHidden();
  await switchLanguage(page, 'zh-CN');
  await rows(page).first().getByTestId('row-screen-time').click();
  await expect(page.getByTestId('screen-time-modal').getByTestId('screen-time-tab-day')).toHaveText('今天');
  await expect(page.getByTestId('screen-time-day').getByTestId('screen-time-app').first()).toBeVisible();
  await snapshot(page, 'screen-time-today-zh-CN');
  await page.getByTestId('screen-time-modal').locator('.ant-modal-close').click();
  await switchLanguage(page, 'en-US');
});

/** The detail modal of one panel, its send-notification accordion panel, and the dialog it opens. */
async function openNotificationModal(page: Page, deviceKey: string) {
  const row = await showPanel(page, deviceKey);
  await row.getByTestId('device-name').click();
  const detail = page.getByTestId('device-detail');
  await expect(detail).toBeVisible();
  await detail.getByTestId('accordion-notification').click();
  await detail.getByTestId('open-notification').click();
  const modal = page.getByTestId('notice-modal');
  await expect(modal).toBeVisible();
  return modal;
}

const audioRows = (page: Page) => page.getByTestId('audio-list').locator('.ant-table-tbody .ant-table-row');

test('sends an emergency notification with an uploaded audio, which the panel fetches and plays', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  const modal = await openNotificationModal(page, 'E2E-00002');

  // The rules hold in the dialog: nothing is sent and it stays open.
  await modal.getByTestId('notice-send').click();
  await expect(modal.locator('.ant-form-item-explain-error').first()).toHaveText('Please enter the title');
  await modal.getByTestId('notice-title').fill(`Fire drill ${run}`);
  await modal.getByTestId('notice-text').fill('Leave by the east stairs and gather in the yard.');
  await modal.getByTestId('notice-level-emergency').click();
  await modal.getByTestId('notice-audio-0').click();
  await modal.getByTestId('notice-send').click();
  await expect(page.locator('.ant-message')).toContainText('Please choose an audio');
  await expect(modal).toBeVisible();

  await modal.getByTestId('notice-choose-audio').click();
  const list = page.getByTestId('audio-list');
  await expect(list).toBeVisible();
  // Checked in the console first: a wrong type is never sent.
  await list
    .getByTestId('audio-file')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not audio') });
  await expect(page.locator('.ant-message')).toContainText(
    'The file must be mp3, wma, wav, amr, aac, ogg, mp4, flac or ape audio',
  );

  const tone = wavTone(2);
  const sha256 = crypto.createHash('sha256').update(tone).digest('hex');
  const name = `Evacuation ${run}.wav`;
  await list.getByTestId('audio-file').setInputFiles({ name, mimeType: 'audio/wav', buffer: tone });
  const uploaded = audioRows(page).filter({ hasText: name });
  await expect(uploaded).toHaveCount(1);
  await expect(uploaded.locator('.ant-radio-wrapper-checked')).toHaveCount(1);

  // The preview really plays: the browser fetches the file with the session and its clock runs.
  await uploaded.getByTestId('audio-preview-open').click();
  const player = page.getByTestId('audio-preview').getByTestId('audio-player');
  await expect(player).toBeVisible();
  await expect
    .poll(
      () =>
        player.evaluate((audio: HTMLAudioElement) =>
          audio.paused
            ? audio.play().then(
                () => audio.currentTime,
                () => -1,
              )
            : audio.currentTime,
        ),
      { timeout: 10_000 },
    )
    .toBeGreaterThan(0.2);
  expect(await player.evaluate((audio: HTMLAudioElement) => Math.round(audio.duration))).toBe(2);
  await page.getByTestId('audio-preview').locator('.ant-modal-close').click();
  await expect(page.getByTestId('audio-preview')).toBeHidden();
  await snapshotQuiet(page, 'audio-list-en-US');

  await list.getByTestId('audio-list-ok').click();
  await expect(list).toBeHidden();
  await expect(modal.getByTestId('notice-chosen-audio')).toHaveText(name);
  await snapshotQuiet(page, 'notification-modal-en-US');

  await modal.getByTestId('notice-send').click();
  await expect(modal).toBeHidden();
  // The panel's own acknowledgement: shown, after fetching and verifying the audio it played.
  const delivered = page.getByTestId('notice-delivery-row').filter({ hasText: 'E2E-00002' });
  await expect(delivered).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(delivered).toHaveAttribute('data-detail', `shown, played audio ${sha256}`);
  await expect(page.getByTestId('notice-delivery-summary')).toHaveText(
    'Shown 1, failed 0, waiting 0 (panels: 1)',
  );
  await snapshot(page, 'notification-delivered-en-US');
});

test('deletes an audio only after a confirmation', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  const modal = await openNotificationModal(page, 'E2E-00002');
  await modal.getByTestId('notice-level-emergency').click();
  await modal.getByTestId('notice-audio-0').click();
  await modal.getByTestId('notice-choose-audio').click();
  const name = `Old bell ${run}.wav`;
  await page
    .getByTestId('audio-list')
    .getByTestId('audio-file')
    .setInputFiles({ name, mimeType: 'audio/wav', buffer: wavTone(0.5) });
  const row = audioRows(page).filter({ hasText: name });
  await expect(row).toHaveCount(1);

  await row.getByTestId('audio-delete').click();
  await answerConfirm(page, 'Cancel');
  await expect(page.locator('.ant-message')).toContainText('Cancelled');
  await expect(row).toHaveCount(1);
  await row.getByTestId('audio-delete').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText(`Delete the audio ${name}?`);
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(page.locator('.ant-message')).toContainText('Audio deleted');
  await expect(row).toHaveCount(0);
  const left = (await apiCall(page, url, materials.listMaterials, { fileType: 2 })).listObject;
  expect(left.map((m) => m.fileName)).not.toContain(name);
});

test('shows the notification dialog and the audio list in Chinese', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'zh-CN');
  const modal = await openNotificationModal(page, 'E2E-00001');
  await expect(modal.locator('.ant-modal-title')).toHaveText('发送通知');
  await modal.getByTestId('notice-title').fill('消防演练');
  await modal.getByTestId('notice-text').fill('请从东侧楼梯撤离，到操场集合。');
  await modal.getByTestId('notice-level-ordinary').click();
  await modal.getByTestId('notice-position-bottom').click();
  await snapshot(page, 'notification-modal-ordinary-zh-CN');
  await modal.getByTestId('notice-level-emergency').click();
  await modal.getByTestId('notice-audio-0').click();
  await modal.getByTestId('notice-choose-audio').click();
  await expect(page.getByTestId('audio-list').locator('.ant-modal-title')).toHaveText('音频列表');
  await expect(audioRows(page).first()).toBeVisible();
  await snapshot(page, 'audio-list-zh-CN');
  await page.getByTestId('audio-list').locator('.ant-modal-close').click();
  await snapshot(page, 'notification-modal-zh-CN');
});

test('broadcasts an emergency notice with a custom audio to two ticked labels and reports every panel', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  // Two labels, added beside the labels the panels have (other specs rely on those): E2E-00002 is
  // in both and is sent to once.
  const labels = {
    [`Broadcast A ${run}`]: ['E2E-00001', 'E2E-00002'],
    [`Broadcast B ${run}`]: ['E2E-00002', 'E2E-00003'],
  };
  const keys = ['E2E-00001', 'E2E-00002', 'E2E-00003'];
  const added: Record<string, number> = {};
  for (const name of Object.keys(labels))
    added[name] = (await apiCall(page, url, device.insertGroup, { groupName: name })).dataObject.groupId;
  const groups = (await apiCall(page, url, device.listGroups, {})).listObject;
  const panels = (await apiCall(page, url, device.listDevices, { start: 1, size: 50 })).listObject.filter(
    (d) => keys.includes(d.deviceKey),
  );
  expect(panels).toHaveLength(3);
  for (const panel of panels) {
    // The panel's listed labels: a dynamic one (another spec's) follows its filter and is not saved.
    const held = panel.tag
      .split(device.TAG_SEPARATOR)
      .filter(Boolean)
      .map((label) => groups.find((g) => g.groupName === label)!)
      .filter((g) => !g.dynamic)
      .map((g) => g.groupId);
    const extra = Object.entries(labels)
      .filter(([, members]) => members.includes(panel.deviceKey))
      .map(([name]) => added[name]);
    await apiCall(page, url, device.saveGroupsAndDevices, {
      deviceIds: String(panel.deviceId),
      groupIds: [...held, ...extra].join(','),
    });
  }

  // Reached from the menu.
  await page.locator('[data-menu="Broadcast"]').click();
  await expect(page).toHaveURL(/\/home\/Broadcast$/);
  const broadcast = page.getByTestId('broadcast-page');
  await expect(broadcast).toBeVisible();
  // Nothing ticked: nothing is sent.
  await broadcast.getByTestId('broadcast-send').click();
  await expect(page.locator('.ant-message')).toContainText('Please tick at least one label');
  await expect(page.getByTestId('notice-modal')).toHaveCount(0);

  const deviceRows = broadcast.getByTestId('broadcast-devices').locator('.ant-table-tbody .ant-table-row');
  for (const name of Object.keys(labels))
    await broadcast.getByTestId('broadcast-chip').filter({ hasText: name }).click();
  await expect(deviceRows).toHaveCount(3);
  for (const key of keys) await expect(deviceRows.filter({ hasText: key })).toBeVisible();
  await snapshotQuiet(page, 'broadcast-en-US');

  await broadcast.getByTestId('broadcast-send').click();
  const modal = page.getByTestId('notice-modal');
  await modal.getByTestId('notice-title').fill(`Assembly ${run}`);
  await modal.getByTestId('notice-text').fill('Assembly in the hall at ten.');
  await modal.getByTestId('notice-level-emergency').click();
  await modal.getByTestId('notice-audio-0').click();
  await modal.getByTestId('notice-choose-audio').click();
  // A custom audio uploaded for this broadcast and chosen in the audio list.
  const tone = wavTone(1.5);
  const sha256 = crypto.createHash('sha256').update(tone).digest('hex');
  const audio = `Assembly bell ${run}.wav`;
  await page
    .getByTestId('audio-list')
    .getByTestId('audio-file')
    .setInputFiles({ name: audio, mimeType: 'audio/wav', buffer: tone });
  const uploaded = audioRows(page).filter({ hasText: audio });
  await expect(uploaded.locator('.ant-radio-wrapper-checked')).toHaveCount(1);
  await page.getByTestId('audio-list').getByTestId('audio-list-ok').click();
  await expect(modal.getByTestId('notice-chosen-audio')).toHaveText(audio);
  await snapshotQuiet(page, 'broadcast-notice-en-US');
  await modal.getByTestId('notice-send').click();
  await expect(modal).toBeHidden();

  // Each panel's own acknowledgement, not the send reply, fills the report: every panel of both
  // labels, once, fetched the audio through its signed URL, verified it and played it.
  const report = broadcast.getByTestId('broadcast-report');
  await expect(report).toContainText(`Assembly ${run}`);
  await expect(report).toContainText(Object.keys(labels)[1]!);
  await expect(report.getByTestId('notice-delivery-row')).toHaveCount(3);
  for (const key of keys) {
    const row = report.locator(`[data-device-key="${key}"]`);
    await expect(row).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
    await expect(row).toHaveAttribute('data-detail', `shown, played audio ${sha256}`);
  }
  await expect(report.getByTestId('notice-delivery-summary')).toHaveText(
    'Shown 3, failed 0, waiting 0 (panels: 3)',
  );
  await snapshotQuiet(page, 'broadcast-report-en-US', { fullPage: true });

  await switchLanguage(page, 'zh-CN');
  await expect(page.getByRole('tab', { name: '广播' })).toBeVisible();
  await expect(broadcast.getByTestId('broadcast-send')).toContainText('发送广播');
  await snapshotQuiet(page, 'broadcast-zh-CN');
  // The same broadcast in Chinese: two labels, the custom audio, every panel's report.
  await broadcast.getByTestId('broadcast-send').click();
  await expect(modal.locator('.ant-modal-title')).toHaveText('发送通知');
  await modal.getByTestId('notice-title').fill(`集合 ${run}`);
  await modal.getByTestId('notice-text').fill('十点在礼堂集合。');
  await modal.getByTestId('notice-level-emergency').click();
  await modal.getByTestId('notice-audio-0').click();
  await modal.getByTestId('notice-choose-audio').click();
  await expect(page.getByTestId('audio-list').locator('.ant-modal-title')).toHaveText('音频列表');
  await uploaded.locator('.ant-radio-wrapper').click();
  await page.getByTestId('audio-list').getByTestId('audio-list-ok').click();
  await expect(modal.getByTestId('notice-chosen-audio')).toHaveText(audio);
  await snapshotQuiet(page, 'broadcast-notice-zh-CN');
  await modal.getByTestId('notice-send').click();
  await expect(modal).toBeHidden();
  await expect(report).toContainText(`集合 ${run}`);
  for (const key of keys) {
    const row = report.locator(`[data-device-key="${key}"]`);
    await expect(row).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
    await expect(row).toHaveAttribute('data-detail', `shown, played audio ${sha256}`);
  }
  await expect(report.getByTestId('notice-delivery-summary')).toHaveText('共 3 台：已显示 3，失败 0，等待 0');
  await snapshotQuiet(page, 'broadcast-report-zh-CN', { fullPage: true });
});

test('the materials tab lists the company’s images and audio by type and name, and deletes after a confirmation', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  const image = `Hall map ${run}.png`;
  const upload = await page.request.post(`${url}${materials.insertMaterial.path}`, {
    headers: { Origin: url, Accept: 'application/json' },
    multipart: {
      fileType: String(materials.MATERIAL_FILE_TYPES.image),
      uiFile: { name: image, mimeType: 'image/png', buffer: gradientPng(96, 64) },
    },
  });
  expect(((await upload.json()) as { hhtStatus: string }).hhtStatus).toBe('success');
  const bell = `Hall bell ${run}.wav`;
  const audio = await page.request.post(`${url}${materials.insertMaterial.path}`, {
    headers: { Origin: url, Accept: 'application/json' },
    multipart: {
      fileType: String(materials.MATERIAL_FILE_TYPES.audio),
      uiFile: { name: bell, mimeType: 'audio/wav', buffer: wavTone(0.3) },
    },
  });
  expect(((await audio.json()) as { hhtStatus: string }).hhtStatus).toBe('success');

  await page.goto(`${url}/home/Broadcast`);
  await page.getByTestId('tab-materials').click();
  await expect(page).toHaveURL(/\/home\/Broadcast\?tab=materials$/);
  const tab = page.getByTestId('materials-tab');
  const tableRows = tab.locator('.ant-table-tbody .ant-table-row');
  await expect(tableRows.filter({ hasText: image })).toHaveCount(1);
  await expect(tableRows.filter({ hasText: image }).getByTestId('material-thumbnail')).toBeVisible();

  // Audio only: the bell with its type icon, and not the image.
  await tab.getByTestId('materials-type').getByText('Audio').click();
  await expect(tableRows.filter({ hasText: image })).toHaveCount(0);
  await expect(tableRows.filter({ hasText: bell }).getByTestId('material-type-icon')).toBeVisible();
  await snapshot(page, 'materials-tab-audio-en-US');

  // All types, searched by name.
  await tab.getByTestId('materials-type').getByText('All').click();
  await tab.getByTestId('list-search').fill(`hall map ${run}`);
  await tab.getByTestId('list-search-button').click();
  await expect(tableRows).toHaveCount(1);
  await expect(tableRows.first()).toContainText('Image');
  await snapshot(page, 'materials-tab-search-en-US');

  const row = tableRows.filter({ hasText: image });
  await row.getByTestId('material-delete').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText(`Delete the material ${image}?`);
  await snapshot(page, 'materials-delete-confirm-en-US');
  await answerConfirm(page, 'Cancel');
  await expect(row).toHaveCount(1);
  await row.getByTestId('material-delete').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(page.locator('.ant-message')).toContainText('Material deleted');
  await expect(row).toHaveCount(0);
  const left = (await apiCall(page, url, materials.listMaterials, { fileType: 1 })).listObject;
  expect(left.map((m) => m.fileName)).not.toContain(image);

  await switchLanguage(page, 'zh-CN');
  await tab.getByTestId('list-refresh').click();
  await expect(page.getByTestId('tab-materials')).toHaveText('素材');
  await expect(tab.locator('.ant-table-thead')).toContainText('上传时间');
  await expect(tableRows.first()).toBeVisible();
  await snapshotQuiet(page, 'materials-tab-zh-CN');
  await tableRows.first().getByTestId('material-delete').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('确定删除素材');
  await snapshotQuiet(page, 'materials-delete-confirm-zh-CN');
  await answerConfirm(page, '取 消');
});
