import { describe, expect, it } from 'vitest';
import { device } from '@panelfleet/contract';
import { loadConsoleCatalog } from '../../i18n';
import { feedbackTypeKey } from './feedbackTypes';

const consoleCatalogs = {
  'zh-CN': await loadConsoleCatalog('zh-CN'),
  'en-US': await loadConsoleCatalog('en-US'),
};

const lookup = (catalog: unknown, key: string) =>
  key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalog);

// The merged catalogs: an area adding an order names it in its own locale files.
const enUS = consoleCatalogs['en-US'];
const zhCN = consoleCatalogs['zh-CN'];

describe('feedback types', () => {
  it('names the spec’s codes 00-08 and POWERUP as the spec does, in both languages', () => {
    const named = (code: string) => [
      lookup(enUS, feedbackTypeKey(code)!),
      lookup(zhCN, feedbackTypeKey(code)!),
    ];
    expect(named('00')).toEqual(['Brightness control', '亮度控制']);
    expect(named('01')).toEqual(['Volume control', '音量控制']);
    expect(named('02')).toEqual(['Power off', '关机']);
    expect(named('03')).toEqual(['Restart', '重启']);
    expect(named('04')).toEqual(['Signal source', '信号源切换']);
    expect(named('07')).toEqual(['Mute', '静音']);
    expect(named('08')).toEqual(['Virtual key', '虚拟按键']);
    expect(named('POWERUP')).toEqual(['Start up', '开机']);
  });

  it('has a name in both languages for every order a command can carry', () => {
    for (const code of device.ORDER_CODES) {
      const key = feedbackTypeKey(code);
      expect(key, code).toBeDefined();
      expect(typeof lookup(enUS, key!), `${code} en-US`).toBe('string');
      expect(typeof lookup(zhCN, key!), `${code} zh-CN`).toBe('string');
    }
  });

  it('knows no name for a code it has never heard of', () => {
    expect(feedbackTypeKey('99')).toBeUndefined();
  });
});
