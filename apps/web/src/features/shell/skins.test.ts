import { describe, expect, it } from 'vitest';
import { DEFAULT_SKIN, loadSkin, saveSkin, SKINS, SKIN_STORAGE_KEY } from './skins';

const memoryStorage = (initial: Record<string, string> = {}) => {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    data,
  };
};

describe('skins', () => {
  it('offers ten distinct colours', () => {
    expect(SKINS).toHaveLength(10);
    expect(new Set(SKINS.map((s) => s.color)).size).toBe(10);
    expect(new Set(SKINS.map((s) => s.id)).size).toBe(10);
  });

  it('round-trips the chosen skin through storage', () => {
    const storage = memoryStorage();
    saveSkin(storage, 'green');
    expect(storage.data.get(SKIN_STORAGE_KEY)).toBe('green');
    expect(loadSkin(storage).color).toBe('#389e0d');
  });

  it('falls back to the default for a missing or unknown value', () => {
    expect(loadSkin(memoryStorage())).toBe(DEFAULT_SKIN);
    expect(loadSkin(memoryStorage({ [SKIN_STORAGE_KEY]: '#ff0000' }))).toBe(DEFAULT_SKIN);
  });
});
