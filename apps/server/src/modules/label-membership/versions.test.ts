import { describe, expect, it } from 'vitest';
import { likePattern } from './repository.js';
import { compareVersions } from './versions.js';

describe('dynamic label filter helpers', () => {
  it('orders versions part by part, numbers as numbers', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBe(1);
    expect(compareVersions('1.9.0', '1.10.0')).toBe(-1);
    expect(compareVersions('2.0', '2.0')).toBe(0);
    expect(compareVersions('2.0', '2.0.1')).toBe(-1);
    expect(compareVersions('2.0-rc2', '2.0-rc10')).toBe(-1);
    expect(compareVersions('V3', 'V2')).toBe(1);
  });

  it('turns * and ? into a lower-case LIKE pattern and escapes LIKE’s own characters', () => {
    expect(likePattern('Hall*')).toBe('hall%');
    expect(likePattern('PF-0?')).toBe('pf-0_');
    expect(likePattern('50%_off!')).toBe('50!%!_off!!');
  });
});
