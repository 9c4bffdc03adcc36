import type { device } from '@panelfleet/contract';

/** The filter builder's fields (antd Form values); blank fields are no condition. */
export interface FilterFormValues {
  groupName?: string;
  machineTypes?: string[];
  versions?: string[];
  versionMin?: string;
  versionMax?: string;
  packageName?: string;
  appVersion?: string;
  online?: 'any' | 'online' | 'offline';
  lastSeen?: 'any' | 'within' | 'notWithin';
  lastSeenMinutes?: number | null;
  country?: string;
  province?: string;
  namePattern?: string;
  serialPattern?: string;
  hasLabels?: number[];
  notLabels?: number[];
}

const text = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};
const list = <T>(value: T[] | undefined) => (value && value.length ? value : undefined);

/** The filter the form describes (only the conditions filled in), as the server takes it. */
export function toFilter(v: FilterFormValues): device.LabelFilter {
  const filter: device.LabelFilter = {};
  const machineTypes = list(v.machineTypes?.map((s) => s.trim()).filter(Boolean));
  if (machineTypes) filter.machineTypes = machineTypes;
  const versions = list(v.versions?.map((s) => s.trim()).filter(Boolean));
  const min = text(v.versionMin);
  const max = text(v.versionMax);
  if (versions || min || max)
    filter.firmware = {
      ...(versions ? { versions } : {}),
      ...(min ? { min } : {}),
      ...(max ? { max } : {}),
    };
  const packageName = text(v.packageName);
  const appVersion = text(v.appVersion);
  if (packageName) filter.app = { packageName, ...(appVersion ? { versionName: appVersion } : {}) };
  if (v.online === 'online' || v.online === 'offline') filter.online = v.online === 'online';
  if ((v.lastSeen === 'within' || v.lastSeen === 'notWithin') && v.lastSeenMinutes)
    filter.lastSeen = { within: v.lastSeen, minutes: v.lastSeenMinutes };
  const country = text(v.country);
  const province = text(v.province);
  if (country || province)
    filter.region = { ...(country ? { country } : {}), ...(province ? { province } : {}) };
  const namePattern = text(v.namePattern);
  if (namePattern) filter.namePattern = namePattern;
  const serialPattern = text(v.serialPattern);
  if (serialPattern) filter.serialPattern = serialPattern;
  const hasLabels = list(v.hasLabels);
  if (hasLabels) filter.hasLabels = hasLabels;
  const notLabels = list(v.notLabels);
  if (notLabels) filter.notLabels = notLabels;
  return filter;
}

/** The form's fields of a saved filter (editing a dynamic label). */
export function fromFilter(name: string, f: device.LabelFilter): FilterFormValues {
  return {
    groupName: name,
    machineTypes: f.machineTypes ?? [],
    versions: f.firmware?.versions ?? [],
    versionMin: f.firmware?.min,
    versionMax: f.firmware?.max,
    packageName: f.app?.packageName,
    appVersion: f.app?.versionName,
    online: f.online === undefined ? 'any' : f.online ? 'online' : 'offline',
    lastSeen: f.lastSeen?.within ?? 'any',
    lastSeenMinutes: f.lastSeen?.minutes ?? null,
    country: f.region?.country,
    province: f.region?.province,
    namePattern: f.namePattern,
    serialPattern: f.serialPattern,
    hasLabels: f.hasLabels ?? [],
    notLabels: f.notLabels ?? [],
  };
}

/** Whether the filter has any condition (the server refuses one without). */
export const hasCondition = (f: device.LabelFilter) => Object.keys(f).length > 0;
