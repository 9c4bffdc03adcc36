import { describe, expect, it } from 'vitest';
import { NAME_COOKIE, readRememberedName, rememberNameCookie } from './rememberedName';
import { normalizeProgramRole, PROGRAM_ROLE_KEY, storeProgramRole } from './programRole';

describe('remembered user name', () => {
  it('writes a one-day cookie and reads it back, encoded', () => {
    const cookie = rememberNameCookie('张 三;x');
    expect(cookie).toContain('max-age=86400');
    expect(cookie).toContain('path=/');
    const pair = cookie.split(';')[0]!;
    expect(readRememberedName(`other=1; ${pair}; more=2`)).toBe('张 三;x');
  });

  it('is empty without the cookie or with a broken value', () => {
    expect(readRememberedName('other=1')).toBe('');
    expect(readRememberedName('')).toBe('');
    expect(readRememberedName(`${NAME_COOKIE}=%E0%A4%A`)).toBe('');
  });
});

describe('program role', () => {
  it('defaults to 0 for empty, null and undefined', () => {
    for (const value of ['', ' ', 'null', 'undefined', null, undefined])
      expect(normalizeProgramRole(value)).toBe('0');
  });

  it('keeps a real role', () => {
    expect(normalizeProgramRole('2')).toBe('2');
    expect(normalizeProgramRole(1)).toBe('1');
  });

  it('stores the normalized value', () => {
    const data = new Map<string, string>();
    storeProgramRole({ setItem: (k, v) => void data.set(k, v) }, 'null');
    expect(data.get(PROGRAM_ROLE_KEY)).toBe('0');
  });
});
