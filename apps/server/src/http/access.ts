import { AppError } from './app-error.js';
import type { SessionUser } from './router.js';

/** Refuses callers whose user type is not among `types` (403, common.forbidden). */
export function requireType(user: SessionUser, ...types: SessionUser['userType'][]): void {
  if (!types.includes(user.userType)) throw new AppError('common.forbidden', 403);
}

/** Refuses a type-2 customer that has not activated: it may reach only the activation view. */
export function requireActivated(user: SessionUser): void {
  if (user.userType === '2' && user.activated !== 1) throw new AppError('PleaseActive', 403);
}

/** Offset of a page: `start` is the 1-based page number (0 reads as the first page). */
export const pageOffset = (start: number, size: number) => (Math.max(start, 1) - 1) * size;
