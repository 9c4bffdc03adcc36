/**
 * The panels and labels a call's parsed parameters target, by the contract's names for them:
 * `deviceId` (one panel), `deviceIds` (panels), `tagIds`, `groupIds` and `tags` (labels). A token
 * restricted to labels is checked against these before the handler runs (router `tokenReach`),
 * and so are the labels of an "all matching" filter (`matching.tagIds`); the panels of a filter
 * are narrowed when it is resolved (MatchingDevices), other ways of naming panels (serial
 * numbers, a task) are not narrowed.
 */
export const PANEL_TARGET_PARAMS = ['deviceId', 'deviceIds'] as const;
export const LABEL_TARGET_PARAMS = ['tagIds', 'groupIds', 'tags'] as const;

const ids = (value: unknown): number[] =>
  typeof value === 'number'
    ? [value]
    : Array.isArray(value)
      ? value.filter((item): item is number => typeof item === 'number')
      : typeof value === 'string' && /^\d+(,\d+)*$/.test(value)
        ? value.split(',').map(Number)
        : [];

const matchingLabels = (matching: unknown) =>
  typeof matching === 'object' && matching !== null ? ids((matching as Record<string, unknown>).tagIds) : [];

export function targetsOf(params: unknown): { devices: number[]; labels: number[] } {
  const record = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  return {
    devices: PANEL_TARGET_PARAMS.flatMap((name) => ids(record[name])),
    labels: [...LABEL_TARGET_PARAMS.flatMap((name) => ids(record[name])), ...matchingLabels(record.matching)],
  };
}
