import { expect, test, type Page } from '@playwright/test';
import { menuFor, startView, type ShellUser } from '@panelfleet/contract';
import { snapshot } from '../support/screenshots.js';
import { switchLanguage } from '../support/antd.js';
import { signIn } from '../support/session.js';
import { baseUrl, type ServerName } from '../support/servers.js';

interface Account {
  server: ServerName;
  userName: string;
  password: string;
  user: ShellUser;
}

const accounts: Account[] = [
  { server: 'normal', userName: 'admin', password: 'admin123', user: { userType: '0', state: 1 } },
  { server: 'normal', userName: 'sales1', password: 'sales123', user: { userType: '1', state: 1 } },
  { server: 'normal', userName: 'customer1', password: 'customer123', user: { userType: '2', state: 1 } },
  { server: 'normal', userName: 'newcustomer', password: 'customer123', user: { userType: '2', state: 0 } },
  { server: 'normal', userName: 'manager1', password: 'manager123', user: { userType: '3', state: 1 } },
  { server: 'normal', userName: 'operator1', password: 'operator123', user: { userType: '4', state: 1 } },
  { server: 'special', userName: 'sales1', password: 'sales123', user: { userType: '1', state: 1 } },
];

const menuShown = (page: Page) =>
  page.locator('[data-menu]').evaluateAll((items) => items.map((item) => item.getAttribute('data-menu')));

for (const account of accounts) {
  for (const language of ['en-US', 'zh-CN'] as const) {
    const deployment = { special: account.server === 'special' };
    const label = `type ${account.user.userType}${account.user.state === 0 ? ' (inactive)' : ''} on the ${account.server} deployment, ${language}`;

    test(`${label}: exact menu and start view`, async ({ page }) => {
      await signIn(page, account.server, account.userName, account.password, language);
      const start = startView(account.user, deployment);
      await expect(page).toHaveURL(new RegExp(`/home/${start}$`));
      await expect(page.locator(`[data-view="${start}"]`)).toBeVisible();
      await expect.poll(() => menuShown(page)).toEqual(menuFor(account.user, deployment));
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await snapshot(page, `menu-${account.server}-${account.userName}-${language}`);
    });
  }
}

test('breadcrumbs show the menu entry above a tab, in either language', async ({ page }) => {
  await signIn(page, 'normal', 'operator1', 'operator123', 'en-US');
  const crumbs = page.getByTestId('breadcrumbs');
  for (const [view, entry, texts] of [
    [
      'Labels',
      'deviceManage',
      { 'en-US': ['Device management', 'Labels'], 'zh-CN': ['设备管理', '标签管理'] },
    ],
    [
      'sourceManage',
      'upgradeManage',
      { 'en-US': ['Upgrade management', 'Signal sources'], 'zh-CN': ['升级管理', '信号源管理'] },
    ],
    ['feedBack', 'report', { 'en-US': ['Reports', 'Command feedback'], 'zh-CN': ['报表', '指令反馈'] }],
  ] as const) {
    await page.goto(`${baseUrl('normal')}/home/${view}`);
    for (const language of ['en-US', 'zh-CN'] as const) {
      if (language === 'zh-CN') await switchLanguage(page, 'zh-CN');
      await expect(crumbs.locator(`a[data-crumb="${entry}"]`)).toHaveText(texts[language][0]);
      await expect(crumbs.locator(`[data-crumb="${view}"]`)).toHaveText(texts[language][1]);
      await snapshot(page, `breadcrumbs-${view}-${language}`);
    }
    await switchLanguage(page, 'en-US');
  }
  // The entry leads back to its screen; a menu entry of its own has Home alone above it.
  await crumbs.locator('a[data-crumb="report"]').click();
  await expect(page).toHaveURL(/\/home\/report$/);
  await expect(crumbs.locator('[data-crumb]')).toHaveCount(1);
});
