import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { validWindowProblem, validWindowRule } from './validWindow';

describe('valid window', () => {
  it('needs the end after the start when both are set', () => {
    expect(validWindowProblem(10, 5)).toBe('user.validWindow');
    expect(validWindowProblem(10, 10)).toBe('user.validWindow');
    expect(validWindowProblem(5, 10)).toBeUndefined();
    expect(validWindowProblem(undefined, 10)).toBeUndefined();
    expect(validWindowProblem(10, undefined)).toBeUndefined();
  });

  it('works on date pickers', async () => {
    const rule = validWindowRule(
      (key) => `T(${key})`,
      () => dayjs(2000),
    );
    await expect(rule.validator({}, dayjs(1000))).rejects.toThrow('T(user.validWindow)');
    await expect(rule.validator({}, dayjs(3000))).resolves.toBeUndefined();
    await expect(rule.validator({}, null)).resolves.toBeUndefined();
  });
});
