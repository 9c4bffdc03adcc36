import { expect, test, type Page } from '@playwright/test';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Issue 27 items 5 and 6: a panel's history with its charts in the device detail, and the
// proof-of-play report with its preview, in both languages, against the e2e fleet (E2E-00001...).
const url = baseUrl('normal');
const PANEL = 'E2E-00001';

test.describe.configure({ mode: 'serial' });

async function openDetail(page: Page) {
  await page.goto(`${url}/home/deviceManage`);
  await page.getByTestId('list-search').fill(PANEL);
  await page.getByTestId('list-search-button').click();
  await page.getByTestId('device-list').getByTestId('device-name').filter({ hasText: PANEL }).click();
  await expect(page.getByTestId('device-detail').getByTestId('detail-title')).toContainText(PANEL);
}

const WORDS = {
  'en-US': {
    tab: 'History',
    connected: 'Connected',
    screenshots: 'No screenshots taken in this range',
    report: 'Proof of play',
    title: 'Proof of play report',
    program: 'Program',
  },
  'zh-CN': {
    tab: '历史',
    connected: '已连接',
    screenshots: '此时段内没有截屏',
    report: '播放证明',
    title: '节目播放证明报表',
    program: '节目',
  },
} as const;

for (const language of ['en-US', 'zh-CN'] as const) {
  const words = WORDS[language];

  test(`shows a panel's history with its charts in ${language}`, async ({ page }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    await openDetail(page);
    const tab = page.getByTestId('detail-tab-history');
    await expect(tab).toHaveText(words.tab);
    await tab.click();
    const history = page.getByTestId('history-tab');
    await expect(history.getByTestId('history-resolution')).toHaveAttribute('data-resolution', 'raw');
    for (const chart of ['presence', 'telemetry', 'picture', 'network'])
      await expect(history.getByTestId(`history-chart-${chart}`).locator('canvas').first()).toBeVisible();
    // The panel connected when the fleet started: its presence lists it with the reason.
    await expect(history.getByTestId('history-presence')).toContainText(words.connected);
    await expect(history.getByTestId('history-screenshots')).toContainText(words.screenshots);
    await snapshot(page, `panel-history-${language}`);
    // Longer than two days: the charts show hourly averages.
    await history
      .getByTestId('history-preset')
      .getByText(language === 'en-US' ? '7 days' : '7 天')
      .click();
    await expect(history.getByTestId('history-resolution')).toHaveAttribute('data-resolution', 'hour');
    await expect(history.getByTestId('history-chart-telemetry').locator('canvas').first()).toBeVisible();
    await snapshot(page, `panel-history-week-${language}`);
  });

  test(`runs the proof-of-play report with its preview in ${language}`, async ({ page }) => {
    await signIn(page, 'normal', 'operator1', 'operator123', language);
    await page.goto(`${url}/home/report`);
    await page.getByRole('tab', { name: words.report, exact: true }).click();
    const panel = page.getByTestId('report-proofOfPlay');
    await panel.getByTestId('report-search').click();
    await expect(panel.locator('.ant-table-thead')).toContainText(words.program);
    await snapshot(page, `proof-of-play-${language}`);
    const [preview] = await Promise.all([
      page.waitForEvent('popup'),
      panel.getByTestId('report-preview').click(),
    ]);
    await expect(preview.locator('body')).toContainText(words.title);
    await snapshot(preview, `proof-of-play-preview-${language}`);
    await preview.close();
  });
}
