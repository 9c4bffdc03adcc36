import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { device, deviceDetail, screenshots } from '@panelfleet/contract';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Screenshots of the e2e server's simulated panels (issue 27): each panel renders its own screen,
// so a picture taken after its brightness went down is darker. E2E-00005 is photographed; a label
// of E2E-00004 and E2E-00005 (their other labels kept) opens as a wall.
const url = baseUrl('normal');
const PANEL = 'E2E-00005';
const run = Date.now().toString(36).slice(-4);

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const modal = (page: Page) => page.getByTestId('device-detail');

async function rowOf(page: Page, key: string) {
  const list = await apiCall(page, url, device.listDevices, { start: 1, size: 50 });
  const found = list.listObject.find((d) => d.deviceKey === key);
  if (!found) throw new Error(`${key} is not listed`);
  return found;
}

/** The mean of the red, green and blue values of a stored picture. */
async function meanOf(page: Page, screenshotId: string) {
  const response = await page.request.get(
    `${url}${screenshots.screenshotImage.path}?screenshotId=${screenshotId}`,
  );
  expect(response.status()).toBe(200);
  const { channels } = await sharp(await response.body()).stats();
  return channels.slice(0, 3).reduce((sum, c) => sum + c.mean, 0) / 3;
}

/** Clicks "take a screenshot" and waits for a picture newer than the one shown. */
async function takeInDetail(page: Page) {
  const latest = modal(page).getByTestId('screenshot-latest');
  const before = (await latest.count()) ? await latest.getAttribute('data-screenshot-id') : null;
  // A panel takes one request per 2 s (`screenshot.panelBusy`): refused that soon after the last
  // one, the user asks again, as this does.
  await expect(async () => {
    await modal(page).getByTestId('screenshot-take').click();
    await expect
      .poll(async () => ((await latest.count()) ? await latest.getAttribute('data-screenshot-id') : before), {
        timeout: 8_000,
      })
      .not.toBe(before);
  }).toPass({ timeout: 40_000 });
  await expect(modal(page).getByTestId('screenshot-image').locator('img')).toHaveJSProperty('complete', true);
  return (await latest.getAttribute('data-screenshot-id'))!;
}

async function setBrightness(page: Page, deviceId: number, value: number) {
  await apiCall(page, url, device.sendCommandByDeviceId, { deviceId, order: '00', value: String(value) });
  await expect
    .poll(
      async () =>
        (await apiCall(page, url, deviceDetail.selectByDeviceId, { deviceId })).dataObject.brightness,
      {
        timeout: 20_000,
      },
    )
    .toBe(value);
}

for (const [language, words] of [
  ['en-US', { tab: 'Screen', taken: 'Taken', wall: 'Wall view' }],
  ['zh-CN', { tab: '屏幕', taken: '截取于', wall: '墙视图' }],
] as const) {
  test(`takes a screenshot, sees a darker one after the brightness went down, and opens a label's wall (${language})`, async ({
    page,
  }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    await expect.poll(async () => (await rowOf(page, PANEL)).isOnline, { timeout: 30_000 }).toBe('1');
    const { deviceId } = await rowOf(page, PANEL);
    await setBrightness(page, deviceId, 90);

    await page.goto(`${url}/home/deviceManage`);
    await page.getByTestId('list-search').fill(PANEL);
    await page.getByTestId('list-search-button').click();
    await page.getByTestId('device-list').getByTestId('device-name').filter({ hasText: PANEL }).click();
    await expect(modal(page).getByTestId('detail-title')).toContainText(PANEL);
    await modal(page).getByTestId('tab-screen').click();
    await expect(modal(page).getByTestId('tab-screen')).toHaveText(words.tab);
    const bright = await takeInDetail(page);
    await expect(modal(page).getByTestId('screenshot-time')).toContainText(words.taken);
    await snapshot(page, `screenshot-detail-${language}`);

    await setBrightness(page, deviceId, 15);
    // A capture asked for at the old brightness (a repeated click above) may still arrive and be
    // the newest picture for a moment: the pictures taken from now on must turn dark.
    const brightMean = await meanOf(page, bright);
    await expect(async () => {
      const dim = await takeInDetail(page);
      expect(await meanOf(page, dim)).toBeLessThan(brightMean * 0.5);
    }).toPass({ timeout: 90_000 });
    await snapshot(page, `screenshot-detail-dim-${language}`);
    await setBrightness(page, deviceId, 80);
    await page.keyboard.press('Escape');

    // A label of two panels, added to the labels they carry already.
    const label = `Wall ${language.slice(0, 2)} ${run}`;
    const group = (await apiCall(page, url, device.insertGroup, { groupName: label })).dataObject;
    const groups = (await apiCall(page, url, device.listGroups, {})).listObject;
    for (const key of ['E2E-00004', PANEL]) {
      const row = await rowOf(page, key);
      const kept = groups.filter((g) => row.tag.split('-').includes(g.groupName)).map((g) => g.groupId);
      await apiCall(page, url, device.saveGroupsAndDevices, {
        deviceIds: String(row.deviceId),
        groupIds: [...kept, group.groupId].join(','),
      });
    }
    await page.goto(`${url}/home/Labels`);
    await page.locator(`[data-label="${label}"]`).first().click();
    await expect(page.getByTestId('labels-wall')).toContainText(words.wall);
    await page.getByTestId('labels-wall').click();
    await expect(page).toHaveURL(new RegExp(`/home/Labels\\?wall=${group.groupId}$`));
    await expect(page.getByTestId('wall-title')).toContainText(label);
    await expect(page.getByTestId('wall-tile')).toHaveCount(2);
    await page.getByTestId('wall-refresh').click();
    await expect(page.getByTestId('wall-progress')).toContainText(language === 'en-US' ? '2 of 2' : '2 / 2', {
      timeout: 30_000,
    });
    for (const tile of await page.getByTestId('wall-tile').all())
      await expect(tile).toHaveAttribute('data-screenshot-id', /\d+/);
    await snapshot(page, `screenshot-wall-${language}`);
    await page.getByTestId('wall-tile').filter({ hasText: PANEL }).click();
    await expect(modal(page).getByTestId('detail-title')).toContainText(PANEL);
  });
}
