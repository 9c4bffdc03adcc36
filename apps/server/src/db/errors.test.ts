import { describe, expect, it } from 'vitest';
import { isTransactionConflict, isWorthRetrying } from './errors.js';

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe('background writes worth trying again', () => {
  it('are a deadlock or a serialization failure, or the database being away', () => {
    expect(isTransactionConflict(withCode('40P01'))).toBe(true);
    expect(isTransactionConflict(withCode('40001'))).toBe(true);
    expect(isWorthRetrying(withCode('40P01'))).toBe(true);
    expect(isWorthRetrying(withCode('57P01'))).toBe(true);
    expect(isWorthRetrying(withCode('SQLITE_BUSY'))).toBe(true);
  });

  it('are not a refused row or a broken statement, which fail again the same way', () => {
    expect(isTransactionConflict(withCode('23505'))).toBe(false);
    expect(isWorthRetrying(withCode('23505'))).toBe(false);
    expect(isWorthRetrying(withCode('42703'))).toBe(false);
    expect(isWorthRetrying(new Error('not a report column: x'))).toBe(false);
    expect(isWorthRetrying(undefined)).toBe(false);
  });
});
