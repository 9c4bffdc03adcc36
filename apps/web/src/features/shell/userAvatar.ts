import { avatarUrl } from '../personal/avatarFile';

/** The letter shown while the avatar loads, when there is none, or when it cannot be read: the name's first character. */
export function initialOf(userName: string): string {
  const first = [...userName.trim()][0];
  return first ? first.toLocaleUpperCase() : '?';
}

/**
 * The header's avatar address, or undefined when the user has none. Each upload gets a new
 * generated file name, so its 32 hex digits make the address change with the image.
 */
export function headerAvatarUrl(avatar: string | undefined): string | undefined {
  if (!avatar) return undefined;
  return avatarUrl(avatar.replace(/\.jpg$/, '').slice(0, 32));
}
