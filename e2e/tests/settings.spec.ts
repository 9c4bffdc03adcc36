import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { device, deviceDetail, settings } from '@panelfleet/contract';
import { certificateChain, makeCertificate, validCertificate } from '../../apps/server/test/x509-fixtures.js';
import { pickOption } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl, servers } from '../support/servers.js';
import { signIn } from '../support/session.js';

// The setting page, the device detail's saved-settings dialogs and the certificate page against
// the e2e server's simulated panels (E2E-00001 oem, 00002 rs, 00003 x9_vn, 00004 oem, 00005 rs,
// 00006 x9_vn). Every check of a push reads what the simulated panels reported back.
const url = baseUrl('normal');
const X9_PANELS = ['E2E-00003', 'E2E-00006'];
const OEM_PANEL = 'E2E-00001';
const run = Date.now().toString(36).slice(-4);
const X9_LABEL = `Settings x9 ${run}`;
const MIXED_LABEL = `Settings mixed ${run}`;

test.describe.configure({ mode: 'serial' });

async function fleet(page: Page) {
  const list = await apiCall(page, url, device.listDevices, { start: 1, size: 50 });
  return list.listObject.filter((d) => d.deviceKey.startsWith('E2E-'));
}
async function idOf(page: Page, key: string) {
  const found = (await fleet(page)).find((d) => d.deviceKey === key);
  if (!found) throw new Error(`${key} is not listed`);
  return found.deviceId;
}
async function reportedSettings(page: Page, key: string) {
  const rows = (await apiCall(page, url, deviceDetail.listDeviceSetting, { deviceId: await idOf(page, key) }))
    .listObject;
  return Object.fromEntries(rows.map((r) => [r.section, r.value])) as Record<string, unknown>;
}
async function reportedPicture(page: Page, key: string, source: device.SourceType) {
  const reply = await apiCall(page, url, settings.listDeviceSourceSetting, {
    deviceId: await idOf(page, key),
  });
  return reply.listObject.find((p) => p.sourceType === source)?.picture;
}

/** Signs in as the customer administrator and waits until the whole fleet is online. */
async function signInOperator(page: Page, language: 'en-US' | 'zh-CN' = 'en-US') {
  await signIn(page, 'normal', 'operator1', 'operator123', language);
  await expect
    .poll(async () => (await fleet(page)).filter((d) => d.isOnline === '1').length, { timeout: 30_000 })
    .toBe(6);
}

async function labelOf(page: Page, name: string, keys: string[]) {
  const groups = await apiCall(page, url, device.listGroups, {});
  const existing = groups.listObject.find((g) => g.groupName === name);
  const group = existing ?? (await apiCall(page, url, device.insertGroup, { groupName: name })).dataObject;
  const ids = await Promise.all(keys.map((key) => idOf(page, key)));
  await apiCall(page, url, device.saveGroupsAndDevices, {
    deviceIds: ids.join(','),
    groupIds: String(group.groupId),
  });
}

const editor = (page: Page) => page.getByTestId('template-editor');
const rowOf = (page: Page, id: number) =>
  page.locator('.ant-table-row', { has: page.locator(`[data-testid="setting-open"][data-id="${id}"]`) });

async function addTemplate(page: Page, series: device.Series, shot?: string) {
  await page.getByTestId('setting-add').click();
  const dialog = page.getByTestId('add-template');
  await dialog.locator(`[data-series="${series}"]`).click();
  if (shot) await snapshot(page, shot);
  const created = page.waitForResponse((r) => r.url().includes('/deviceSetting/addSetting'));
  await page.getByTestId('add-template-ok').click();
  const reply = settings.addSetting.reply.parse(await (await created).json());
  await expect(editor(page)).toBeVisible();
  await expect(editor(page)).toHaveAttribute('data-series', series);
  return reply.id;
}

async function openSection(page: Page, section: device.SettingSection) {
  await editor(page).getByTestId(`template-tab-${section}`).click();
  await expect(editor(page).getByTestId(`template-section-${section}`)).toBeVisible();
}

async function setTime(page: Page, picker: Locator, time: string) {
  await picker.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(time);
  await page.keyboard.press('Enter');
}

/** Ticks a label in the terminal list and every panel it shows that can be chosen. */
async function chooseLabelPanels(page: Page, label: string, rows: number) {
  const terminals = page.getByTestId('terminal-list');
  await terminals.locator(`[data-label="${label}"]`).click();
  await expect(terminals.locator('.ant-table-row')).toHaveCount(rows);
  await terminals.locator('.ant-table-thead input[type="checkbox"]').check();
  return terminals;
}

async function waitForApplied(page: Page, count: number) {
  const result = page.getByTestId('push-result');
  await expect(result).toBeVisible();
  await expect(result.getByTestId('push-count-applied')).toHaveAttribute('data-count', String(count), {
    timeout: 20_000,
  });
  return result;
}

let templateId = 0;

test('creates an x9_vn template, changes three sections and pushes it to a label: the panels report it', async ({
  page,
}) => {
  await signInOperator(page);
  await labelOf(page, X9_LABEL, X9_PANELS);
  await page.goto(`${url}/home/setting`);
  await expect(page.getByTestId('templates-tab')).toBeVisible();
  templateId = await addTemplate(page, 'x9_vn', 'setting-add-template-en-US');
  await expect(editor(page).locator('[role="tab"]')).toHaveCount(7);

  // Language.
  await pickOption(page, editor(page).getByTestId('setting-language-language'), 'Deutsch');
  // Power setting: auto power-on Mon, Wed, Fri at 07:30; energy saving 45 minutes (2 is refused).
  await openSection(page, 'powerOnOffSetting');
  await editor(page).getByTestId('template-power-on').click();
  const onDialog = page.getByTestId('power-on-modal');
  await onDialog.getByTestId('power-on-switch').click();
  for (const day of ['mon', 'wed', 'fri']) await onDialog.locator(`[data-day="${day}"]`).click();
  await setTime(page, onDialog.getByTestId('power-on-time'), '07:30');
  await snapshot(page, 'setting-template-power-on-en-US');
  await page.getByTestId('power-on-ok').click();
  await expect(onDialog).toBeHidden();
  await expect(editor(page).getByTestId('template-power-on-value')).toContainText('On · 07:30');
  await editor(page).getByTestId('template-energy').click();
  const energy = page.getByTestId('energy-modal');
  await energy.getByText('Custom').click();
  await energy.getByTestId('energy-custom').fill('2');
  await page.getByTestId('energy-ok').click();
  await expect(energy.getByTestId('energy-problem')).toHaveText(
    'Energy saving must be at least 3 minutes (a whole number)',
  );
  await snapshot(page, 'setting-template-energy-en-US');
  await energy.getByTestId('energy-custom').fill('45');
  await page.getByTestId('energy-ok').click();
  await expect(energy).toBeHidden();
  await expect(editor(page).getByTestId('template-energy-value')).toHaveText('45 min');
  // Blue light filter on.
  await openSection(page, 'bluelightFilter');
  await editor(page).getByTestId('setting-bluelightFilter-bluelightFilter').click();
  // Newline extension: the Android box preset to the front source; TruCast (front) is switched on
  // first, so when the Android box is switched on it takes the first free source, HDMI1.
  await openSection(page, 'newlineExtension');
  await pickOption(page, editor(page).getByTestId('setting-newlineExtension-x10dSource'), 'Front');
  await editor(page).getByTestId('setting-newlineExtension-trucast').click();
  await editor(page).getByTestId('setting-newlineExtension-x10d').click();
  await expect(editor(page).getByTestId('setting-newlineExtension-x10dSource')).toContainText('HDMI1');
  await snapshot(page, 'setting-template-newlineExtension-changed-en-US');
  await page.getByTestId('template-editor-ok').click();
  await expect(editor(page)).toBeHidden();
  await expect(rowOf(page, templateId)).toBeVisible();

  // Push to the label: both x9_vn panels apply it and report it back.
  await rowOf(page, templateId).getByTestId('setting-push').click();
  await chooseLabelPanels(page, X9_LABEL, 2);
  await snapshot(page, 'setting-terminal-list-en-US');
  await page.getByTestId('terminal-list-ok').click();
  const result = await waitForApplied(page, 2);
  for (const key of X9_PANELS)
    await expect(result.locator(`[data-device-key="${key}"]`)).toHaveAttribute('data-result', 'applied');
  await snapshot(page, 'setting-push-result-en-US');
  for (const key of X9_PANELS) {
    const reported = await reportedSettings(page, key);
    expect(reported.language).toBe('de_de');
    expect(reported.powerOnOffSetting).toMatchObject({
      autoPowerOn: true,
      powerOnTime: '07:30',
      powerOnWeek: 'mon_wed_fri',
      energySaving: 45,
    });
    expect(reported.bluelightFilter).toMatchObject({ bluelightFilter: true });
    expect(reported.newlineExtension).toMatchObject({
      trucast: true,
      trucastSource: 'front',
      x10d: true,
      x10dSource: 'hdmi1',
    });
  }
});

test('refuses an oem panel an x9_vn template, with the reason', async ({ page }) => {
  await signInOperator(page);
  // (saveGroupsAndDevices replaces a panel's labels: the x9_vn panels keep theirs.)
  await labelOf(page, MIXED_LABEL, [OEM_PANEL, 'E2E-00002']);
  // The terminal list offers the oem panel greyed out, saying why.
  await page.goto(`${url}/home/setting`);
  await rowOf(page, templateId).getByTestId('setting-push').click();
  const terminals = page.getByTestId('terminal-list');
  await terminals.locator(`[data-label="${MIXED_LABEL}"]`).click();
  const oemRow = terminals.locator('.ant-table-row', { hasText: OEM_PANEL });
  await expect(oemRow.locator('input[type="checkbox"]')).toBeDisabled();
  await oemRow.locator('.ant-checkbox-wrapper').hover();
  await expect(page.locator('.ant-tooltip')).toContainText('Another series (oem); this is for x9_vn');
  await snapshot(page, 'setting-terminal-list-other-series-en-US');
  await terminals.getByRole('button', { name: /Cancel/ }).click();

  // The panel's own push selection: the x9_vn template cannot be ticked, and says why.
  await page.goto(`${url}/home/deviceManage`);
  await page.getByTestId('list-search').fill(OEM_PANEL);
  await page.getByTestId('list-search-button').click();
  await page.getByTestId('device-list').getByTestId('device-name').filter({ hasText: OEM_PANEL }).click();
  const detail = page.getByTestId('device-detail');
  await detail.locator('.ant-collapse-header', { has: page.getByTestId('accordion-setting') }).click();
  await detail.getByTestId('setting-push-saved').click();
  const selection = page.getByTestId('push-selection');
  const x9Row = selection.locator(`[data-id="${templateId}"]`);
  await expect(x9Row).toContainText('For x9_vn panels; this panel is oem');
  await expect(x9Row.locator('input[type="checkbox"]')).toBeDisabled();
  await page.getByTestId('push-selection-ok').click();
  await expect(page.locator('.ant-notification')).toContainText('Please choose at least one setting to push');
  await expect(selection).toBeVisible();
  await snapshot(page, 'device-push-selection-refused-en-US');

  // Sent anyway (as a script would), the server refuses it before anything reaches the panel, naming it.
  const refused = await page.request.post(`${url}/sendData/sendSettingsToDevice`, {
    form: { deviceId: String(await idOf(page, OEM_PANEL)), ids: String(templateId) },
    headers: { Origin: url },
  });
  expect(await refused.json()).toMatchObject({
    hhtStatus: 'fail',
    hhtMsg: `A setting for x9_vn panels cannot be pushed to panels of another series: ${OEM_PANEL} (oem)`,
  });
});

test('saves a source setting with a custom picture and pushes it; and pushes a custom picture from a panel’s detail', async ({
  page,
}) => {
  await signInOperator(page);
  await page.goto(`${url}/home/setting?tab=source`);
  await expect(page.getByTestId('sources-tab')).toBeVisible();
  await page.getByTestId('setting-add').click();
  const add = page.getByTestId('add-source');
  await add.locator('[data-system="android"]').click();
  await add.locator('[data-series="x9_vn"]').click();
  await pickOption(page, add.getByTestId('add-source-type'), 'HDMI 1');
  await snapshot(page, 'setting-add-source-en-US');
  await page.getByTestId('add-source-ok').click();
  const sourceEditor = page.getByTestId('source-editor');
  await expect(sourceEditor).toBeVisible();
  await expect(sourceEditor.getByTestId('picture-fixed-hint')).toBeVisible();
  await expect(sourceEditor.getByTestId('picture-brightness-input').locator('input')).toBeDisabled();
  await sourceEditor.locator('[data-mode="vivid"]').click();
  await expect(sourceEditor.getByTestId('picture-contrast-input').locator('input')).toHaveValue('80');
  await snapshot(page, 'setting-source-editor-vivid-en-US');
  await sourceEditor.locator('[data-mode="custom"]').click();
  const levels = { brightness: 70, contrast: 35, hue: 45, saturation: 55, sharpness: 12 };
  for (const [level, value] of Object.entries(levels))
    await sourceEditor.getByTestId(`picture-${level}-input`).locator('input').fill(String(value));
  await pickOption(page, sourceEditor.getByTestId('picture-colorTemp'), 'Warm');
  await snapshot(page, 'setting-source-editor-image-en-US');
  await sourceEditor.getByTestId('picture-tab-display').click();
  await sourceEditor.locator('[data-ratio="4:3"]').click();
  await sourceEditor.locator('[data-range="0~255"]').click();
  await snapshot(page, 'setting-source-editor-display-en-US');
  await page.getByTestId('source-editor-ok').click();
  await expect(sourceEditor).toBeHidden();

  const sourceRow = page.locator('.ant-table-row', { hasText: 'HDMI 1' }).first();
  await sourceRow.getByTestId('setting-push').click();
  await chooseLabelPanels(page, X9_LABEL, 2);
  await page.getByTestId('terminal-list-ok').click();
  await waitForApplied(page, 2);
  for (const key of X9_PANELS)
    expect(await reportedPicture(page, key, 'hdmi1')).toMatchObject({
      pictureModeType: 'custom',
      imageSettings: { custom: { colorTemp: '2', ...levels } },
      displaySettings: { aspectRatio: '4:3', colorRange: '0~255' },
    });
  await page.getByTestId('push-result').locator('.ant-modal-close').click();

  // From the detail of E2E-00006: the source setting (HDMI front) dialog with custom values.
  await page.goto(`${url}/home/deviceManage`);
  await page.getByTestId('list-search').fill('E2E-00006');
  await page.getByTestId('list-search-button').click();
  await page.getByTestId('device-list').getByTestId('device-name').filter({ hasText: 'E2E-00006' }).click();
  const detail = page.getByTestId('device-detail');
  await detail.locator('.ant-collapse-header', { has: page.getByTestId('accordion-setting') }).click();
  await snapshot(page, 'device-detail-setting-saved-actions-en-US');
  await detail.getByTestId('setting-source').click();
  const dialog = page.getByTestId('device-source');
  await pickOption(page, dialog.getByTestId('device-source-input'), 'HDMI front');
  await expect(dialog.locator('.ant-modal-title')).toHaveText('Source setting (HDMI front)');
  await dialog.locator('[data-mode="custom"]').click();
  const front = { brightness: 33, contrast: 66, hue: 20, saturation: 80, sharpness: 5 };
  for (const [level, value] of Object.entries(front))
    await dialog.getByTestId(`picture-${level}-input`).locator('input').fill(String(value));
  await snapshot(page, 'device-source-setting-en-US');
  await page.getByTestId('device-source-ok').click();
  await expect(dialog).toBeHidden();
  const result = await waitForApplied(page, 1);
  await expect(result.locator('[data-device-key="E2E-00006"]')).toHaveAttribute('data-result', 'applied');
  expect(await reportedPicture(page, 'E2E-00006', 'front')).toMatchObject({
    pictureModeType: 'custom',
    imageSettings: { custom: front },
  });
  await result.locator('.ant-modal-close').click();

  // The push selection: the x9_vn template and the HDMI 1 source setting to this panel.
  await detail.getByTestId('setting-push-saved').click();
  const selection = page.getByTestId('push-selection');
  await selection.locator(`[data-id="${templateId}"] input[type="checkbox"]`).check();
  await selection
    .getByTestId('selection-sources')
    .locator('.ant-table-row', { hasText: 'HDMI 1' })
    .locator('input[type="checkbox"]')
    .check();
  await snapshot(page, 'device-push-selection-en-US');
  await page.getByTestId('push-selection-ok').click();
  await waitForApplied(page, 2);
});

test('uploads the platform certificate, shows its expiry and the panels take it', async ({ page }) => {
  await signIn(page, 'normal', 'sales1', 'sales123', 'en-US');
  await page.goto(`${url}/home/certificate`);
  await expect(page.getByTestId('certificate-none')).toBeVisible();
  await snapshot(page, 'certificate-none-en-US');
  const upload = async (pem: string, fileName: string) => {
    await page.getByTestId('certificate-update').click();
    const dialog = page.getByTestId('certificate-modal');
    await dialog.locator('input[type="file"]').setInputFiles({
      name: fileName,
      mimeType: 'application/x-pem-file',
      buffer: Buffer.from(pem),
    });
    await expect(dialog.getByTestId('certificate-name')).toHaveValue(fileName);
    return dialog;
  };
  // An expired certificate is refused with the reason; the dialog stays open.
  const expired = makeCertificate({
    subject: 'old.riverside.example',
    notBefore: new Date('2020-01-01T00:00:00Z'),
    notAfter: new Date('2021-06-30T12:00:00Z'),
  });
  let dialog = await upload(expired.pem, 'old.pem');
  await page.getByTestId('certificate-modal-ok').click();
  await expect(page.locator('.ant-notification')).toContainText(
    'The certificate old.riverside.example expired on 2021-06-30 12:00 UTC',
  );
  await expect(dialog).toBeVisible();
  await snapshot(page, 'certificate-refused-en-US');
  await dialog.getByRole('button', { name: /Cancel/ }).click();

  const { chain } = certificateChain('panels.riverside.example', 'Riverside Test CA');
  dialog = await upload(chain, 'riverside-panels.pem');
  await snapshot(page, 'certificate-update-en-US');
  await page.getByTestId('certificate-modal-ok').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('certificate-name-value')).toHaveText('riverside-panels.pem');
  await expect(page.getByTestId('certificate-subject')).toHaveText('CN=panels.riverside.example');
  await expect(page.getByTestId('certificate-issuer')).toHaveText('CN=Riverside Test CA');
  await expect(page.getByTestId('certificate-expiry-state')).toHaveAttribute('data-state', 'valid');
  await expect(page.getByTestId('certificate-expiry-state')).toContainText(/Valid, 36[45] days left/);
  // The six simulated panels of Riverside School take it and report its fingerprint (the page reads
  // again every 5 s); a panel enrolled by another spec that never connected counts but cannot take it.
  await expect(page.getByTestId('certificate-panels')).toHaveText(`6 of ${enabledPanelsOfSales1()}`, {
    timeout: 20_000,
  });
  await snapshot(page, 'certificate-en-US');

  // One that expires within 30 days is shown with a warning.
  dialog = await upload(validCertificate('panels.riverside.example', 20).pem, 'short.pem');
  await page.getByTestId('certificate-modal-ok').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('certificate-warning')).toContainText('upload its successor');
  await expect(page.getByTestId('certificate-expiry-state')).toHaveAttribute('data-state', 'soon');
  await snapshot(page, 'certificate-expires-soon-en-US');
});

/** Every editor section and dialog of the setting page, opened and photographed in one language. */
async function photographEverything(page: Page, language: 'en-US' | 'zh-CN') {
  await signInOperator(page, language);
  await page.goto(`${url}/home/setting`);
  await expect(page.getByTestId('templates-tab').locator('.ant-table-row').first()).toBeVisible();
  await snapshot(page, `setting-templates-${language}`);
  for (const series of device.SERIES) {
    await addTemplate(page, series, series === 'x9_vn' ? `setting-add-template-${language}` : undefined);
    await expect(editor(page).locator('[role="tab"]')).toHaveCount(device.sectionsOf(series).length);
    for (const section of device.sectionsOf(series)) {
      await openSection(page, section);
      await snapshot(page, `setting-template-${series}-${section}-${language}`);
    }
    if (series === 'x9_vn') {
      await openSection(page, 'powerOnOffSetting');
      for (const [button, dialog] of [
        ['template-power-on', 'power-on-modal'],
        ['template-power-off', 'power-off-modal'],
        ['template-energy', 'energy-modal'],
      ] as const) {
        await editor(page).getByTestId(button).click();
        await expect(page.getByTestId(dialog)).toBeVisible();
        await snapshot(page, `setting-template-${dialog}-${language}`);
        await page.getByTestId(dialog).locator('.ant-modal-footer button').first().click();
        await expect(page.getByTestId(dialog)).toBeHidden();
      }
    }
    await editor(page).locator('.ant-modal-footer button').first().click();
    await expect(editor(page)).toBeHidden();
  }
  await page.locator('.ant-table-row').first().getByTestId('setting-push').click();
  await chooseLabelPanels(page, X9_LABEL, 2);
  await snapshot(page, `setting-terminal-list-${language}`);
  await page.getByTestId('terminal-list').locator('.ant-modal-footer button').first().click();

  await page.getByTestId('tab-sources').click();
  await expect(page).toHaveURL(/tab=source/);
  await expect(page.getByTestId('sources-tab').locator('.ant-table-row').first()).toBeVisible();
  await snapshot(page, `setting-sources-${language}`);
  await page.getByTestId('setting-add').click();
  await snapshot(page, `setting-add-source-${language}`);
  await page.getByTestId('add-source').locator('.ant-modal-footer button').first().click();
  await page.locator('.ant-table-row').first().getByTestId('setting-open').click();
  const sourceEditor = page.getByTestId('source-editor');
  await snapshot(page, `setting-source-editor-image-${language}`);
  await sourceEditor.getByTestId('picture-tab-display').click();
  await snapshot(page, `setting-source-editor-display-${language}`);
  await sourceEditor.locator('.ant-modal-footer button').first().click();

  await page.goto(`${url}/home/deviceManage`);
  await page.getByTestId('list-search').fill('E2E-00003');
  await page.getByTestId('list-search-button').click();
  await page.getByTestId('device-list').getByTestId('device-name').filter({ hasText: 'E2E-00003' }).click();
  const detail = page.getByTestId('device-detail');
  await detail.locator('.ant-collapse-header', { has: page.getByTestId('accordion-setting') }).click();
  await detail.getByTestId('setting-push-saved').click();
  await expect(page.getByTestId('push-selection').locator('.ant-table-row').first()).toBeVisible();
  await snapshot(page, `device-push-selection-${language}`);
  await page.getByTestId('push-selection').locator('.ant-modal-footer button').first().click();
  await detail.getByTestId('setting-source').click();
  await expect(page.getByTestId('device-source').getByTestId('picture-image')).toBeVisible();
  await snapshot(page, `device-source-setting-${language}`);
  await page.getByTestId('device-source').locator('.ant-modal-footer button').first().click();
}

test('every editor section and dialog in English', async ({ page }) => {
  // Some thirty screens and dialogs opened one after another.
  test.setTimeout(150_000);
  await photographEverything(page, 'en-US');
});

test('every editor section and dialog in Chinese, and the certificate page', async ({ page }) => {
  test.setTimeout(150_000);
  await photographEverything(page, 'zh-CN');
  await page.context().clearCookies();
  await signIn(page, 'normal', 'sales1', 'sales123', 'zh-CN');
  await page.goto(`${url}/home/certificate`);
  await expect(page.getByTestId('certificate-info')).toContainText('到期时间');
  await snapshot(page, 'certificate-zh-CN');
  await page.getByTestId('certificate-update').click();
  await expect(page.getByTestId('certificate-modal')).toContainText('证书文件');
  await snapshot(page, 'certificate-update-zh-CN');
});

/** The enabled panels of sales1's customers, read from the normal server's database. */
function enabledPanelsOfSales1(): number {
  const db = new Database(path.join(servers.normal.dataDir, 'panelfleet.db'), { readonly: true });
  try {
    const row = db
      .prepare(
        `SELECT count(*) AS n FROM devices d JOIN organisations o ON o.id = d.org_id
         WHERE d.state = 1 AND o.parent_id = (SELECT org_id FROM users WHERE user_name = 'sales1')`,
      )
      .get() as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}
