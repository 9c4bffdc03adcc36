import { describe, expect, it } from 'vitest';
import {
  isValidEmail,
  isValidPassword,
  isValidPhone,
  requiredText,
  textWidth,
  truncateToWidth,
} from './rules.js';

describe('shared validation rules', () => {
  it('counts non-ASCII characters as two width units', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('面板')).toBe(4);
    expect(textWidth('a面')).toBe(3);
  });

  it('counts codes 1-126 and half-width katakana as one unit, everything else as two', () => {
    expect(textWidth('ｱｲｳ')).toBe(3);
    expect(textWidth('\u007f')).toBe(2);
    expect(textWidth('é')).toBe(2);
    expect(textWidth('😀')).toBe(2);
    expect(truncateToWidth('ab面c', 3)).toBe('ab');
    expect(truncateToWidth('ab面c', 4)).toBe('ab面');
    expect(truncateToWidth('😀😀', 3)).toBe('😀');
  });

  it('accepts passwords of 6 to 16 characters with a letter and a digit only', () => {
    expect(isValidPassword('abc123')).toBe(true);
    expect(isValidPassword('a1b2c3d4e5f6g7h8')).toBe(true);
    expect(isValidPassword('abc12')).toBe(false);
    expect(isValidPassword('a1b2c3d4e5f6g7h8i')).toBe(false);
    expect(isValidPassword('abcdefg')).toBe(false);
    expect(isValidPassword('1234567')).toBe(false);
  });

  it('accepts phones with an optional leading plus and hyphens', () => {
    expect(isValidPhone('+86-138-0000-0000')).toBe(true);
    expect(isValidPhone('13800000000')).toBe(true);
    expect(isValidPhone('138 0000')).toBe(false);
    expect(isValidPhone('-138')).toBe(false);
    expect(isValidPhone('138--00')).toBe(false);
  });

  it('accepts usual e-mail addresses only', () => {
    expect(isValidEmail('ops@example.com')).toBe(true);
    expect(isValidEmail('a.b+c@mail.example.cn')).toBe(true);
    expect(isValidEmail('no-at.example.com')).toBe(false);
    expect(isValidEmail('a@b')).toBe(false);
  });

  it('reports the empty key for blank text and the too-long key past the width limit', () => {
    const field = requiredText('login.nameNull', 4);
    expect(field.safeParse('  ').error?.issues[0]?.message).toBe('login.nameNull');
    expect(field.safeParse('面板面').error?.issues[0]?.message).toBe('common.tooLong');
    expect(field.safeParse(' 面板 ').data).toBe('面板');
  });
});
