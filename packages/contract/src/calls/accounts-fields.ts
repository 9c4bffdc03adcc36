import { z } from 'zod';
import { recordId } from '../ids.js';

// Fields the account calls share (accounts.ts, accounts-platform.ts).

export const tag = 'accounts';
export const id = recordId('common.invalidId');
export const millis = z.coerce.number().int().min(0).max(32_503_680_000_000);
export const binary = z.coerce
  .number()
  .int()
  .min(0)
  .max(1)
  .transform((v) => v as 0 | 1);
export const programRole = z.coerce
  .number()
  .int()
  .min(0)
  .max(2)
  .transform((v) => v as 0 | 1 | 2);
