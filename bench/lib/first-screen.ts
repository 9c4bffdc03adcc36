/**
 * What the console's sign-in page really loads before it shows: the page opened in Debian's
 * Chromium (playwright-core), every script and style it fetched until the sign-in form is
 * visible, lazy chunks included, each gzipped at level 9 (as a server would send it). Baseline:
 * React + ReactDOM production builds alone, the least any React console ships.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

export const FIRST_SCREEN_BUDGET_KB = 300;

export interface FetchedFile {
  url: string;
  kind: 'script' | 'style';
  gzipped: number;
}

export interface FirstScreen {
  files: FetchedFile[];
  /** Gzipped bytes of every script and style fetched before the form showed. */
  bytes: number;
  /** Scripts and styles fetched after the form showed (not counted). */
  later: number;
}

const gzipped = (body: Buffer) => zlib.gzipSync(body, { level: 9 }).length;

export async function measureFirstScreen(baseUrl: string): Promise<FirstScreen> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    let shown = false;
    let later = 0;
    const pending: Array<Promise<FetchedFile | undefined>> = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      if (shown) {
        later++;
        return;
      }
      pending.push(
        response.body().then((body) => ({
          url: new URL(response.url()).pathname,
          kind: type === 'script' ? 'script' : 'style',
          gzipped: gzipped(body),
        })),
      );
    });
    await page.goto(`${baseUrl}/`);
    await page.locator('input[type="password"]').waitFor({ state: 'visible', timeout: 60_000 });
    shown = true;
    const files = (await Promise.all(pending)).filter((f): f is FetchedFile => f !== undefined);
    if (!files.some((f) => f.kind === 'script')) throw new Error('the sign-in page fetched no script');
    return { files, bytes: files.reduce((n, f) => n + f.gzipped, 0), later };
  } finally {
    await browser.close();
  }
}

/** Gzipped bytes of React + ReactDOM's production builds. */
export function reactBytes(): number {
  const require = createRequire(import.meta.url);
  const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));
  return [
    ['react', 'cjs/react.production.js'],
    ['react-dom', 'cjs/react-dom.production.js'],
    ['react-dom', 'cjs/react-dom-client.production.js'],
  ]
    .map(([name, file]) => gzipped(fs.readFileSync(path.join(packageDir(name!), file!))))
    .reduce((a, b) => a + b, 0);
}
