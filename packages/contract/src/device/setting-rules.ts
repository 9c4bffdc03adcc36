import { z } from 'zod';

// The panel series and the settings schemas' shared rules (settings.ts re-exports the series).

export const SERIES = ['x9_vn', 'oem', 'rs'] as const;
export type Series = (typeof SERIES)[number];
export const isSeries = (value: string): value is Series => (SERIES as readonly string[]).includes(value);

export const invalid = { error: 'setting.valueInvalid' };
export const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, invalid);
