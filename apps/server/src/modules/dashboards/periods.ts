/** The fleet history's periods: hourly samples, rolled up into days. */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
