import { expect, test, type Page } from '@playwright/test';
import { device, machineTypes } from '@panelfleet/contract';
import { apiCall } from '../support/api.js';
import { pickOptions, switchLanguage } from '../support/antd.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Signal sources and machine types (the platform's hardware catalog), read-only for a customer's
// administrator, and the feedback log of commands sent to the Riverside School panels E2E-00001...
const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-5);
const source = { name: `USB-C ${run}`, key: `usbc-${run}` };
const machineType = `PF-E2E-${run}`;
const panelSerial = `CAT-${run}`.toUpperCase();

test.describe.configure({ mode: 'serial' });

const row = (page: Page, text: string) => page.locator('.ant-table-row').filter({ hasText: text });

async function searchFor(page: Page, text: string) {
  await page.getByTestId('list-search').fill(text);
  await page.getByTestId('list-search-button').click();
}

/** The table has its rows (no loading veil over it). */
const settled = (page: Page) => expect(page.locator('.ant-table .ant-spin-blur')).toHaveCount(0);

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

test('the platform adds, edits and deletes a signal source, and may not delete one a machine type uses', async ({
  page,
}) => {
  await signIn(page, 'normal', 'admin', 'admin123', 'en-US');
  await page.goto(`${url}/home/sourceManage`);
  await expect(row(page, 'hdmi1')).toBeVisible();
  await expect(page.getByTestId('catalog-read-only')).toHaveCount(0);
  await bothLanguages(page, 'sources-list', async (p) => {
    await expect(p.getByRole('columnheader', { name: '信号名称' })).toBeVisible();
  });

  await page.getByTestId('list-add').click();
  const form = page.getByTestId('source-form');
  await form.getByTestId('source-form-ok').click();
  await expect(form.getByText('This field is required')).toHaveCount(2);
  await form.getByTestId('source-key').fill('hdmi 4');
  await expect(form.getByText("Key: 1 to 32 letters, digits, '.', '_' or '-'")).toBeVisible();
  await snapshot(page, 'source-add-errors-en-US');
  await form.getByTestId('source-name').fill(source.name);
  await form.getByTestId('source-key').fill('hdmi1');
  await form.getByTestId('source-form-ok').click();
  // The server refuses a key in use; the dialog stays open.
  await expect(page.getByText('A signal source with this key exists')).toBeVisible();
  await expect(form).toBeVisible();
  await form.getByTestId('source-key').fill(source.key);
  await form.getByTestId('source-form-ok').click();
  await expect(form).toBeHidden();
  await searchFor(page, source.name);
  await expect(row(page, source.key)).toBeVisible();

  // The header's language switch sits under an open dialog: switch first, then open it.
  await switchLanguage(page, 'zh-CN');
  await page.getByTestId('list-add').click();
  await form.getByTestId('source-form-ok').click();
  await expect(form.getByText('此项不能为空')).toHaveCount(2);
  await snapshot(page, 'source-add-errors-zh-CN');
  await form.getByRole('button', { name: /取\s*消/ }).click();
  await row(page, source.key).getByTestId('row-edit').click();
  await expect(page.locator('.ant-modal-title')).toHaveText('编辑信号源');
  await snapshot(page, 'source-edit-zh-CN');
  await form.getByRole('button', { name: /取\s*消/ }).click();
  await expect(form).toBeHidden();
  await switchLanguage(page, 'en-US');

  await row(page, source.key).getByTestId('row-edit').click();
  await expect(form.getByTestId('source-name')).toHaveValue(source.name);
  await snapshot(page, 'source-edit-en-US');
  await form.getByTestId('source-name').fill(`${source.name} rear`);
  await form.getByTestId('source-form-ok').click();
  await expect(form).toBeHidden();
  await expect(row(page, source.key)).toContainText(`${source.name} rear`);

  await row(page, source.key).getByTestId('row-delete').click();
  await snapshot(page, 'source-delete-confirm-en-US');
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(row(page, source.key)).toHaveCount(0);

  await page.getByTestId('list-refresh').click();
  await row(page, 'hdmi3').getByTestId('row-delete').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(
    page.getByText('Machine types use this signal source (x9_vn); it cannot be deleted'),
  ).toBeVisible();
  await expect(row(page, 'hdmi3')).toBeVisible();
});

test('the platform adds a machine type with sources; once a panel reports it, name and state lock and delete is disabled', async ({
  page,
}) => {
  await signIn(page, 'normal', 'admin', 'admin123', 'en-US');
  await page.goto(`${url}/home/machineManage`);
  // The simulated panels report x9_vn, oem and rs: those are referenced already.
  const x9 = row(page, 'x9_vn');
  await expect(x9).toBeVisible();
  await expect(x9.getByTestId('machine-type-references')).not.toHaveText('0');
  await expect(x9.getByTestId('row-delete')).toBeDisabled();
  await bothLanguages(page, 'machine-types-list', async (p) => {
    await expect(p.getByRole('columnheader', { name: '输入源' })).toBeVisible();
  });

  await page.getByTestId('list-add').click();
  const form = page.getByTestId('machine-type-form');
  await form.getByTestId('machine-type-form-ok').click();
  await expect(form.getByText('This field is required')).toBeVisible();
  await form.getByTestId('machine-type-name').fill(machineType);
  await pickOptions(page, form.getByTestId('machine-type-sources'), [
    'HDMI2 (hdmi2)',
    'FRONT (front)',
    'PC (pc)',
  ]);
  await snapshot(page, 'machine-type-add-en-US');
  await form.getByTestId('machine-type-form-ok').click();
  await expect(form).toBeHidden();
  await searchFor(page, machineType);
  const added = row(page, machineType);
  await expect(added.getByTestId('machine-type-inputs')).toHaveText(/HDMI2\s*FRONT\s*PC/);
  await expect(added.getByTestId('machine-type-references')).toHaveText('0');
  await expect(added.getByTestId('row-delete')).toBeEnabled();
  await switchLanguage(page, 'zh-CN');
  await page.getByTestId('list-add').click();
  await expect(page.locator('.ant-modal-title')).toHaveText('新增机型');
  await pickOptions(page, form.getByTestId('machine-type-sources'), ['HDMI1 (hdmi1)', 'DP (dp)']);
  await snapshot(page, 'machine-type-add-zh-CN');
  await form.getByRole('button', { name: /取\s*消/ }).click();
  await expect(form).toBeHidden();
  await switchLanguage(page, 'en-US');

  // Unreferenced: everything may change.
  await added.getByTestId('row-edit').click();
  await expect(form.getByTestId('machine-type-locked')).toHaveCount(0);
  await expect(form.getByTestId('machine-type-name')).toBeEnabled();
  await form.getByTestId('machine-type-state').getByText('Disabled').click();
  await form.getByTestId('machine-type-form-ok').click();
  await expect(form).toBeHidden();
  await expect(added).toContainText('Disabled');
  await added.getByTestId('row-edit').click();
  await form.getByTestId('machine-type-state').getByText('Enabled').click();
  await form.getByTestId('machine-type-form-ok').click();
  await expect(form).toBeHidden();
  await expect(added).toContainText('Enabled');

  // A panel of this series enrolls with Riverside School's enrollment secret.
  const operator = await page.context().browser()!.newPage();
  await signIn(operator, 'normal', 'operator1', 'operator123', 'en-US');
  const { dataObject } = await apiCall(operator, url, device.getEnrollmentSecret, {});
  await operator.close();
  const enrolled = await page.request.post(`${url}/device/enroll`, {
    data: {
      v: 1,
      serial: panelSerial,
      enrollmentSecret: dataObject.enrollmentSecret,
      model: 'PF-86',
      machineType,
    },
  });
  expect(enrolled.ok()).toBe(true);

  await page.getByTestId('list-search-button').click();
  await expect(added.getByTestId('machine-type-references')).toHaveText('1');
  await expect(added.getByTestId('row-delete')).toBeDisabled();
  await added.getByTestId('row-edit').click();
  await expect(form.getByTestId('machine-type-locked')).toContainText('In use by devices or files (1)');
  await expect(form.getByTestId('machine-type-name')).toBeDisabled();
  await expect(form.getByTestId('machine-type-state').locator('input').first()).toBeDisabled();
  await snapshot(page, 'machine-type-locked-en-US');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toBeHidden();
  await switchLanguage(page, 'zh-CN');
  await added.getByTestId('row-edit').click();
  await expect(form.getByTestId('machine-type-locked')).toContainText('名称和状态已锁定');
  await snapshot(page, 'machine-type-locked-zh-CN');
  await form.getByRole('button', { name: /取\s*消/ }).click();
  await expect(form).toBeHidden();
  await switchLanguage(page, 'en-US');
  await added.getByTestId('row-edit').click();
  // Its input sources still change.
  await pickOptions(page, form.getByTestId('machine-type-sources'), ['DP (dp)']);
  await form.getByTestId('machine-type-form-ok').click();
  await expect(form).toBeHidden();
  await expect(added.getByTestId('machine-type-inputs')).toHaveText(/HDMI2\s*FRONT\s*PC\s*DP/);

  // The server holds the lock too, whatever a client sends.
  const id = (await apiCall(page, url, machineTypes.listMachineTypes, { start: 1, size: 5, machineType }))
    .listObject[0]!.machineTypeId;
  await expect(
    apiCall(page, url, machineTypes.updateMachineType, {
      machineTypeId: id,
      machineType: `${machineType}-x`,
      enable: '1',
      inputSourceIds: '',
    }),
  ).rejects.toThrow(/its name and state cannot change/);
  await expect(apiCall(page, url, machineTypes.deleteMachineType, { machineTypeId: id })).rejects.toThrow(
    /it cannot be deleted/,
  );
});

test('a customer administrator reads machine types and the catalog’s sources, and keeps sources of its own', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  await page.goto(`${url}/home/machineManage`);
  await expect(page.getByTestId('catalog-read-only')).toBeVisible();
  await expect(row(page, 'x9_vn')).toBeVisible();
  await expect(page.getByTestId('list-add')).toHaveCount(0);
  await expect(page.getByTestId('row-edit')).toHaveCount(0);
  await expect(page.getByTestId('row-delete')).toHaveCount(0);
  await bothLanguages(page, 'machine-types-read-only');

  // The catalog's sources are read-only here; the company adds, edits and deletes its own.
  await page.goto(`${url}/home/sourceManage`);
  await expect(page.getByTestId('sources-notice')).toBeVisible();
  await expect(row(page, 'hdmi1').locator('[data-owner="catalog"]')).toBeVisible();
  await expect(row(page, 'hdmi1').getByTestId('row-edit')).toHaveCount(0);
  const own = { name: `Lectern ${run}`, key: `lectern-${run}` };
  await page.getByTestId('list-add').click();
  const form = page.getByTestId('source-form');
  await form.getByTestId('source-name').fill(own.name);
  await form.getByTestId('source-key').fill('hdmi1');
  await form.getByTestId('source-form-ok').click();
  await expect(page.getByText('A signal source with this key exists')).toBeVisible();
  await form.getByTestId('source-key').fill(own.key);
  await form.getByTestId('source-form-ok').click();
  await expect(form).toBeHidden();
  await searchFor(page, own.name);
  await expect(row(page, own.key).locator('[data-owner="company"]')).toHaveText('Company');
  await bothLanguages(page, 'sources-own', async (p) => {
    await expect(row(p, own.key).locator('[data-owner="company"]')).toHaveText('公司');
  });
  await row(page, own.key).getByTestId('row-edit').click();
  await form.getByTestId('source-name').fill(`${own.name} PC`);
  await form.getByTestId('source-form-ok').click();
  await expect(row(page, own.key)).toContainText(`${own.name} PC`);
  await row(page, own.key).getByTestId('row-delete').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await expect(row(page, own.key)).toHaveCount(0);
  // Only its own company's panels count: the six simulated panels and the one enrolled above.
  await page.goto(`${url}/home/machineManage`);
  await searchFor(page, machineType);
  await expect(row(page, machineType).getByTestId('machine-type-references')).toHaveText('1');
});

test('the feedback log lists the commands sent to the simulated panels and filters by name and day', async ({
  page,
}) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  const panel = async (name: string) => {
    for (;;) {
      const reply = await apiCall(page, url, device.listDevices, { start: 1, size: 5, deviceName: name });
      const found = reply.listObject.find((d) => d.deviceName === name && d.isOnline === '1');
      if (found) return found;
      await page.waitForTimeout(500);
    }
  };
  const first = await panel('E2E-00001');
  const second = await panel('E2E-00002');
  await apiCall(page, url, device.sendCommandByDeviceId, {
    deviceId: first.deviceId,
    order: '00',
    value: '45',
  });
  await apiCall(page, url, device.sendCommandByDeviceId, {
    deviceId: second.deviceId,
    order: '01',
    value: '35',
  });
  await apiCall(page, url, device.sendCommandByDeviceId, {
    deviceId: first.deviceId,
    order: '08',
    value: 'ok',
  });

  await page.goto(`${url}/home/feedBack`);
  await searchFor(page, 'E2E-00001');
  const rows = page.locator('.ant-table-row');
  await expect(rows.filter({ hasText: 'Brightness control' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Virtual key' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'E2E-00002' })).toHaveCount(0);
  // The panels acknowledge: sent becomes succeeded (refresh reads again).
  for (;;) {
    const statuses = await rows
      .getByTestId('feedback-status')
      .evaluateAll((tags) => tags.map((t) => t.getAttribute('data-status')));
    if (statuses.length >= 2 && statuses.every((s) => s === 'success')) break;
    await page.waitForTimeout(500);
    await page.getByTestId('list-search-button').click();
  }
  await expect(rows.first()).toContainText('operator1');
  await bothLanguages(page, 'feedback-by-name', async (p) => {
    await expect(p.locator('.ant-table-row').filter({ hasText: '亮度控制' })).toHaveCount(1);
    await expect(p.locator('.ant-table-row').filter({ hasText: '成功' }).first()).toBeVisible();
  });

  await page.getByTestId('list-refresh').click();
  await expect(page.getByTestId('list-search')).toHaveValue('');
  await expect(rows.filter({ hasText: 'E2E-00002' }).filter({ hasText: 'Volume control' })).toHaveCount(1);

  const today = new Date().toLocaleDateString('sv-SE');
  const dateInput = page
    .locator('input[data-testid="feedback-date"], [data-testid="feedback-date"] input')
    .first();
  await dateInput.click();
  await dateInput.fill(today);
  await dateInput.press('Enter');
  await page.getByTestId('list-search-button').click();
  await expect(rows.filter({ hasText: 'E2E-00002' }).filter({ hasText: 'Volume control' })).toHaveCount(1);
  await bothLanguages(page, 'feedback-by-day', async (p) => {
    await expect(p.locator('.ant-table-row').filter({ hasText: '音量控制' })).toHaveCount(1);
  });

  await dateInput.click();
  await dateInput.fill('2020-01-01');
  await dateInput.press('Enter');
  await page.getByTestId('list-search-button').click();
  await expect(page.locator('.ant-table-placeholder')).toBeVisible();
  await expect(rows).toHaveCount(0);
});
