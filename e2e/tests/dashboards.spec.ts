import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { dashboard, device } from '@panelfleet/contract';
import { switchLanguage } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl, servers } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Dashboards (index1: Dashboard B, index2: Dashboard A), their maps, the Map tab and the live
// console against the e2e server's simulated panels of Riverside School. The figures are counted
// by the test itself from the server's database and the device API, never copied from the page.
const url = baseUrl('normal');
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const IDLE_MS = 30 * 60_000;

/** Panels, online panels (by the device API), users and signed-in users of the companies `userName` reaches. */
function scopeOf(userName: string) {
  const db = new Database(path.join(servers.normal.dataDir, 'panelfleet.db'), { readonly: true });
  try {
    const user = db.prepare('SELECT org_id, user_type FROM users WHERE user_name = ?').get(userName) as {
      org_id: number;
      user_type: string;
    };
    const orgs = (
      user.user_type === '0'
        ? db.prepare("SELECT id FROM organisations WHERE kind = 'customer'").all()
        : user.user_type === '1'
          ? db
              .prepare("SELECT id FROM organisations WHERE kind = 'customer' AND parent_id = ?")
              .all(user.org_id)
          : [{ id: user.org_id }]
    ).map((r) => (r as { id: number }).id);
    const list = orgs.join(',') || '0';
    const count = (query: string, ...args: unknown[]) => (db.prepare(query).get(...args) as { n: number }).n;
    return {
      devices: count(`SELECT count(*) AS n FROM devices WHERE org_id IN (${list})`),
      users: count(`SELECT count(*) AS n FROM users WHERE org_id IN (${list})`),
      onlineUsers: count(
        `SELECT count(DISTINCT s.user_id) AS n FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE u.org_id IN (${list}) AND u.enabled = 1 AND s.last_seen_at > ?`,
        Date.now() - IDLE_MS,
      ),
    };
  } finally {
    db.close();
  }
}

/** Panels of the operator's company and how many are online now, by the device API. */
async function fleet(page: Page) {
  const list = await apiCall(page, url, device.listDevices, { start: 1, size: 100 });
  return {
    total: list.totalRecords,
    online: list.listObject.filter((d) => d.isOnline === '1').length,
    panels: list.listObject,
  };
}

const counter = (page: Page, id: string) => page.getByTestId(id);

async function expectFigures(page: Page, userName: string, online: number) {
  const scope = scopeOf(userName);
  await expect(counter(page, 'counter-devices')).toHaveAttribute('data-value', String(scope.devices));
  await expect(counter(page, 'counter-online-devices')).toHaveAttribute('data-value', String(online));
  await expect(counter(page, 'counter-users')).toHaveAttribute('data-value', String(scope.users));
  await expect(counter(page, 'counter-online-users')).toHaveAttribute(
    'data-value',
    String(scope.onlineUsers),
  );
}

test('the company users land on Dashboard A with the fleet their company has', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US', /\/home\/index2/);
  await expect(page.getByTestId('dashboard-a')).toBeVisible();
  await expect.poll(async () => (await fleet(page)).online, { timeout: 30_000 }).toBeGreaterThanOrEqual(6);
  const { online } = await fleet(page);
  await expectFigures(page, 'operator1', online);
  // The map counts every panel that reported a position (all simulated panels do).
  const located = (await fleet(page)).panels.filter((p) => p.deviceKey.startsWith('E2E-')).length;
  await expect
    .poll(async () => Number(await page.getByTestId('map-located').getAttribute('data-value')))
    .toBeGreaterThanOrEqual(located);
  await expect(page.getByTestId('region-map-china')).toBeVisible();
  await page.waitForTimeout(3600); // the counters' animation (3.5 s) ends before the picture
  await snapshot(page, 'dashboard-a-en-US', { fullPage: true });
  await page.getByTestId('map-toggle-world').click();
  await expect(page.getByTestId('region-map-world')).toBeVisible();
  await snapshot(page, 'dashboard-a-world-en-US', { fullPage: true });
  await switchLanguage(page, 'zh-CN');
  await expect(page.getByText('设备总数')).toBeVisible();
  await page.getByTestId('map-toggle-china').click();
  await snapshot(page, 'dashboard-a-zh-CN', { fullPage: true });
});

test('powering a panel off changes the online counter and the device list within 2 s, without a reload', async ({
  page,
  context,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US', /\/home\/index2/);
  await expect.poll(async () => (await fleet(page)).online, { timeout: 30_000 }).toBeGreaterThanOrEqual(6);
  const target = (await fleet(page)).panels.find((p) => p.deviceKey === 'E2E-00004' && p.isOnline === '1');
  expect(target, 'E2E-00004 online').toBeTruthy();
  const list = await context.newPage();
  await list.goto(`${url}/home/deviceManage`);
  await list.getByTestId('device-list').waitFor();
  await list.getByTestId('list-search').fill('E2E-00004');
  await list.getByTestId('list-search-button').click();
  const row = list
    .getByTestId('device-list')
    .locator('.ant-table-tbody .ant-table-row')
    .filter({ hasText: 'E2E-00004' });
  await expect(row.getByTestId('device-online')).toHaveAttribute('data-online', '1');
  await page.bringToFront();
  const before = (await fleet(page)).online;
  await expect(counter(page, 'counter-online-devices')).toHaveAttribute('data-value', String(before));

  await apiCall(page, url, device.sendCommandByDeviceId, { deviceId: target!.deviceId, order: '02' });
  // From the moment the server counts it offline, the page has 2 s (its fallback poll is 5 s).
  await expect
    .poll(
      async () =>
        (await apiCall(page, url, device.listIsOnlineByDeviceKey, { deviceKeyList: 'E2E-00004' }))
          .listObject[0]?.isOnline,
      { intervals: [50], timeout: 15_000 },
    )
    .toBe('0');
  await expect(counter(page, 'counter-online-devices')).toHaveAttribute('data-value', String(before - 1), {
    timeout: 2000,
  });
  await expect(row.getByTestId('device-online')).toHaveAttribute('data-online', '0', { timeout: 2000 });
  await list.close();

  await apiCall(page, url, device.sendPowerUpByDeviceId, { deviceId: target!.deviceId });
  await expect(counter(page, 'counter-online-devices')).toHaveAttribute('data-value', String(before), {
    timeout: 30_000,
  });
});

test('a customer manager and a distributor land on Dashboard B with their scope', async ({ page }) => {
  await signIn(page, 'normal', 'manager1', 'manager123', 'en-US', /\/home\/index1/);
  await expect(page.getByTestId('dashboard-b')).toHaveAttribute('data-scope', 'company');
  const operatorView = await apiCall(page, url, dashboard.previewCustomerDevice, {});
  await expectFigures(page, 'manager1', operatorView.dataObject.activeDeviceTotal);
  await expect(page.getByTestId('gauge-memory')).toBeVisible();
  await page.getByTestId('ota-more').click();
  await expect(page.getByTestId('ota-versions-modal').locator('.ant-table-row').first()).toBeVisible();
  await snapshot(page, 'dashboard-b-versions-en-US');
  await page.keyboard.press('Escape');
  await page.waitForTimeout(3600);
  await snapshot(page, 'dashboard-b-en-US', { fullPage: true });
  await switchLanguage(page, 'zh-CN');
  await page.getByTestId('map-toggle-world').click();
  await expect(page.getByTestId('region-map-world')).toBeVisible();
  await snapshot(page, 'dashboard-b-world-zh-CN', { fullPage: true });

  await page.context().clearCookies();
  await signIn(page, 'normal', 'sales1', 'sales123', 'en-US', /\/home\/index1/);
  await expect(page.getByTestId('dashboard-b')).toHaveAttribute('data-scope', 'distributor');
  const sales = await apiCall(page, url, dashboard.previewCustomerDevice, {});
  await expectFigures(page, 'sales1', sales.dataObject.activeDeviceTotal);
  await expect(page.getByTestId('chart-customers-pie')).toBeVisible();
});

test('the platform admin opens Dashboard B over every customer with the server host gauges', async ({
  page,
}) => {
  await signIn(page, 'normal', 'admin', 'admin123', 'en-US');
  await page.goto(`${url}/home/index1`);
  await expect(page.getByTestId('dashboard-b')).toHaveAttribute('data-scope', 'platform');
  const all = await apiCall(page, url, dashboard.previewCustomerDevice, {});
  expect(all.dataObject.systemInfo.source).toBe('host');
  await expectFigures(page, 'admin', all.dataObject.activeDeviceTotal);
  await page.waitForTimeout(3600);
  await snapshot(page, 'dashboard-b-platform-en-US', { fullPage: true });
});

test('the Map tab shows the located panels with their positions, zooms into a cluster and opens a panel', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US', /\/home\/index2/);
  await page.goto(`${url}/map`);
  await page.waitForURL(/\/home\/Map$/);
  const map = page.getByTestId('fleet-map');
  await expect(map).toBeVisible();
  const reply = await apiCall(page, url, dashboard.mapDevices, {});
  const simulated = reply.listObject.filter((d) => d.deviceKey.startsWith('E2E-'));
  expect(simulated.length).toBeGreaterThanOrEqual(6);
  for (const panel of simulated) {
    expect(panel.source).toBe('gps');
    expect(panel.latitude).toBeGreaterThan(31);
    expect(panel.longitude).toBeGreaterThan(121);
  }
  await expect(map).toHaveAttribute('data-panels', String(reply.listObject.length));
  await expect(page.getByTestId('fleet-map-located')).toHaveAttribute(
    'data-value',
    String(reply.totalRecords),
  );
  await snapshot(page, 'map-view-en-US');
  await page.getByTestId('fleet-map-toggle-china').click();
  await expect(page.getByTestId('fleet-map-china')).toBeVisible();
  await switchLanguage(page, 'zh-CN');
  await snapshot(page, 'map-view-zh-CN');
  // Click the marks holding online panels until a single panel is hit: clusters zoom in, a panel opens its detail.
  await page.getByTestId('fleet-map-toggle-world').click();
  await expect(page.getByTestId('fleet-map-world')).toBeVisible();
  const chart = page.getByTestId('fleet-map-world');
  // The marks are drawn on their own canvas layer (zlevel 1); positions are relative to the chart.
  const findMark = () =>
    chart.evaluate((element) => {
      const box = element.getBoundingClientRect();
      for (const c of Array.from(element.querySelectorAll('canvas'))) {
        const rect = c.getBoundingClientRect();
        const ratio = c.width / rect.width;
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        const near = (i: number, rgb: number[]) => rgb.every((v, k) => Math.abs(data[i + k]! - v) < 14);
        // Green: all online; orange: a group mixing online and offline panels, which zooms in too.
        for (const rgb of [
          [82, 196, 26],
          [250, 140, 22],
        ])
          for (let i = 0; i < data.length; i += 4)
            if (near(i, rgb))
              return {
                x: rect.left - box.left + ((i / 4) % c.width) / ratio + 3,
                y: rect.top - box.top + Math.floor(i / 4 / c.width) / ratio + 3,
              };
      }
      return null;
    });
  for (let attempt = 0; attempt < 8 && !(await page.getByTestId('device-detail').isVisible()); attempt++) {
    // The marks fade and grow in after every zoom: look again until one is drawn in full.
    let mark: Awaited<ReturnType<typeof findMark>> = null;
    await expect
      .poll(async () => (mark = await findMark()), {
        message: 'a mark with online panels on the map',
        timeout: 10_000,
      })
      .not.toBeNull();
    await chart.click({ position: mark! });
    await page.waitForTimeout(600); // the map's zoom animation
  }
  await expect(page.getByTestId('device-detail')).toBeVisible();
  await expect(page.getByTestId('detail-online')).toHaveAttribute('data-online', '1');
  await snapshot(page, 'map-view-detail-zh-CN');
  await page.keyboard.press('Escape');
  // The legacy /index goes to the user's start view.
  await page.goto(`${url}/index`);
  await page.waitForURL(/\/home\/index2$/);
});

test('the event stream is refused without a session and ends at sign-out', async ({ page }) => {
  const anonymous = await page.request.get(`${url}/platform/live/events`);
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).status).toBe(518);
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US', /\/home\/index2/);
  const ended = page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const source = new EventSource('/platform/live/events');
        source.addEventListener('ready', () => {
          void fetch('/platform/loginOut', { method: 'POST', headers: { Accept: 'application/json' } });
        });
        source.addEventListener('end', (e) => {
          source.close();
          resolve((e as MessageEvent<string>).data);
        });
      }),
  );
  expect(JSON.parse(await ended)).toEqual({ reason: 'sessionEnded' });
});
