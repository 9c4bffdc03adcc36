/** Avatar rules of spec 1: the file types accepted, the crop box and the largest image accepted. */
export const AVATAR_EXTENSIONS = ['gif', 'jpg', 'jpeg', 'png', 'bmp'] as const;
export const AVATAR_SIZE = 150;
export const MAX_AVATAR_SIDE = 4000;
export const AVATAR_ACCEPT = AVATAR_EXTENSIONS.map((ext) => `.${ext}`).join(',');

export function isAllowedAvatarName(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return false;
  return (AVATAR_EXTENSIONS as readonly string[]).includes(fileName.slice(dot + 1).toLowerCase());
}

export const isWithinMaxSide = (width: number, height: number) =>
  width <= MAX_AVATAR_SIDE && height <= MAX_AVATAR_SIDE;

/** The avatar image address; the stamp makes the browser fetch a new upload. */
export const avatarUrl = (stamp: number | string) => `/platform/user/avatar?v=${stamp}`;
