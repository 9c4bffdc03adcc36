import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { device, ota } from '@panelfleet/contract';
import { apiCall } from '../support/api.js';
import { pickOptions, switchLanguage } from '../support/antd.js';
import { tableFaults } from '../support/layout.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Issue 25, "Done when": the operation log, device detail, panel picker, dashboards, device map,
// OTA task list and OTA files table pictured at 1366x768 and 1440x900 in both languages, against
// the e2e server's Riverside School fleet with the things a week of use leaves behind (commands,
// a label, a firmware file with a long name, a staged upgrade in waves). What can be measured is:
// no overlap of a task's progress and its "Wave n of m", no clipped or broken column title, no
// chart without data that does not say so.
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-5);
const version = `2.7.${parseInt(run, 36) % 100_000}`;
const LABEL = `Truth ${run}`;
// An rs pair and an oem panel the file does not fit.
const LABEL_KEYS = ['E2E-00001', 'E2E-00002', 'E2E-00005'];
const IMAGE_NAME = `pf-rs-firmware-${run}-for-the-classroom-panels-of-riverside-school-north-wing.bin`;
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
] as const;
const LANGUAGES = ['en-US', 'zh-CN'] as const;
type Language = (typeof LANGUAGES)[number];

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const made: string[] = [];
test.afterAll(() => {
  for (const file of made) fs.rmSync(file, { force: true });
});

async function fleet(page: Page) {
  const list = await apiCall(page, url, device.listDevices, { start: 1, size: 50 });
  return list.listObject.filter((d) => d.deviceKey.startsWith('E2E-'));
}

const settled = (page: Page) => expect(page.locator('.ant-spin-blur, .ant-spin-spinning')).toHaveCount(0);

/**
 * The screen in both languages at both sizes: `open` shows it (again after a language switch when
 * a dialog hides the header), `check` asserts what can be measured at each size, and a picture
 * of each is saved as truth-<name>-<width>-<language>.png.
 */
async function everyWay(
  page: Page,
  name: string,
  check: (page: Page, language: Language) => Promise<void>,
  dialog?: { open: () => Promise<void>; close: () => Promise<void> },
) {
  for (const language of LANGUAGES) {
    if (language === 'zh-CN') await switchLanguage(page, 'zh-CN');
    if (dialog) await dialog.open();
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await settled(page);
      await check(page, language);
      await snapshot(page, `truth-${name}-${size.width}-${language}`);
    }
    if (dialog) await dialog.close();
  }
  await switchLanguage(page, 'en-US');
  await page.setViewportSize(SIZES[0]);
}

/** Column titles that do not show whole: cut by an ellipsis or by the cell, or broken inside a word. */
async function clippedTitles(table: Locator) {
  const faults = await tableFaults(table);
  const cut = await table.evaluate((root) =>
    Array.from(root.querySelectorAll<HTMLElement>('thead th'))
      .filter((th) => {
        const title = th.querySelector<HTMLElement>('.ant-table-column-title') ?? th;
        return title.scrollWidth > title.clientWidth + 1 || th.scrollWidth > th.clientWidth + 1;
      })
      .map((th) => th.textContent?.trim() ?? ''),
  );
  return { cut, brokenWords: faults.brokenWords, wider: faults.wider, spilling: faults.spilling };
}

/** Two boxes on the page share no pixel. */
const apart = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) =>
  a.x + a.width <= b.x + 1 ||
  b.x + b.width <= a.x + 1 ||
  a.y + a.height <= b.y + 1 ||
  b.y + b.height <= a.y + 1;

test('a week of use: commands, a label, a firmware file with a long name and an upgrade in waves', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await expect
    .poll(async () => (await fleet(page)).filter((d) => d.isOnline === '1').length, { timeout: 30_000 })
    .toBe(6);
  const panels = await fleet(page);
  const group = (await apiCall(page, url, device.insertGroup, { groupName: LABEL })).dataObject;
  await apiCall(page, url, device.saveGroupsAndDevices, {
    deviceIds: panels
      .filter((d) => LABEL_KEYS.includes(d.deviceKey))
      .map((d) => d.deviceId)
      .join(','),
    groupIds: String(group.groupId),
  });
  await apiCall(page, url, device.sendCommandByDeviceId, {
    deviceId: panels[1]!.deviceId,
    order: '00',
    value: '42',
  });
  await apiCall(page, url, device.sendCommandByTagIds, {
    tagIds: String(group.groupId),
    order: '07',
    value: '1',
  });

  // The firmware file, through the upload dialog as an operator sends one.
  const image = path.join(os.tmpdir(), IMAGE_NAME);
  fs.writeFileSync(image, crypto.randomBytes(1024 * 1024));
  made.push(image);
  await page.goto(`${url}/home/upgradeManage`);
  await page.getByTestId('ota-upload').click();
  const form = page.getByTestId('ota-upload-form');
  await form.locator('input[type="file"]').setInputFiles(image);
  await form.getByTestId('ota-upload-version').fill(version);
  await pickOptions(page, form.getByTestId('ota-file-machine-types'), ['rs']);
  await form.getByTestId('ota-upload-ok').click();
  await expect(page.locator('.ant-table-row', { hasText: version })).toBeVisible({ timeout: 30_000 });

  // A staged upgrade: waves of one panel; the simulated panels install and report.
  const file = (await apiCall(page, url, ota.listOtaFiles, { start: 1, size: 50 })).listObject.find(
    (f) => f.otaVersion === version,
  )!;
  const task = (
    await apiCall(page, url, ota.forceUpdate, {
      tagIds: String(group.groupId),
      otaFileId: file.id,
      waveMode: 'count',
      firstWave: 1,
      waveStep: 1,
      minResults: 1,
    } as never)
  ).dataObject;
  expect(task.waveCount).toBe(2);
});

test('the operation log says what happened in words', async ({ page }) => {
  // The company account's log of its users' actions (the customer administrator reads it as a report).
  await signIn(page, 'normal', 'customer1', 'customer123', 'en-US');
  await page.goto(`${url}/home/operationLog`);
  const content = page.getByTestId('operation-content');
  await expect(content.filter({ hasText: LABEL }).first()).toBeVisible();
  await everyWay(page, 'operation-log', async (p, language) => {
    await expect(
      p
        .getByTestId('operation-type')
        .filter({ hasText: language === 'en-US' ? 'Label command' : '标签指令' })
        .first(),
    ).toBeVisible();
    for (const text of await p.getByTestId('operation-type').allTextContents())
      expect(text).not.toMatch(/^[a-z]+[A-Z.]/);
    for (const text of await content.allTextContents()) expect(text).not.toMatch(/[{}]|"\w+":/);
    expect(await clippedTitles(p.locator('.ant-table-wrapper').first())).toMatchObject({
      cut: [],
      brokenWords: [],
    });
  });
});

test('the device detail shows what the panel reports', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/deviceManage`);
  const key = 'E2E-00002';
  await page.getByTestId('list-search').fill(key);
  await page.getByTestId('list-search-button').click();
  const modal = page.getByTestId('device-detail');
  await everyWay(
    page,
    'device-detail',
    async (_p, language) => {
      await expect(modal.getByTestId('detail-mac')).toHaveText(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
      await expect(modal.getByTestId('detail-netmask')).toHaveText('255.255.0.0');
      await expect(modal.getByTestId('detail-time-zone')).toContainText(
        language === 'en-US' ? 'UTC+08:00 (upgrade windows' : 'UTC+08:00（升级时间窗',
      );
    },
    {
      open: async () => {
        await page.getByTestId('device-list').getByTestId('device-name').filter({ hasText: key }).click();
        await expect(modal).toBeVisible();
      },
      close: async () => {
        await page.keyboard.press('Escape');
        await expect(modal).toBeHidden();
      },
    },
  );
});

test('the panel picker of a force upgrade says how many panels the label reaches', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/upgradeManage`);
  const force = page.getByTestId('force-upgrade');
  await everyWay(
    page,
    'panel-picker',
    async (_p, language) => {
      await expect(force.getByTestId('force-count')).toHaveText(
        language === 'en-US'
          ? `2 panels in ${LABEL}; 1 more in these labels that the file does not fit`
          : `${LABEL} 中的 2 台面板；这些标签中另有 1 台与此文件不匹配`,
      );
      await expect(force.getByTestId('force-devices').locator('.ant-table-row')).toHaveCount(2);
    },
    {
      open: async () => {
        await page.locator('.ant-table-row', { hasText: version }).getByTestId('row-force-upgrade').click();
        await force.locator(`[data-testid="force-label"][data-label="${LABEL}"]`).click();
      },
      close: async () => {
        await page.locator('.ant-modal-wrap').filter({ has: force }).locator('.ant-modal-close').click();
        await expect(force).toBeHidden();
      },
    },
  );
});

/**
 * The browser asks for less motion (playwright.config.ts): the counters show their figures the
 * first time they are known, not a count on its way up, and the charts draw without growing in,
 * so what is pictured is what the data say.
 */
async function stillFigures(page: Page) {
  const first = await page.waitForFunction(() => {
    const counter = document.querySelector('[data-testid="counter-devices"]');
    const value = counter?.getAttribute('data-value');
    return value && value !== '0' ? { value, shown: counter!.textContent } : false;
  });
  const { value, shown } = (await first.jsonValue()) as { value: string; shown: string };
  expect(shown).toBe(value);
  await expect(page.locator('[data-animated]').first()).toBeVisible();
  for (const chart of await page.locator('[data-animated]').all())
    await expect(chart).toHaveAttribute('data-animated', 'false');
}

test('the dashboards draw what was reported and say where there is nothing', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US', /\/home\/index2/);
  await stillFigures(page);
  await expect(page.getByTestId('chart-usage')).toBeVisible();
  const empties = async (p: Page, language: Language) => {
    // Every chart without data says so in words, in the language shown.
    for (const empty of await p.locator('[data-empty="true"]').all())
      await expect(empty).toContainText(language === 'en-US' ? /\b(no|not)\b/i : /暂无|没有|无/);
  };
  await everyWay(page, 'dashboard-a', empties);
  await page.context().clearCookies();
  await signIn(page, 'normal', 'manager1', 'manager123', 'en-US', /\/home\/index1/);
  await stillFigures(page);
  await expect(page.getByTestId('gauge-disk')).toHaveAttribute('data-empty', 'true');
  await everyWay(page, 'dashboard-b', async (p, language) => {
    await expect(p.getByTestId('gauge-disk')).toContainText(
      language === 'en-US' ? 'No data yet' : '暂无数据',
    );
    await empties(p, language);
  });
});

test('the device map shows the panels', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/Map`);
  await expect(page.getByTestId('fleet-map')).toBeVisible();
  await expect(page.getByTestId('fleet-map')).not.toHaveAttribute('data-points', '0');
  await everyWay(page, 'device-map-world', async (p) => {
    await expect(p.getByTestId('fleet-map')).toBeVisible();
  });
  await page.getByTestId('fleet-map-toggle-china').click();
  await everyWay(page, 'device-map-china', async (p) => {
    await expect(p.getByTestId('fleet-map-china')).toBeVisible();
    // Riverside School is in Shanghai: all six panels are on the China map, none elsewhere.
    await expect(p.getByTestId('fleet-map-located')).toHaveAttribute('data-value', '6');
    await expect(p.getByTestId('fleet-map-elsewhere')).toHaveCount(0);
  });
});

test('the OTA task list keeps the progress apart from "Wave n of m"', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/renew`);
  const task = page.locator('.ant-table-row', { hasText: version });
  await expect(task.getByTestId('task-wave')).toBeVisible();
  await everyWay(page, 'ota-tasks', async (p, language) => {
    await expect(task.getByTestId('task-wave')).toHaveText(
      language === 'en-US' ? /^Wave [12] of 2$/ : /^第 [12] 批 \/ 共 2 批$/,
    );
    const progress = await task.getByTestId('task-progress').boundingBox();
    const wave = await task.getByTestId('task-wave').boundingBox();
    expect(progress && wave && apart(progress, wave)).toBe(true);
    expect(await clippedTitles(p.locator('.ant-table-wrapper').first())).toEqual({
      cut: [],
      brokenWords: [],
      wider: false,
      spilling: [],
    });
  });
});

test('the OTA files table fits: whole column titles, long names ellipsised', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/upgradeManage`);
  const row = page.locator('.ant-table-row', { hasText: version });
  await expect(row).toBeVisible();
  await everyWay(page, 'ota-files', async (p) => {
    expect(await clippedTitles(p.locator('.ant-table-wrapper').first())).toEqual({
      cut: [],
      brokenWords: [],
      wider: false,
      spilling: [],
    });
    const name = row.getByTestId('ota-file-name');
    expect(await name.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    // Every action of the row shows whole.
    for (const button of await row.locator('button, a').all()) {
      const clipped = await button.evaluate((e) => e.scrollWidth > e.clientWidth + 1);
      expect(clipped, (await button.textContent()) ?? '').toBe(false);
    }
  });
});

test('without a mail server the forgotten-password page says where the mail went, in Chinese too', async ({
  page,
}) => {
  // The page offers the language switch before signing in; the reply is in the language chosen.
  await page.addInitScript(() => {
    if (!window.localStorage.getItem('language')) window.localStorage.setItem('language', 'zh-CN');
  });
  await page.goto(`${url}/findPassword`);
  await page.locator('input[autocomplete="email"]').fill('customer1@example.com');
  await page.getByTestId('find-password-submit').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('重置邮件已写入服务器的发件箱文件夹');
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await snapshot(page, `truth-find-password-outbox-${size.width}-zh-CN`);
  }
});
