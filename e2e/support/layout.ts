import { expect, type Locator, type Page } from '@playwright/test';
import { switchLanguage } from './antd.js';
import { snapshot } from './screenshots.js';

/** What spills or breaks in a table: cells whose content runs past them, headers cut inside a word. */
export interface TableFaults {
  /** The table is wider than its card (it would scroll sideways). */
  wider: boolean;
  /** "column: text" of each cell whose content is wider than the cell. */
  spilling: string[];
  /** Header words broken across lines ("Operation s"). */
  brokenWords: string[];
}

/**
 * Measures a rendered antd table: every header and cell keeps its content inside (a progress label
 * does not run into the next column, an action is not clipped) and no header word is split over
 * two lines. Ellipsised text hides its overflow and so does not count.
 */
export async function tableFaults(table: Locator): Promise<TableFaults> {
  return table.evaluate((root) => {
    const container = root.querySelector('.ant-table-container') ?? root;
    const headers = Array.from(root.querySelectorAll('thead th')).map((th) => th.textContent?.trim() ?? '');
    const spilling: string[] = [];
    for (const cell of Array.from(root.querySelectorAll<HTMLElement>('thead th, tbody td'))) {
      const style = getComputedStyle(cell);
      // An ellipsised cell ("…", the whole on hover) hides its overflow on purpose.
      const ellipsised = style.overflowX === 'hidden' && style.textOverflow === 'ellipsis';
      if (!ellipsised && cell.scrollWidth > cell.clientWidth + 1) {
        const column =
          cell.tagName === 'TH' ? 'header' : (headers[(cell as HTMLTableCellElement).cellIndex] ?? '?');
        spilling.push(`${column}: ${cell.textContent?.trim() ?? ''}`);
      }
    }
    const brokenWords: string[] = [];
    for (const th of Array.from(root.querySelectorAll('thead th'))) {
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
          if (lines.size > 1) brokenWords.push(match[0]);
        }
      }
    }
    return { wider: container.scrollWidth > container.clientWidth + 1, spilling, brokenWords };
  });
}

/** The table fits: not wider than its card, nothing spills, no header word is broken. */
export async function expectTableFits(table: Locator, what: string) {
  await expect(table.locator('tbody tr').first()).toBeVisible();
  expect(await tableFaults(table), what).toEqual({ wider: false, spilling: [], brokenWords: [] });
}

/**
 * The list in view fits the window at 1440 and 1366 px in both languages: no column runs into the
 * next, no header word breaks ("Operation s"), no action is clipped, nothing scrolls sideways.
 * `check` runs at each size; a picture of each is saved.
 */
export async function tableFitsBothWidths(page: Page, what: string, check?: (page: Page) => Promise<void>) {
  for (const language of ['en-US', 'zh-CN'] as const) {
    if (language === 'zh-CN') await switchLanguage(page, 'zh-CN');
    for (const width of [1440, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.locator('.ant-table .ant-spin-blur')).toHaveCount(0);
      await expectTableFits(
        page.locator('.ant-table-wrapper').first(),
        `${what} at ${width} px, ${language}`,
      );
      if (check) await check(page);
      await snapshot(page, `${what}-${width}-${language}`);
    }
  }
  await switchLanguage(page, 'en-US');
  await page.setViewportSize({ width: 1366, height: 800 });
}
