import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { switchLanguage } from '../support/antd.js';
import { snapshot } from '../support/screenshots.js';

/**
 * A deployment started with CAPTCHA=off (README): its sign-in page asks for no captcha and signs
 * in with user name and password alone. This spec starts that server itself, beside the usual
 * ones, on E2E_PORT_BASE + 3.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
const port = Number(process.env.E2E_PORT_BASE ?? 18181) + 3;
const url = `http://127.0.0.1:${port}`;
const dataDir = path.resolve(import.meta.dirname, '../.data/no-captcha');
let server: ChildProcess | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fs.rmSync(dataDir, { recursive: true, force: true });
  server = spawn('npx', ['tsx', 'e2e/support/serve.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      MQTT_PORT: '0',
      DATA_DIR: dataDir,
      BASE_URL: url,
      FLEET: '0',
      CAPTCHA: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    server!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('e2e server ready')) resolve();
    });
    server!.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server!.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
});

test.afterAll(() => {
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
});

for (const language of ['en-US', 'zh-CN'] as const) {
  test(`with CAPTCHA=off the sign-in page has no captcha field and signs in without one (${language})`, async ({
    page,
  }) => {
    await page.goto(`${url}/login`);
    await expect(page.getByTestId('login-submit')).toBeVisible();
    if (language === 'zh-CN') await switchLanguage(page, 'zh-CN');
    await expect(page.locator('#username')).toBeVisible();
    await expect(page.locator('#tryCode')).toHaveCount(0);
    await expect(page.getByTestId('captcha')).toHaveCount(0);
    await snapshot(page, `sign-in-no-captcha-${language}`);
    await page.locator('#username').fill('operator1');
    await page.locator('#password').fill('operator123');
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/home\//);
  });
}
