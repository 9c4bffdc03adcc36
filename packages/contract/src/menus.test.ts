import { describe, expect, it } from 'vitest';
import { allowedViews, menuFor, startView } from './menus.js';

const normal = { special: false };
const special = { special: true };

describe('menus and start views by user type', () => {
  it('gives each user type the menu of spec 1 section 2', () => {
    expect(menuFor({ userType: '0', state: 1 }, normal)).toEqual([
      'license',
      'otaPromote',
      'ServeList',
      'errorMsg',
      'index1',
      'operationLog',
      'alerts',
      'ssoSettings',
    ]);
    expect(menuFor({ userType: '1', state: 1 }, special)).toEqual(['otaPromote', 'otaLog']);
    expect(menuFor({ userType: '1', state: 1 }, normal)).toEqual([
      'index1',
      'customerManage',
      'otaPromote',
      'certificate',
      'netSpeed',
      'otaLog',
      'apkRenew',
      'upgradeTactics',
      'operationLog',
      'alerts',
      'ssoSettings',
    ]);
    expect(menuFor({ userType: '2', state: 1 }, normal)).toEqual([
      'index2',
      'operationLog',
      'customer',
      'alerts',
      'ssoSettings',
    ]);
    expect(menuFor({ userType: '2', state: 0 }, normal)).toEqual(['customerActive']);
    expect(menuFor({ userType: '3', state: 1 }, normal)).toEqual([
      'index1',
      'customerManage',
      'otaPromote',
      'operationLog',
      'abnormalLog',
      'alerts',
    ]);
    expect(menuFor({ userType: '3', state: 0 }, normal)).toEqual([
      'customerManage',
      'otaPromote',
      'abnormalLog',
    ]);
    expect(menuFor({ userType: '4', state: 1 }, normal)).toEqual([
      'index2',
      'deviceManage',
      'upgradeManage',
      'Broadcast',
      'setting',
      'report',
      'alerts',
    ]);
  });

  it('starts each user type on the view of spec 1 section 2', () => {
    expect(startView({ userType: '0', state: 1 }, normal)).toBe('license');
    expect(startView({ userType: '1', state: 1 }, special)).toBe('otaPromote');
    expect(startView({ userType: '1', state: 1 }, normal)).toBe('index1');
    expect(startView({ userType: '2', state: 1 }, normal)).toBe('index2');
    expect(startView({ userType: '2', state: 0 }, normal)).toBe('customerActive');
    expect(startView({ userType: '3', state: 1 }, normal)).toBe('index1');
    expect(startView({ userType: '4', state: 1 }, normal)).toBe('index2');
  });

  it('holds an inactive type-2 user on the activation view alone', () => {
    expect([...allowedViews({ userType: '2', state: 0 }, normal)]).toEqual(['customerActive']);
  });

  it('lets a user open menu views and header pages but not another type’s views', () => {
    const views = allowedViews({ userType: '4', state: 1 }, normal);
    expect(views.has('deviceManage')).toBe(true);
    expect(views.has('Labels')).toBe(true);
    expect(views.has('personCenter')).toBe(true);
    expect(views.has('license')).toBe(false);
    expect(allowedViews({ userType: '1', state: 1 }, special).has('abnormalLog')).toBe(false);
  });
});
