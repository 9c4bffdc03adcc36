import { describe, expect, it } from 'vitest';
import en from './locales/ota.en-US.json';
import zh from './locales/ota.zh-CN.json';
import { TARGET_STATES, TASK_STATES, OTA_LOG_STATUSES } from '@panelfleet/contract';

function leafKeys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([key, value]) => leafKeys(value, prefix ? `${prefix}.${key}` : key));
}

describe('OTA console catalogs', () => {
  it('zh-CN and en-US have identical key sets and no empty message', () => {
    expect(leafKeys(zh).sort()).toEqual(leafKeys(en).sort());
    for (const catalog of [zh, en])
      for (const key of leafKeys(catalog)) {
        const value = key.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], catalog);
        expect(typeof value === 'string' && value.trim() !== '', key).toBe(true);
      }
  });

  it('names every task state, panel state and OTA log status', () => {
    const keys = new Set(leafKeys(en));
    for (const s of TASK_STATES) expect(keys.has(`ota.task.states.${s}`), s).toBe(true);
    for (const s of TARGET_STATES) expect(keys.has(`ota.task.targetStates.${s}`), s).toBe(true);
    for (const s of OTA_LOG_STATUSES) expect(keys.has(`ota.log.statuses.${s}`), s).toBe(true);
  });
});
