import { expect, test, type Page } from '@playwright/test';
import { allowedViews, type ShellUser } from '@panelfleet/contract';
import { signIn } from '../support/session.js';
import { baseUrl, type ServerName } from '../support/servers.js';

/**
 * The console obeys the server's Content-Security-Policy: every screen some user type can open,
 * each user type's start view, and the pages before sign-in load without a single violation.
 */

interface Violation {
  directive: string;
  blocked: string;
  where: string;
  source: string;
}

declare global {
  interface Window {
    cspViolations?: Violation[];
  }
}

/** Collects the page's CSP violations, as events and as the console errors Chromium writes for them. */
async function watchViolations(page: Page) {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleErrors.push(message.text());
  });
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations!.push({
        directive: event.violatedDirective,
        blocked: event.blockedURI,
        where: location.pathname,
        source: `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      });
    });
  });
  return {
    async take(): Promise<string[]> {
      const events = await page.evaluate(() => window.cspViolations ?? []);
      const found = [
        ...events.map((v) => `${v.where}: ${v.directive} blocked ${v.blocked} at ${v.source}`),
        ...consoleErrors,
      ];
      consoleErrors.length = 0;
      await page.evaluate(() => {
        window.cspViolations = [];
      });
      return found;
    },
  };
}

/** Lets lazy chunks, queries and antd's animations finish, so late styles and images are seen too. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
}

test('the console is served with the policy, and the watcher sees a violation when there is one', async ({
  page,
}) => {
  const response = await page.goto(`${baseUrl('normal')}/login`);
  const policy = response!.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  const watcher = await watchViolations(page);
  await page.reload();
  await page.getByTestId('captcha').waitFor();
  await settle(page);
  expect(await watcher.take()).toEqual([]);
  // An inline script is what the policy exists to stop: the watcher must report it.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true';
    document.body.append(script);
  });
  await expect.poll(async () => (await watcher.take()).length).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
});

test('the pages before sign-in show no violation', async ({ page }) => {
  const watcher = await watchViolations(page);
  for (const path of [
    '/login',
    '/register',
    '/findPassword',
    '/forgetpassword?email=a%40example.com&uuid=x&token=y',
    '/activePage',
    '/errorPage',
    '/errorNet',
    '/errorService',
    '/netSpeed',
  ]) {
    await page.goto(`${baseUrl('normal')}${path}`);
    await settle(page);
    expect(await watcher.take(), path).toEqual([]);
  }
  await page.goto(`${baseUrl('private')}/active`);
  await settle(page);
  expect(await watcher.take(), 'private /active').toEqual([]);
});

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

// A screen's policy violations come from its code and the assets it loads, the same for every user
// type that may open it: each screen of a deployment is opened once, by the first account below
// that may, and every account signs in and opens its start view.
const opened = new Set<string>();
for (const account of accounts) {
  const views = [...allowedViews(account.user, { special: account.server === 'special' })].filter(
    (view) => !opened.has(`${account.server}/${view}`),
  );
  for (const view of views) opened.add(`${account.server}/${view}`);
  test(`the screens of type ${account.user.userType}${account.user.state === 0 ? ' (inactive)' : ''} on the ${account.server} deployment not opened above show no violation`, async ({
    page,
  }) => {
    test.setTimeout(30_000 + views.length * 10_000);
    const watcher = await watchViolations(page);
    await signIn(page, account.server, account.userName, account.password, 'en-US');
    await settle(page);
    expect(await watcher.take(), 'sign-in and start view').toEqual([]);
    for (const view of views) {
      await page.goto(`${baseUrl(account.server)}/home/${view}`);
      // A real screen (no view is a placeholder any more): its card, tabs or table are there.
      await expect(
        page.locator(`[data-view="${view}"]`).locator('.ant-card, .ant-tabs, .ant-table-wrapper').first(),
      ).toBeVisible();
      await settle(page);
      expect(await watcher.take(), view).toEqual([]);
    }
  });
}
