import { describe, expect, it } from 'vitest';
import { otaLogStatus, type TargetState } from '@panelfleet/contract';
import otaEnUS from '../locales/ota.en-US.json';
import otaZhCN from '../locales/ota.zh-CN.json';
import { outcomeKey } from './outcome';

const words = (catalog: unknown, key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalog);
const row = (state: TargetState, reason = '') => ({ status: otaLogStatus(state), state, reason });

describe('the OTA log in words', () => {
  it('calls a skipped or cancelled panel that, in both languages, and never "Abnormal"', () => {
    expect(words(otaEnUS, outcomeKey(row('skipped', 'upToDate')))).toBe('Skipped');
    expect(words(otaZhCN, outcomeKey(row('skipped', 'upToDate')))).toBe('已跳过');
    expect(words(otaEnUS, outcomeKey(row('cancelled', 'operator')))).toBe('Cancelled');
    expect(words(otaZhCN, outcomeKey(row('cancelled', 'taskCancelled')))).toBe('已取消');
  });

  it('says a panel that never answered timed out', () => {
    expect(words(otaEnUS, outcomeKey(row('failed', 'timedOut')))).toBe('Timed out');
    expect(words(otaZhCN, outcomeKey(row('failed', 'timedOut')))).toBe('超时');
    expect(words(otaEnUS, outcomeKey(row('failed', 'checksum')))).toBe('Update failed');
  });

  it('keeps the spec status words for success and waiting', () => {
    expect(words(otaEnUS, outcomeKey(row('succeeded')))).toBe('Update success');
    expect(words(otaEnUS, outcomeKey(row('downloading')))).toBe('Waiting for update');
  });
});
