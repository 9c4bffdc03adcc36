/** The last signed-in user name, kept in a cookie for one day (spec 1 section 9). */
export const NAME_COOKIE = 'loginName';
export const NAME_COOKIE_MAX_AGE_S = 24 * 60 * 60;

export function readRememberedName(cookieHeader: string): string {
  for (const part of cookieHeader.split(';')) {
    const [rawKey, ...rest] = part.split('=');
    if (rawKey?.trim() !== NAME_COOKIE) continue;
    try {
      return decodeURIComponent(rest.join('='));
    } catch {
      return '';
    }
  }
  return '';
}

/** The assignment for document.cookie that remembers `name`. */
export const rememberNameCookie = (name: string): string =>
  `${NAME_COOKIE}=${encodeURIComponent(name)}; max-age=${NAME_COOKIE_MAX_AGE_S}; path=/; SameSite=Lax`;
