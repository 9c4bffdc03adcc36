/** Stand-alone pages outside the shell that later releases fill in; each is also its path. */
export const PLACEHOLDER_PAGES = ['active'] as const;
export type PlaceholderPage = (typeof PLACEHOLDER_PAGES)[number];
