import { certificate } from '@panelfleet/contract';

const DAY = 86_400_000;

export type ExpiryState = 'valid' | 'soon' | 'expired';

/** Where a certificate stands at `now`: expired, expiring within the warning period, or valid; and the whole days left. */
export function expiryOf(validTo: number, now: number): { state: ExpiryState; days: number } {
  const days = Math.floor((validTo - now) / DAY);
  if (validTo <= now) return { state: 'expired', days: 0 };
  return { state: days < certificate.CERTIFICATE_WARN_DAYS ? 'soon' : 'valid', days };
}
