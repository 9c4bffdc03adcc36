import { describe, expect, it } from 'vitest';
import { menuFor } from '@panelfleet/contract';
import { breadcrumbTrail, menuEntryOf } from './breadcrumbTrail';

const normal = { special: false };

describe('breadcrumbs', () => {
  const platform = menuFor({ userType: '0', state: 1 }, normal);
  const operator = menuFor({ userType: '4', state: 1 }, normal);

  it('shows the menu entry above a view it hosts as a tab', () => {
    expect(breadcrumbTrail('saleMan', platform)).toEqual(['license', 'saleMan']);
    expect(breadcrumbTrail('sourceManage', platform)).toEqual(['otaPromote', 'sourceManage']);
    expect(breadcrumbTrail('Labels', operator)).toEqual(['deviceManage', 'Labels']);
    expect(breadcrumbTrail('apk', operator)).toEqual(['upgradeManage', 'apk']);
  });

  it('shows a menu entry alone, a dashboard as Home alone, and header pages under the personal center', () => {
    expect(breadcrumbTrail('license', platform)).toEqual(['license']);
    expect(breadcrumbTrail('index2', operator)).toEqual([]);
    expect(breadcrumbTrail(undefined, operator)).toEqual([]);
    expect(breadcrumbTrail('personCenter', operator)).toEqual(['personCenter']);
    expect(breadcrumbTrail('modifyPassword', operator)).toEqual(['personCenter', 'modifyPassword']);
  });

  it('names the entry that lights up in the menu: the first entry that hosts the view', () => {
    // The signal sources are a tab of upgrade management; the command feedback is reached from reports.
    expect(menuEntryOf('sourceManage', operator)).toBe('upgradeManage');
    expect(menuEntryOf('feedBack', operator)).toBe('report');
    expect(breadcrumbTrail('feedBack', operator)).toEqual(['report', 'feedBack']);
    expect(menuEntryOf('report', operator)).toBe('report');
    expect(menuEntryOf('ServeList', operator)).toBeUndefined();
  });
});
