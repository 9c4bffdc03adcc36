import { describe, expect, it } from 'vitest';
import { headerAvatarUrl, initialOf } from './userAvatar';

describe('the header avatar', () => {
  it('falls back to the first character of the name, in any script', () => {
    expect(initialOf('operator1')).toBe('O');
    expect(initialOf('张三')).toBe('张');
    expect(initialOf('  émile')).toBe('É');
    expect(initialOf('😀x')).toBe('😀');
    expect(initialOf('')).toBe('?');
  });

  it('addresses the image by its generated name, so a new upload is a new address', () => {
    expect(headerAvatarUrl('')).toBeUndefined();
    expect(headerAvatarUrl(undefined)).toBeUndefined();
    expect(headerAvatarUrl('0123456789abcdef0123456789abcdef.jpg')).toBe(
      '/platform/user/avatar?v=0123456789abcdef0123456789abcdef',
    );
  });
});
