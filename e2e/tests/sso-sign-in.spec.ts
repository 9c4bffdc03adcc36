import { expect, test, type Browser } from '@playwright/test';
import { accounts, auth, sso } from '@panelfleet/contract';
import { TestIdp } from '../../apps/server/test/oidc-idp.js';
import { pickOption } from '../support/antd.js';
import { apiCall } from '../support/api.js';
import { snapshot } from '../support/screenshots.js';
import { baseUrl } from '../support/servers.js';
import { signIn } from '../support/session.js';

// Issue 29: a customer administrator sets up the company's OIDC provider in the console, and a new
// user signs in through it and is created with the mapped type. The provider is the real
// `oidc-provider` in this process, on a loopback port the e2e server may reach (its host is named
// in OUTBOUND_ALLOW_HOSTS, playwright.config.ts).
const url = baseUrl('normal');
const client = {
  clientId: 'panelfleet-e2e',
  clientSecret: 'e2e-client-secret-0123456789',
  redirectUri: `${url}/platform/sso/callback`,
};

let idp: TestIdp;
test.beforeAll(async () => {
  idp = await TestIdp.start(client);
});
test.afterAll(async () => {
  await idp.stop();
});

/**
 * The company's user quota is shared by every spec: the user made here goes again. Single sign-on
 * goes off with no mapping rule, so that each run sets it up from an empty form.
 */
async function cleanUp(browser: Browser, userName?: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, 'normal', 'customer1', 'customer123', 'en-US');
  if (userName) {
    const found = await apiCall(page, url, accounts.userList, { start: 1, size: 10, userName });
    for (const user of found.listObject.filter((u) => u.userName === userName))
      await apiCall(page, url, accounts.deleteUser, { userId: user.userId });
  }
  const current = (await apiCall(page, url, sso.settings, {})).dataObject;
  if (current.issuer !== '')
    await apiCall(page, url, sso.saveSettings, { ...current, enabled: 0, jit: 0, mappings: '[]' });
  await context.close();
}

for (const language of ['en-US', 'zh-CN'] as const) {
  test(`single sign-on: set up the provider, a new user signs in with the mapped type (${language})`, async ({
    browser,
  }) => {
    const chinese = language === 'zh-CN';
    const email = `sso${language.slice(0, 2)}${Date.now().toString(36)}@riverside.test`;
    await cleanUp(browser);
    try {
      // The company account sets up its provider in the console.
      const adminContext = await browser.newContext();
      const admin = await adminContext.newPage();
      await signIn(admin, 'normal', 'customer1', 'customer123', language);
      await admin.goto(`${url}/home/ssoSettings`);
      const form = admin.getByTestId('sso-settings');
      await expect(form).toContainText(chinese ? '单点登录（OIDC）' : 'Single sign-on (OIDC)');
      await expect(admin.getByTestId('sso-redirect-url')).toHaveText(client.redirectUri);
      await admin.getByTestId('sso-enabled').check();
      await admin.getByTestId('sso-display-name').fill('Riverside IdP');
      await admin.getByTestId('sso-issuer').fill(idp.issuer);
      await admin.getByTestId('sso-client-id').fill(client.clientId);
      await admin.getByTestId('sso-client-secret').fill(client.clientSecret);
      await admin.getByTestId('sso-domains').fill('riverside.test');
      await admin.getByTestId('sso-map-add').click();
      await admin.getByTestId('sso-map-claim').fill('groups');
      await admin.getByTestId('sso-map-value').fill('teachers');
      await pickOption(
        admin,
        admin.getByTestId('sso-map-type'),
        chinese ? '类型 4（设备操作员）' : 'Type 4 (device operator)',
      );
      await admin.getByTestId('sso-jit').check();
      await admin.getByTestId('sso-save').click();
      await expect(admin.locator('.ant-message')).toContainText(
        chinese ? '单点登录已保存' : 'Single sign-on saved',
      );
      await snapshot(admin, `sso-settings-${language}`, { fullPage: true });
      await adminContext.close();

      // A teacher who has no account yet signs in through the provider.
      idp.account = { sub: `sub-${email}`, email, email_verified: true, groups: ['teachers'] };
      const teacherContext = await browser.newContext();
      const teacher = await teacherContext.newPage();
      await teacher.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
      await teacher.goto(`${url}/login`);
      await teacher.getByTestId('sso-open').click();
      await teacher.getByTestId('sso-name').fill(email);
      await teacher.getByTestId('sso-find').click();
      const go = teacher.getByTestId('sso-go');
      await expect(go).toHaveText(chinese ? '使用 Riverside IdP 登录' : 'Sign in with Riverside IdP');
      await snapshot(teacher, `sso-sign-in-${language}`);
      await go.click();
      await teacher.waitForURL(/\/home\//);
      const me = await apiCall(teacher, url, auth.userType, {});
      expect(me).toMatchObject({ userType: '4', userName: email });
      await snapshot(teacher, `sso-signed-in-${language}`);
      await teacherContext.close();
    } finally {
      await cleanUp(browser, email);
    }
  });
}
