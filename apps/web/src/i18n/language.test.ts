import { describe, expect, it } from 'vitest';
import { initialLanguage, loadLanguage, saveLanguage, LANGUAGE_STORAGE_KEY } from './language';

const memoryStorage = (initial: Record<string, string> = {}) => {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    data,
  };
};

describe('initialLanguage', () => {
  it('reads the stored value first', () => {
    expect(initialLanguage('zh-CN', 'en-GB')).toBe('zh-CN');
    expect(initialLanguage('en-US', 'zh-CN')).toBe('en-US');
  });

  it('turns any other stored value into en-US', () => {
    expect(initialLanguage('zh-TW', 'zh-CN')).toBe('en-US');
    expect(initialLanguage('fr', 'zh-CN')).toBe('en-US');
  });

  it('falls back to the browser: zh* is zh-CN, everything else en-US', () => {
    expect(initialLanguage(null, 'zh-CN')).toBe('zh-CN');
    expect(initialLanguage(null, 'zh')).toBe('zh-CN');
    expect(initialLanguage(null, 'zh-HK')).toBe('zh-CN');
    expect(initialLanguage(null, 'de-DE')).toBe('en-US');
    expect(initialLanguage(null, undefined)).toBe('en-US');
  });
});

describe('language storage', () => {
  it('remembers the choice across visits', () => {
    const storage = memoryStorage();
    expect(loadLanguage(storage, 'zh-CN')).toBe('zh-CN');
    saveLanguage(storage, 'en-US');
    expect(storage.data.get(LANGUAGE_STORAGE_KEY)).toBe('en-US');
    expect(loadLanguage(storage, 'zh-CN')).toBe('en-US');
  });
});
