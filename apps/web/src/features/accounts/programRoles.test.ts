import { describe, expect, it } from 'vitest';
import { roleLabelKey, userTypeLabelKey } from './programRoles';

describe('program role labels', () => {
  it('names roles 0, 1 and 2 and reads anything else as the creator', () => {
    expect(roleLabelKey(1)).toBe('accounts.role1');
    expect(roleLabelKey(2)).toBe('accounts.role2');
    expect(roleLabelKey(9)).toBe('accounts.role0');
  });

  it('names user types', () => {
    expect(userTypeLabelKey('4')).toBe('accounts.userType4');
  });
});
