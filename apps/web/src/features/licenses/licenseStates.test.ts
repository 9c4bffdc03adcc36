import { describe, expect, it } from 'vitest';
import { isLicenseUsed, licenseStateKey, licenseTypeKey } from './licenseStates';

describe('license states', () => {
  it('labels used, enabled and disabled', () => {
    expect(licenseStateKey(0)).toBe('licenses.stateUsed');
    expect(licenseStateKey(1)).toBe('licenses.stateEnabled');
    expect(licenseStateKey(2)).toBe('licenses.stateDisabled');
  });

  it('labels the types and locks used licenses', () => {
    expect(licenseTypeKey(0)).toBe('licenses.typeRegisteredUser');
    expect(licenseTypeKey(1)).toBe('licenses.typeServer');
    expect(isLicenseUsed({ state: 0 })).toBe(true);
    expect(isLicenseUsed({ state: 2 })).toBe(false);
  });
});
