import { describe, expect, it } from 'vitest';
import { confirmationProblem, confirmationRule, passwordRule, plainPasswordProblem } from './passwordRules';

const translate = (key: string) => `T(${key})`;

describe('plainPasswordProblem', () => {
  it('asks for a missing password with the given key', () => {
    expect(plainPasswordProblem('', 'forgetPsw.emptyPsw')).toBe('forgetPsw.emptyPsw');
    expect(plainPasswordProblem(undefined, 'notNull')).toBe('notNull');
  });

  it('applies the 6-16 letter-and-digit rule unless told not to', () => {
    expect(plainPasswordProblem('abcdef', 'e')).toBe('register.passwordRule');
    expect(plainPasswordProblem('abc12', 'e')).toBe('register.passwordRule');
    expect(plainPasswordProblem('abc123', 'e')).toBeUndefined();
    expect(plainPasswordProblem('old', 'e', false)).toBeUndefined();
  });
});

describe('confirmationProblem', () => {
  it('needs a value equal to the original', () => {
    expect(confirmationProblem('', 'abc123', 'empty', 'differ')).toBe('empty');
    expect(confirmationProblem('abc124', 'abc123', 'empty', 'differ')).toBe('differ');
    expect(confirmationProblem('abc123', 'abc123', 'empty', 'differ')).toBeUndefined();
  });
});

describe('antd rules', () => {
  it('reject with the translated key', async () => {
    await expect(passwordRule(translate, 'notNull').validator({}, 'short')).rejects.toThrow(
      'T(register.passwordRule)',
    );
    await expect(confirmationRule(translate, () => 'abc123', 'e', 'd').validator({}, 'x')).rejects.toThrow(
      'T(d)',
    );
    await expect(
      confirmationRule(translate, () => 'abc123', 'e', 'd').validator({}, 'abc123'),
    ).resolves.toBeUndefined();
  });
});
