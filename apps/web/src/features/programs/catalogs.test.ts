import { describe, expect, it } from 'vitest';
import * as programs from '@panelfleet/contract/programs';
import en from './locales/programs.en-US.json';
import zh from './locales/programs.zh-CN.json';

function leafKeys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([key, value]) => leafKeys(value, prefix ? `${prefix}.${key}` : key));
}

describe('program console catalogs', () => {
  it('zh-CN and en-US have identical key sets and no empty message', () => {
    expect(leafKeys(zh).sort()).toEqual(leafKeys(en).sort());
    for (const catalog of [zh, en])
      for (const key of leafKeys(catalog)) {
        const value = key.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], catalog);
        expect(typeof value === 'string' && value.trim() !== '', key).toBe(true);
      }
  });

  it('names every status, item type, publish state and approval role', () => {
    const keys = new Set(leafKeys(en));
    for (const s of programs.PROGRAM_STATUSES) expect(keys.has(`programs.statuses.${s}`), s).toBe(true);
    for (const t of programs.ITEM_TYPES) expect(keys.has(`programs.types.${t}`), t).toBe(true);
    for (const s of new Set(Object.values(programs.PUBLISH_STATES)))
      expect(keys.has(`programs.publish.states.${s}`), s).toBe(true);
    for (const role of ['0', '1', '2']) expect(keys.has(`programs.steps.roles.${role}`), role).toBe(true);
  });
});
