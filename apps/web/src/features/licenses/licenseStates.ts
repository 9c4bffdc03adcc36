/** License state 0 is used (locked), 1 enabled, 2 disabled; type 0 registers a company, 1 a server. */
export const LICENSE_USED = 0;
export const EDITABLE_LICENSE_STATES = [1, 2] as const;
export const LICENSE_TYPES = [0, 1] as const;

export const licenseStateKey = (state: number) =>
  state === LICENSE_USED
    ? 'licenses.stateUsed'
    : state === 1
      ? 'licenses.stateEnabled'
      : 'licenses.stateDisabled';
export const licenseTypeKey = (type: number) =>
  type === 1 ? 'licenses.typeServer' : 'licenses.typeRegisteredUser';
export const isLicenseUsed = (license: { state: number }) => license.state === LICENSE_USED;
