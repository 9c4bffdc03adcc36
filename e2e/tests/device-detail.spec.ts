import { expect, test, type Page } from '@playwright/test';
import { device, deviceDetail } from '@panelfleet/contract';
import { pickOption } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// The device detail modal against the e2e server's simulated panels: E2E-00003 (series x9_vn) is
// controlled, powered off and on, and loses its VLC app; E2E-00001 (oem) gets a new language and
// copies it to E2E-00004 (oem too) through a label of its own. Every check reads what the
// simulated panel reported back. E2E-00006 is left alone: the device-list spec edits it.
const url = baseUrl('normal');
const PANEL = 'E2E-00003';
const CLONE_SOURCE = 'E2E-00001';
const CLONE_TARGET = 'E2E-00004';
const run = Date.now().toString(36).slice(-4);

test.describe.configure({ mode: 'serial' });

const modal = (page: Page) => page.getByTestId('device-detail');

async function fleet(page: Page) {
  const list = await apiCall(page, url, device.listDevices, { start: 1, size: 50 });
  return list.listObject.filter((d) => d.deviceKey.startsWith('E2E-'));
}
async function idOf(page: Page, key: string) {
  const found = (await fleet(page)).find((d) => d.deviceKey === key);
  if (!found) throw new Error(`${key} is not listed`);
  return found.deviceId;
}
/** What the panel last reported, read through the API with the browser's session. */
async function reported(page: Page, key: string) {
  return (await apiCall(page, url, deviceDetail.selectByDeviceId, { deviceId: await idOf(page, key) }))
    .dataObject;
}
async function reportedSettings(page: Page, key: string) {
  return (await apiCall(page, url, deviceDetail.listDeviceSetting, { deviceId: await idOf(page, key) }))
    .listObject;
}

/** Signs in, waits for the fleet to be online and opens the panel's detail from the device list. */
async function openDetail(page: Page, key = PANEL, language: 'en-US' | 'zh-CN' = 'en-US') {
  await signIn(page, 'normal', 'operator1', 'operator123', language);
  await page.goto(`${url}/home/deviceManage`);
  await expect
    .poll(async () => (await fleet(page)).filter((d) => d.isOnline === '1').length, { timeout: 30_000 })
    .toBe(6);
  await openFromList(page, key);
}

/** Opens a panel's detail by its name in the device list. */
async function openFromList(page: Page, key: string) {
  await page.getByTestId('list-search').fill(key);
  await page.getByTestId('list-search-button').click();
  await page.getByTestId('device-list').getByTestId('device-name').filter({ hasText: key }).click();
  await expect(modal(page).getByTestId('detail-title')).toContainText(key);
  await expect(modal(page).getByTestId('detail-online')).toHaveAttribute('data-online', '1');
}

/** Opens an accordion panel (a click on an open one would close it). */
async function openPanel(page: Page, key: string) {
  const header = modal(page).locator('.ant-collapse-header', { has: page.getByTestId(`accordion-${key}`) });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  await expect(header).toHaveAttribute('aria-expanded', 'true');
}

async function setLevel(page: Page, button: string, dialog: string, value: number) {
  await modal(page).getByTestId(button).click();
  await page.getByTestId(`${dialog}-input`).locator('input').fill(String(value));
  await page.getByTestId(`${dialog}-ok`).click();
  await expect(page.getByTestId(dialog)).toBeHidden();
}

test('shows what the panel reports and changes brightness, volume, source and mute on it', async ({
  page,
}) => {
  await openDetail(page);
  const info = modal(page).getByTestId('detail-info');
  await expect(info).toContainText(PANEL);
  await expect(info).toContainText('PF-75');
  await expect(info).toContainText('°C');
  await snapshot(page, 'device-detail-info-en-US');
  await modal(page).getByRole('tab', { name: 'Storage' }).click();
  await expect(modal(page).getByTestId('storage-gb')).toContainText('of 4.00 GB');
  await snapshot(page, 'device-detail-storage-en-US');
  await modal(page).getByRole('tab', { name: 'Download progress' }).click();
  await expect(modal(page).getByTestId('download-apk')).toHaveText('No download in progress');
  await snapshot(page, 'device-detail-download-en-US');
  await modal(page).getByRole('tab', { name: 'Device info' }).click();

  await setLevel(page, 'rc-brightness', 'brightness-modal', 35);
  await expect(modal(page).getByTestId('current-brightness')).toHaveText('35', { timeout: 10_000 });
  expect((await reported(page, PANEL)).brightness).toBe(35);
  await setLevel(page, 'rc-volume', 'volume-modal', 20);
  await expect(modal(page).getByTestId('current-volume')).toHaveText('20', { timeout: 10_000 });
  expect((await reported(page, PANEL)).volume).toBe(20);

  await modal(page).getByTestId('rc-source').click();
  await page.getByTestId('source-modal').locator('[data-source="hdmi1"]').click();
  await snapshot(page, 'device-detail-source-en-US');
  await page.getByTestId('source-ok').click();
  await expect(modal(page).getByTestId('current-source')).toHaveText('hdmi1', { timeout: 10_000 });

  await modal(page).getByTestId('rc-remote').click();
  await snapshot(page, 'device-detail-remote-controller-en-US');
  await page.getByTestId('remote-controller').locator('[data-key="volumeUp"]').click();
  await page.getByTestId('remote-controller').locator('[data-key="home"]').click();
  await page.getByTestId('remote-controller').locator('.ant-modal-close').click();
  await expect(modal(page).getByTestId('current-volume')).toHaveText('25', { timeout: 10_000 });
  await expect(modal(page).getByTestId('current-source')).toHaveText('home', { timeout: 10_000 });

  await modal(page).getByTestId('rc-mute').click();
  await expect(modal(page).getByTestId('current-mute')).toHaveText('On', { timeout: 10_000 });
  expect((await reported(page, PANEL)).mute).toBe(true);
  await modal(page).getByTestId('rc-mute').click();
  await expect(modal(page).getByTestId('current-mute')).toHaveText('Off', { timeout: 10_000 });
  await snapshot(page, 'device-detail-remote-en-US');
});

test('sets the power schedule and energy saving, which the panel applies and reports back', async ({
  page,
}) => {
  await openDetail(page);
  await openPanel(page, 'power');
  await modal(page).getByTestId('edit-power-on').click();
  const onDialog = page.getByTestId('power-on-modal');
  await onDialog.getByTestId('power-on-switch').click();
  for (const day of ['mon', 'wed', 'fri']) await onDialog.locator(`[data-day="${day}"]`).click();
  await onDialog.getByTestId('power-on-time').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('07:30');
  await page.keyboard.press('Enter');
  await snapshot(page, 'device-detail-power-on-en-US');
  await page.getByTestId('power-on-ok').click();
  // The panel applies the schedule and reports it back (a round trip through the broker).
  await expect(modal(page).getByTestId('power-on-value')).toContainText('On · 07:30', { timeout: 20_000 });
  await expect(modal(page).getByTestId('power-on-value')).toContainText('Mon');
  const power = (await reportedSettings(page, PANEL)).find((r) => r.section === 'powerOnOffSetting')?.value;
  expect(power).toMatchObject({ autoPowerOn: true, powerOnTime: '07:30', powerOnWeek: 'mon_wed_fri' });

  await modal(page).getByTestId('edit-power-energy').click();
  const energy = page.getByTestId('energy-modal');
  await energy.getByText('Custom').click();
  await energy.getByTestId('energy-custom').fill('2');
  await page.getByTestId('energy-ok').click();
  await expect(energy.getByTestId('energy-problem')).toHaveText(
    'Energy saving must be at least 3 minutes (a whole number)',
  );
  await snapshot(page, 'device-detail-energy-en-US');
  await energy.getByTestId('energy-custom').fill('45');
  await page.getByTestId('energy-ok').click();
  await expect(energy).toBeHidden();
  await expect(modal(page).getByTestId('energy-value')).toHaveText('45 min', { timeout: 20_000 });
  await snapshot(page, 'device-detail-power-en-US');
});

async function pushLanguage(page: Page, key: string, name: string, code: string) {
  await openPanel(page, 'setting');
  await pickOption(page, modal(page).getByTestId('setting-language-language'), name);
  await modal(page).getByTestId('setting-push').click();
  await expect
    .poll(async () => (await reportedSettings(page, key)).find((r) => r.section === 'language')?.value, {
      timeout: 10_000,
    })
    .toBe(code);
  await expect(modal(page).getByTestId('setting-push')).toBeDisabled({ timeout: 10_000 });
  await expect(modal(page).getByTestId('setting-language-language')).toContainText(name);
}

test('pushes a changed setting, which the panel applies and reports back', async ({ page }) => {
  await openDetail(page);
  await pushLanguage(page, PANEL, 'Deutsch', 'de_de');
  await snapshot(page, 'device-detail-setting-en-US');
});

test('clones a setting to another panel of the series chosen through a label', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  // A label holding both oem panels (and an x9_vn one, which the terminal list greys out).
  const label = `Clone ${run}`;
  const group = (await apiCall(page, url, device.insertGroup, { groupName: label })).dataObject;
  const ids = await Promise.all([CLONE_SOURCE, CLONE_TARGET, PANEL].map((key) => idOf(page, key)));
  await apiCall(page, url, device.saveGroupsAndDevices, {
    deviceIds: ids.join(','),
    groupIds: String(group.groupId),
  });

  await page.goto(`${url}/home/deviceManage`);
  await openFromList(page, CLONE_SOURCE);
  await pushLanguage(page, CLONE_SOURCE, 'Français', 'fr_fr');
  await openPanel(page, 'clone');
  await modal(page).locator('[data-clone-section="language"]').check();
  await modal(page).getByTestId('clone-choose-devices').click();
  const terminals = page.getByTestId('terminal-list');
  await terminals.locator(`[data-label="${label}"]`).click();
  await expect(terminals.locator('.ant-table-row')).toHaveCount(3);
  await expect(
    terminals.locator('.ant-table-row', { hasText: PANEL }).locator('input[type="checkbox"]'),
  ).toBeDisabled();
  await terminals
    .locator('.ant-table-row', { hasText: CLONE_TARGET })
    .locator('input[type="checkbox"]')
    .check();
  await snapshot(page, 'device-detail-clone-en-US');
  await page.getByTestId('terminal-list-ok').click();
  await expect(terminals).toBeHidden();
  await expect
    .poll(
      async () => (await reportedSettings(page, CLONE_TARGET)).find((r) => r.section === 'language')?.value,
      { timeout: 10_000 },
    )
    .toBe('fr_fr');
});

test('shows the position map and opens the notification dialog for the panel', async ({ page }) => {
  await openDetail(page);
  await openPanel(page, 'position');
  await expect(modal(page).getByTestId('device-map')).toBeVisible({ timeout: 15_000 });
  await expect(modal(page).getByTestId('device-map-point')).toBeVisible();
  expect(await modal(page).getByTestId('device-map').locator('path').count()).toBeGreaterThan(50);
  await snapshot(page, 'device-detail-position-en-US');
  await openPanel(page, 'notification');
  await modal(page).getByTestId('open-notification').click();
  await expect(page.getByTestId('notice-modal')).toBeVisible();
  await snapshot(page, 'device-detail-notification-en-US');
});

test('uninstalls a user app: the row goes once the panel confirmed', async ({ page }) => {
  await openDetail(page);
  await modal(page).getByRole('tab', { name: 'Apps' }).click();
  const apps = modal(page).getByTestId('detail-apps');
  const vlc = apps.locator('.ant-table-row', { hasText: 'VLC' });
  await expect(vlc).toBeVisible();
  await expect(
    apps.locator('.ant-table-row', { hasText: 'Settings' }).locator('input[type="checkbox"]'),
  ).toBeDisabled();
  await vlc.locator('input[type="checkbox"]').check();
  await snapshot(page, 'device-detail-apps-en-US');
  await apps.getByTestId('apps-uninstall').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(vlc).toHaveCount(0, { timeout: 15_000 });
  const list = await apiCall(page, url, deviceDetail.listDeviceApps, { deviceId: await idOf(page, PANEL) });
  expect(list.listObject.map((a) => a.appName)).not.toContain('VLC');
  await expect(apps.getByTestId('apps-renew')).toBeDisabled();
});

test('powers the panel off (offline within 5 s, only power on left) and on again', async ({ page }) => {
  await openDetail(page);
  await modal(page).getByTestId('rc-power-off').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(modal(page).getByTestId('detail-online')).toHaveAttribute('data-online', '0', {
    timeout: 5000,
  });
  await expect(modal(page).getByTestId('rc-power-on')).toBeEnabled();
  for (const control of [
    'rc-brightness',
    'rc-volume',
    'rc-source',
    'rc-remote',
    'rc-mute',
    'rc-restart',
    'rc-power-off',
  ]) {
    await expect(modal(page).getByTestId(control)).toBeDisabled();
  }
  await snapshot(page, 'device-detail-offline-en-US');
  await modal(page).getByTestId('rc-power-on').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(modal(page).getByTestId('detail-online')).toHaveAttribute('data-online', '1', {
    timeout: 30_000,
  });
  await expect(modal(page).getByTestId('rc-power-on')).toBeDisabled();
  await expect(modal(page).getByTestId('rc-brightness')).toBeEnabled();
});

test('reads the same in Chinese: every tab and accordion panel', async ({ page }) => {
  await openDetail(page, PANEL, 'zh-CN');
  await expect(modal(page).getByRole('tab', { name: '设备信息' })).toBeVisible();
  await snapshot(page, 'device-detail-info-zh-CN');
  for (const [tab, name] of [
    ['存储信息', 'storage'],
    ['下载进度', 'download'],
    ['应用', 'apps'],
  ] as const) {
    await modal(page).getByRole('tab', { name: tab }).click();
    await snapshot(page, `device-detail-${name}-zh-CN`);
  }
  for (const panel of ['remote', 'position', 'power', 'notification', 'setting', 'clone']) {
    await openPanel(page, panel);
    if (panel === 'position') {
      await expect(modal(page).getByTestId('device-map')).toBeVisible({ timeout: 15_000 });
      await expect(modal(page).getByTestId('panel-position')).toContainText('纬度 31.2300，经度 121.4300');
    }
    await snapshot(page, `device-detail-${panel}-zh-CN`);
  }
  // The dialogs that send a command, opened and cancelled.
  const dialogs = [
    ['rc-source', 'source-modal', '信号源'],
    ['edit-power-on', 'power-on-modal', '定时开机'],
    ['edit-power-energy', 'energy-modal', '节能'],
    ['clone-choose-devices', 'terminal-list', '全选'],
  ] as const;
  for (const [button, dialog, text] of dialogs) {
    if (button === 'rc-source') await openPanel(page, 'remote');
    if (button.startsWith('edit-power')) await openPanel(page, 'power');
    if (button === 'clone-choose-devices') {
      await openPanel(page, 'clone');
      await modal(page).locator('[data-clone-section="language"]').check();
    }
    await modal(page).getByTestId(button).click();
    await expect(page.getByTestId(dialog)).toContainText(text);
    await expect(page.getByTestId(dialog).getByRole('button', { name: /取\s*消/ })).toBeVisible();
    await snapshot(page, `device-detail-${dialog}-zh-CN`);
    await page
      .getByTestId(dialog)
      .getByRole('button', { name: /取\s*消/ })
      .click();
    await expect(page.getByTestId(dialog)).toBeHidden();
  }
});

test('the feedback log shows the result of every command sent to the panel above', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/feedBack`);
  await page.getByTestId('list-search').fill(PANEL);
  await page.getByTestId('list-search-button').click();
  await pickOption(page, page.locator('.ant-pagination-options .ant-select'), '50 / page');
  const rows = page.locator('.ant-table-tbody .ant-table-row');
  await expect(rows.first()).toBeVisible();
  const succeeded = (type: string) =>
    rows
      .filter({ has: page.locator(`[data-testid="feedback-type"][data-type="${type}"]`) })
      .filter({ has: page.locator('[data-testid="feedback-status"][data-status="success"]') });
  // Brightness, volume, signal source, mute, virtual key, power off and start up, each succeeded.
  for (const type of ['00', '01', '04', '07', '08', '02', 'POWERUP'])
    await expect(succeeded(type).first(), type).toBeVisible();
  await expect(
    rows.filter({ hasText: 'Uninstall apps' }).filter({ hasText: 'Succeeded' }).first(),
  ).toBeVisible();
  await snapshot(page, 'feedback-after-detail-en-US');
});
