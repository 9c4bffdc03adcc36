import { expect, test, type Page } from '@playwright/test';
import { device, screenshots } from '@panelfleet/contract';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Issue 27 items 1, 2 and 5 in both languages, on the e2e fleet's E2E-00005: the live view takes
// pictures until the detail closes; the History tab lists them with who asked and opens them full
// size; a panel that is offline gets the words the console shows for it.
const url = baseUrl('normal');
const PANEL = 'E2E-00005';

test.describe.configure({ mode: 'serial' });

const modal = (page: Page) => page.getByTestId('device-detail');

const WORDS = {
  'en-US': {
    history: 'History',
    askedBy: 'Asked by operator1',
    offlineHint: 'The panel is offline: no screenshot can be taken now.',
    offlineFailure: 'The panel is offline: it could not take a screenshot.',
  },
  'zh-CN': {
    history: '历史',
    askedBy: '由 operator1 截取',
    offlineHint: '设备离线，暂时无法截图。',
    offlineFailure: '设备离线，无法截图。',
  },
} as const;

async function panelRow(page: Page) {
  const list = await apiCall(page, url, device.listDevices, { start: 1, size: 50 });
  const found = list.listObject.find((d) => d.deviceKey === PANEL);
  if (!found) throw new Error(`${PANEL} is not listed`);
  return found;
}

async function openScreen(page: Page) {
  await page.goto(`${url}/home/deviceManage`);
  await page.getByTestId('list-search').fill(PANEL);
  await page.getByTestId('list-search-button').click();
  await page.getByTestId('device-list').getByTestId('device-name').filter({ hasText: PANEL }).click();
  await expect(modal(page).getByTestId('detail-title')).toContainText(PANEL);
  await modal(page).getByTestId('tab-screen').click();
}

const shownId = (page: Page) =>
  modal(page).getByTestId('screenshot-latest').getAttribute('data-screenshot-id', { timeout: 1000 });

for (const language of ['en-US', 'zh-CN'] as const) {
  const words = WORDS[language];

  test(`the live view refreshes, stops when the detail closes, and the history lists its pictures (${language})`, async ({
    page,
  }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    await expect.poll(async () => (await panelRow(page)).isOnline, { timeout: 30_000 }).toBe('1');
    const takes: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(screenshots.takeScreenshot.path)) takes.push(request.url());
    });
    await openScreen(page);
    await modal(page).getByTestId('screenshot-live').click();
    await expect(modal(page).getByTestId('screenshot-live')).toHaveAttribute('aria-checked', 'true');
    // Two pictures one after the other without a click: the view refreshes on its own.
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const id = await shownId(page).catch(() => null);
          if (id) seen.add(id);
          return seen.size;
        },
        { timeout: 30_000, intervals: [500] },
      )
      .toBeGreaterThanOrEqual(2);
    await snapshot(page, `screenshot-live-${language}`);

    await page.keyboard.press('Escape');
    await expect(modal(page)).toBeHidden();
    const asked = takes.length;
    // Longer than two of the live view's intervals: a view still running would have asked again.
    await page.waitForTimeout(2 * screenshots.LIVE_VIEW_INTERVAL_MS + 1000);
    expect(takes.length).toBe(asked);

    // The history of the last 24 hours lists the pictures, each with who asked; one opens full size.
    await page.getByTestId('device-list').getByTestId('device-name').filter({ hasText: PANEL }).click();
    await modal(page).getByTestId('detail-tab-history').click();
    await expect(modal(page).getByTestId('detail-tab-history')).toHaveText(words.history);
    const history = modal(page).getByTestId('history-tab');
    for (const id of seen)
      await expect(
        history.locator(`[data-testid="history-screenshot"][data-screenshot-id="${id}"]`),
      ).toBeVisible();
    const shot = history.getByTestId('history-screenshot').last();
    await expect(shot.getByTestId('history-screenshot-by')).toHaveText(words.askedBy);
    const thumb = shot.locator('img');
    await expect(thumb).toHaveAttribute('src', /size=thumb/);
    await expect(thumb).toHaveJSProperty('complete', true);
    expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(
      screenshots.SCREENSHOT_THUMB_WIDTH,
    );
    await shot.scrollIntoViewIfNeeded();
    await snapshot(page, `panel-history-screenshots-${language}`);
    await thumb.click();
    const full = page.locator('.ant-image-preview-img');
    await expect(full).toHaveAttribute('src', /size=full/);
    await expect(full).toHaveJSProperty('complete', true);
    expect(await full.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(
      screenshots.SCREENSHOT_THUMB_WIDTH,
    );
    await snapshot(page, `panel-history-screenshot-full-${language}`);
    await page.keyboard.press('Escape');
    await expect(full).toBeHidden();
  });

  test(`an offline panel's screenshot fails in words (${language})`, async ({ page }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    await expect.poll(async () => (await panelRow(page)).isOnline, { timeout: 30_000 }).toBe('1');
    const { deviceId } = await panelRow(page);
    await apiCall(page, url, device.sendCommandByDeviceId, { deviceId, order: '02' });
    await expect.poll(async () => (await panelRow(page)).isOnline, { timeout: 30_000 }).toBe('0');
    try {
      await openScreen(page);
      await expect(modal(page).getByTestId('detail-online')).toHaveAttribute('data-online', '0');
      await expect(modal(page)).toContainText(words.offlineHint);
      await expect(modal(page).getByTestId('screenshot-live')).toBeDisabled();
      await modal(page).getByTestId('screenshot-take').click();
      const failure = modal(page).getByTestId('screenshot-failure');
      await expect(failure).toHaveAttribute('data-failure', 'offline');
      await expect(failure).toHaveText(words.offlineFailure);
      await snapshot(page, `screenshot-offline-${language}`);
    } finally {
      await apiCall(page, url, device.sendPowerUpByDeviceId, { deviceId });
      await expect.poll(async () => (await panelRow(page)).isOnline, { timeout: 60_000 }).toBe('1');
    }
  });
}
