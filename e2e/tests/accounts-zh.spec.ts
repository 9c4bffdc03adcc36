import { expect, test, type Page } from '@playwright/test';
import { gradientPng } from '../support/png.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// The account dialogs of accounts.spec.ts (which walks the flow in English), opened once more in
// Chinese so that their zh-CN screenshots exist and their texts are checked in that language.
const url = baseUrl('normal');

async function inChinese(page: Page) {
  await page.addInitScript(() => window.localStorage.setItem('language', 'zh-CN'));
}

test('salesperson and license dialogs in Chinese', async ({ page }) => {
  await signIn(page, 'normal', 'admin', 'admin123', 'zh-CN');
  await page.goto(`${url}/home/saleMan`);
  await page.getByTestId('list-add').click();
  const salesperson = page.getByTestId('salesperson-form');
  await salesperson.getByTestId('salesperson-form-ok').click();
  await expect(salesperson.locator('.ant-form-item-explain-error').first()).toBeVisible();
  await expect(salesperson.locator('.ant-form-item-explain-error').first()).toHaveText(/[\u4e00-\u9fff]/);
  await snapshot(page, 'salesperson-add-errors-zh-CN');
  await salesperson.getByTestId('salesperson-form-ok').press('Escape');

  await page.goto(`${url}/home/license`);
  await page.getByTestId('list-add').click();
  await expect(page.getByTestId('license-form')).toBeVisible();
  await expect(page.locator('.ant-modal-title')).toHaveText(/[\u4e00-\u9fff]/);
  await snapshot(page, 'license-add-zh-CN');
});

test('registration form and forgot-password confirmation in Chinese', async ({ page }) => {
  await inChinese(page);
  await page.goto(`${url}/register`);
  await page.locator('#companyName').fill('江南实验学校');
  await page.locator('#userName').fill('jiangnan01');
  await page.locator('#phone').fill('13800138000');
  await page.locator('#email').fill('office@jiangnan.example.com');
  await page.locator('#userPass').fill('abc123');
  await page.locator('#secondPassword').fill('abc124');
  await page.getByTestId('register-submit').click();
  await expect(page.locator('.ant-form-item-explain-error').first()).toHaveText(/[\u4e00-\u9fff]/);
  await snapshot(page, 'register-filled-zh-CN');

  await page.goto(`${url}/findPassword`);
  await page.locator('input[autocomplete="email"]').fill('customer1@example.com');
  await page.getByTestId('find-password-submit').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('已写入服务器的发件箱文件夹');
  await snapshot(page, 'find-password-sent-zh-CN');
});

test('activation mail confirmation, console-user dialogs and avatar crop in Chinese', async ({
  page,
  browser,
}) => {
  await signIn(page, 'normal', 'newcustomer', 'customer123', 'zh-CN');
  await expect(page).toHaveURL(/\/home\/customerActive$/);
  await page.getByTestId('send-activation').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('newcustomer@example.com');
  await snapshot(page, 'customer-active-sent-zh-CN');

  const owner = await browser.newPage();
  await signIn(owner, 'normal', 'customer1', 'customer123', 'zh-CN');
  await owner.goto(`${url}/home/customer`);
  await owner.getByTestId('list-add').click();
  const add = owner.getByTestId('user-add');
  await add.locator('#userName').fill('zhangwei');
  await add.locator('#password').fill('abc123');
  await add.locator('#phone').fill('123');
  await add.getByTestId('user-add-ok').click();
  await expect(add.locator('.ant-form-item-explain-error').first()).toHaveText(/[\u4e00-\u9fff]/);
  await snapshot(owner, 'user-add-zh-CN');
  await add.getByTestId('user-add-ok').press('Escape');
  await expect(add).toBeHidden();

  await owner.locator('.ant-table-row').filter({ hasText: 'operator1' }).getByTestId('row-edit').click();
  await expect(owner.getByTestId('user-edit')).toBeVisible();
  await snapshot(owner, 'user-edit-zh-CN');
  await owner.getByTestId('user-edit').press('Escape');

  await owner.goto(`${url}/home/personCenter`);
  await owner.getByTestId('avatar-edit').click();
  const dialog = owner.getByTestId('avatar-modal');
  await dialog
    .getByTestId('avatar-file')
    .setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: gradientPng(400, 300) });
  await expect(dialog.getByTestId('avatar-preview')).toBeVisible();
  await snapshot(owner, 'avatar-crop-zh-CN');
  await owner.close();
});
