import { describe, expect, it } from 'vitest';
import { AVATAR_ACCEPT, avatarUrl, isAllowedAvatarName, isWithinMaxSide } from './avatarFile';

describe('avatar files', () => {
  it('accepts gif, jpg, jpeg, png and bmp in any case', () => {
    for (const name of ['a.gif', 'b.JPG', 'c.jpeg', 'd.Png', 'e.bmp', 'x.y.png'])
      expect(isAllowedAvatarName(name), name).toBe(true);
  });

  it('refuses other types and names without an extension', () => {
    for (const name of ['a.webp', 'b.svg', 'png', 'c.png.exe', ''])
      expect(isAllowedAvatarName(name), name).toBe(false);
  });

  it('limits each side to 4000 px', () => {
    expect(isWithinMaxSide(4000, 4000)).toBe(true);
    expect(isWithinMaxSide(4001, 10)).toBe(false);
  });

  it('lists the accept attribute and stamps the image address', () => {
    expect(AVATAR_ACCEPT).toBe('.gif,.jpg,.jpeg,.png,.bmp');
    expect(avatarUrl(7)).toBe('/platform/user/avatar?v=7');
  });
});
