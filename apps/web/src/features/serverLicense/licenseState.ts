import { servers } from '@panelfleet/contract';
import { ApiError } from '../../api/client';

/** What this deployment's license check says the /active page should offer. */
export type LicenseState = 'active' | 'firstActivation' | 'reactivation';

export function licenseStateOf(error: unknown): LicenseState | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.hhtErrorCode === servers.LICENSE_CODES.firstActivation) return 'firstActivation';
  if (error.hhtErrorCode === servers.LICENSE_CODES.reactivation) return 'reactivation';
  return undefined;
}

export const isLicenseRefusal = (error: unknown): boolean => licenseStateOf(error) !== undefined;
