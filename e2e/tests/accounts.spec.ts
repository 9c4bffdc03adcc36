import { expect, test, type Page } from '@playwright/test';
import { answerConfirm, pickOption, switchLanguage } from '../support/antd.js';
import { mailedLink } from '../support/outbox.js';
import { gradientPng } from '../support/png.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

const url = baseUrl('normal');
const run = Date.now().toString(36).slice(-5);
const salesperson = {
  workNumber: `E${run}`,
  name: `Seller ${run}`,
  company: 'North Sales Ltd',
  phone: '+1-555-0100',
};
const company = `Harbour Labs ${run}`;
const owner = { userName: `owner${run}`, email: `owner${run}@example.com`, password: 'owner123' };
const staff = (n: number) => ({
  userName: `staff${run}${n}`,
  email: `staff${run}${n}@example.com`,
  password: 'staff123',
});
let licenseKey = '';

test.describe.configure({ mode: 'serial' });

const modal = (page: Page, testId: string) => page.getByTestId(testId);
const row = (page: Page, text: string) => page.locator('.ant-table-row').filter({ hasText: text });

/** Snapshot now, switch to Chinese, snapshot again, switch back (pages without an open dialog). */
async function bothLanguages(page: Page, name: string) {
  await snapshot(page, `${name}-en-US`);
  await switchLanguage(page, 'zh-CN');
  await snapshot(page, `${name}-zh-CN`);
  await switchLanguage(page, 'en-US');
}

test('admin adds a salesperson and a license, and the key is listed', async ({ page }) => {
  await signIn(page, 'normal', 'admin', 'admin123', 'en-US');
  await expect(page).toHaveURL(/\/home\/license$/);
  await page.getByRole('tab', { name: 'Salespeople' }).click();
  await expect(page).toHaveURL(/\/home\/saleMan$/);

  await page.getByTestId('list-add').click();
  const form = modal(page, 'salesperson-form');
  await form.getByTestId('salesperson-form-ok').click();
  await expect(form.getByText('Please fill in work number, name, company and phone').first()).toBeVisible();
  await form.getByLabel('Work number').fill('bad-number');
  await expect(form.getByText('Work number: letters and digits only')).toBeVisible();
  await snapshot(page, 'salesperson-add-errors-en-US');
  await form.getByLabel('Work number').fill(salesperson.workNumber);
  await form.getByLabel('Name').fill(salesperson.name);
  await form.getByLabel('Company').fill(salesperson.company);
  await form.getByLabel('Phone').fill(salesperson.phone);
  await form.getByTestId('salesperson-form-ok').click();
  await expect(form).toBeHidden();
  await page.getByTestId('list-search').fill(salesperson.name);
  await page.getByTestId('list-search-button').click();
  await expect(row(page, salesperson.workNumber)).toBeVisible();
  await bothLanguages(page, 'salespeople');

  await page.getByRole('tab', { name: 'Licenses' }).click();
  await expect(page).toHaveURL(/\/home\/license$/);
  await page.getByTestId('list-add').click();
  const licenseForm = modal(page, 'license-form');
  await licenseForm.getByLabel('Company').fill(company);
  await pickOption(page, licenseForm.getByTestId('license-salesperson'), salesperson.name);
  await snapshot(page, 'license-add-en-US');
  await licenseForm.getByTestId('license-form-ok').click();
  await expect(licenseForm).toBeHidden();
  await page.getByTestId('list-search').fill(company);
  await page.getByTestId('list-search-button').click();
  const licenseRow = row(page, company);
  await expect(licenseRow).toHaveCount(1);
  await expect(licenseRow).toContainText('Enabled');
  licenseKey = (await licenseRow.getByTestId('license-key').innerText()).trim();
  expect(licenseKey.length).toBeGreaterThan(8);
  await bothLanguages(page, 'licenses');
});

for (const language of ['en-US', 'zh-CN'] as const) {
  test(`stand-alone pages show their rules (${language})`, async ({ page }) => {
    await page.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
    await page.goto(`${url}/register`);
    await page.getByTestId('register-submit').click();
    await page.locator('#userPass').fill('short');
    await page.locator('#secondPassword').fill('other1');
    await page.locator('#email').fill('not-an-address');
    await page.getByTestId('register-submit').click();
    await expect(page.locator('.ant-form-item-explain-error').first()).toBeVisible();
    await snapshot(page, `register-errors-${language}`);

    await page.goto(`${url}/findPassword`);
    await page.getByTestId('find-password-submit').click();
    await expect(page.locator('.ant-form-item-explain-error')).toBeVisible();
    await snapshot(page, `find-password-empty-${language}`);

    await page.goto(`${url}/forgetpassword?email=nobody%40example.com&uuid=x&token=y`);
    await expect(page.getByTestId('reset-link-failure')).not.toBeEmpty();
    await snapshot(page, `reset-link-invalid-${language}`);

    await page.goto(`${url}/activePage?userName=nobody&time=1&token=nothing`);
    await expect(page.getByTestId('activation-result').locator('.ant-result-error')).toBeVisible();
    await snapshot(page, `activation-invalid-${language}`);
  });
}

test('a visitor registers with the license and activates through the mailed link', async ({ page }) => {
  expect(licenseKey).not.toBe('');
  await page.addInitScript(() => window.localStorage.setItem('language', 'en-US'));
  await page.goto(`${url}/register`);
  await page.locator('#companyName').fill(company);
  await pickOption(page, page.getByTestId('register-salesperson'), salesperson.name);
  await page.locator('#license').fill(licenseKey);
  await page.locator('#userName').fill(owner.userName);
  await page.locator('#phone').fill('+44-20-7946-0000');
  await page.locator('#email').fill(owner.email);
  await page.locator('#userPass').fill(owner.password);
  await page.locator('#secondPassword').fill(owner.password);
  await snapshot(page, 'register-filled-en-US');
  await page.getByTestId('register-submit').click();
  const done = page.locator('.ant-modal-confirm');
  await expect(done).toContainText(owner.email);
  await snapshot(page, 'register-success-en-US');
  await done.getByRole('button').click();
  await expect(page).toHaveURL(/\/login$/);

  await page.goto(await mailedLink('normal', owner.email, /activate/i));
  await expect(page.getByTestId('activation-result').locator('.ant-result-success')).toBeVisible();
  await bothLanguages(page, 'activation-success');
});

test('an inactive customer sees only the activation view and can send the mail again', async ({ page }) => {
  await signIn(page, 'normal', 'newcustomer', 'customer123', 'en-US');
  await expect(page).toHaveURL(/\/home\/customerActive$/);
  await expect(page.getByTestId('activation-email')).toHaveText('newcustomer@example.com');
  await bothLanguages(page, 'customer-active');
  await page.getByTestId('send-activation').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('newcustomer@example.com');
  await snapshot(page, 'customer-active-sent-en-US');
});

test('the new customer adds a type-4 user and hits the quota the distributor set', async ({ browser }) => {
  const sales = await browser.newPage();
  await signIn(sales, 'normal', 'sales1', 'sales123', 'en-US');
  await sales.goto(`${url}/home/customerManage`);
  await sales.getByTestId('list-search').fill(owner.userName);
  await sales.getByTestId('list-search-button').click();
  await expect(row(sales, owner.userName)).toContainText(company);
  await bothLanguages(sales, 'customer-manage');
  await row(sales, owner.userName).getByTestId('row-quota').click();
  const quota = modal(sales, 'quota');
  await expect(quota.getByTestId('quota-input')).toHaveValue('10');
  await quota.getByTestId('quota-input').fill('2x');
  await expect(quota.getByText('Digits only')).toBeVisible();
  await snapshot(sales, 'quota-digits-only-en-US');
  await quota.getByTestId('quota-input').fill('2');
  await quota.getByTestId('quota-ok').click();
  await expect(quota).toBeHidden();
  await sales.close();

  const page = await browser.newPage();
  await signIn(page, 'normal', owner.userName, owner.password, 'en-US');
  await page.goto(`${url}/home/customer`);
  await expect(page.getByText('User information')).toBeVisible();
  let added = 0;
  for (let n = 1; n <= 3; n++) {
    const user = staff(n);
    await page.getByTestId('list-add').click();
    const form = modal(page, 'user-add');
    await form.getByLabel('Account name').fill(user.userName);
    await form.getByLabel('Password').fill(user.password);
    await form.getByLabel('Phone').fill('12345678');
    await form.getByLabel('E-mail').fill(user.email);
    if (n === 1) await snapshot(page, 'user-add-en-US');
    const reply = page.waitForResponse((r) => r.url().includes('/platform/user/onlyInsertDeviceUserForm'));
    await form.getByTestId('user-add-ok').click();
    const body = (await (await reply).json()) as { hhtStatus: string };
    if (body.hhtStatus === 'fail') {
      await expect(page.getByText('Your company may have at most 2 users')).toBeVisible();
      await expect(form).toBeVisible(); // the dialog stays open on a fail reply
      await snapshot(page, 'user-quota-reached-en-US');
      await form.getByRole('button', { name: 'Cancel' }).click();
      break;
    }
    await expect(form).toBeHidden();
    added++;
  }
  expect(added).toBeGreaterThanOrEqual(1);
  expect(added).toBeLessThan(3);
  await expect(row(page, staff(1).userName)).toContainText('Enabled');
  // The table fits its card at 1366 and 1440 px: every column in view, none scrolled away.
  for (const width of [1366, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    for (const column of ['Program role', 'Remark', 'Operations'])
      await expect(page.locator('.ant-table-thead th').filter({ hasText: column })).toBeInViewport();
    const [scrollWidth, clientWidth] = await page
      .locator('.ant-table-content')
      .evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(scrollWidth, `table width at ${width} px`).toBeLessThanOrEqual(clientWidth);
  }
  await bothLanguages(page, 'console-users');
  await row(page, staff(1).userName).getByTestId('row-edit').click();
  await expect(modal(page, 'user-edit')).toBeVisible();
  await snapshot(page, 'user-edit-en-US');
  await modal(page, 'user-edit').getByRole('button', { name: 'Cancel' }).click();
  await row(page, staff(1).userName).getByTestId('row-delete').click();
  await answerConfirm(page, 'Cancel');
  await expect(page.getByText('Cancelled')).toBeVisible();
  await page.close();
});

test('a password is reset through the mailed link from the forgot-password page', async ({ page }) => {
  const user = staff(1);
  await page.addInitScript(() => window.localStorage.setItem('language', 'en-US'));
  await page.goto(`${url}/findPassword`);
  await page.getByPlaceholder('E-mail').fill(user.email);
  await page.getByTestId('find-password-submit').click();
  await expect(page.locator('.ant-modal-confirm')).toBeVisible();
  await snapshot(page, 'find-password-sent-en-US');
  await page.locator('.ant-modal-confirm').getByRole('button').click();
  await expect(page.getByPlaceholder('E-mail')).toHaveValue('');

  await page.goto(await mailedLink('normal', user.email, /reset/i));
  await page.getByTestId('reset-submit').click();
  await page.getByPlaceholder('New password', { exact: true }).fill('newpass1');
  await page.getByPlaceholder('Confirm the new password').fill('newpass2');
  await expect(page.getByText('The two passwords differ')).toBeVisible();
  await bothLanguages(page, 'reset-password-form');
  await page.getByPlaceholder('Confirm the new password').fill('newpass1');
  await page.getByTestId('reset-submit').click();
  await page.locator('.ant-modal-confirm').getByRole('button').click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'normal', user.userName, 'newpass1', 'en-US');
  await expect(page).toHaveURL(/\/home\/index2$/);
});

test('the new customer crops and uploads an avatar in the personal center', async ({ page }) => {
  await signIn(page, 'normal', owner.userName, owner.password, 'en-US');
  await page.getByTestId('user-menu').click();
  await page.getByTestId('menu-person-center').click();
  await expect(page).toHaveURL(/\/home\/personCenter$/);
  await expect(page.getByTestId('activation-state')).toHaveText('Activated');
  await expect(page.getByTestId('activate-now')).toHaveCount(0);
  await bothLanguages(page, 'person-center');

  await expect(page.getByTestId('header-avatar')).toHaveAttribute('data-avatar', 'initial');
  await expect(page.getByTestId('header-avatar')).toHaveText(owner.userName[0]!.toUpperCase());
  await page.getByTestId('avatar-edit').click();
  const dialog = page.getByTestId('avatar-modal');
  let alerted = '';
  page.once('dialog', (d) => {
    alerted = d.message();
    void d.accept();
  });
  await dialog
    .getByTestId('avatar-file')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect.poll(() => alerted).toContain('gif, jpg, jpeg, png, bmp');
  await dialog
    .getByTestId('avatar-file')
    .setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: gradientPng(400, 300) });
  await expect(dialog.getByTestId('avatar-preview')).toBeVisible();
  await snapshot(page, 'avatar-crop-en-US');
  const uploaded = page.waitForResponse((r) => r.url().includes('/platform/user/uploadAvatar'));
  await dialog.getByRole('button', { name: 'OK' }).click();
  expect((await uploaded).status()).toBe(200);
  await expect(dialog).toBeHidden();
  const avatar = page.getByTestId('avatar-image').locator('img');
  await expect(avatar).toHaveAttribute('src', /\/platform\/user\/avatar\?v=/);
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(150);
  // The header shows the new avatar too, instead of the initial it showed before.
  const headerAvatar = page.getByTestId('header-avatar');
  await expect(headerAvatar).toHaveAttribute('data-avatar', 'image');
  await expect
    .poll(() => headerAvatar.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(150);
  await snapshot(page, 'person-center-avatar-en-US');

  await page.getByTestId('personal-edit-open').click();
  await page.getByTestId('personal-edit').getByLabel('Phone').fill('+44-20-0000-1111');
  await page.getByTestId('personal-edit-ok').click();
  await expect(page.getByTestId('personal-block')).toContainText('+44-20-0000-1111');

  await page.goto(`${url}/home/modifyPassword`);
  await page.getByLabel('Old password').fill(owner.password);
  await page.getByLabel('New password').fill('owner456');
  await page.getByLabel('Confirm password').fill('owner457');
  await page.getByTestId('change-password-submit').click();
  await expect(page.getByText('The new password and its confirmation differ')).toBeVisible();
  // The message shown follows a language switch.
  await switchLanguage(page, 'zh-CN');
  await expect(page.getByText('新密码与确认密码不一致')).toBeVisible();
  await switchLanguage(page, 'en-US');
  await expect(page.getByText('The new password and its confirmation differ')).toBeVisible();
  // A header page's breadcrumbs lead back to the personal center.
  await expect(page.getByTestId('breadcrumbs').locator('a[data-crumb="personCenter"]')).toHaveText(
    'Personal center',
  );
  await bothLanguages(page, 'modify-password');
});

test('the distributor sees the net speed view', async ({ page }) => {
  await signIn(page, 'normal', 'sales1', 'sales123', 'en-US');
  await page.goto(`${url}/home/netSpeed`);
  await expect(page.getByTestId('net-speed-frame').or(page.getByTestId('net-speed-unset'))).toBeVisible();
  await bothLanguages(page, 'net-speed');
});
