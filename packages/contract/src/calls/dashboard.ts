import { z } from 'zod';
import { defineCall } from '../call.js';
import { users } from '../access.js';
import { okBase } from '../envelope.js';
import { recordId } from '../ids.js';

const tag = 'dashboards';

/**
 * Who sees a dashboard (index1, index2) and the fleet map. The scope is the caller's own:
 * the platform admin all customers, a distributor's staff its customers, a company's users
 * their company. `customerId` narrows a platform or distributor scope to one of its customers;
 * any other id (another tenant's, or none) is answered as an unknown customer.
 */
export const dashboardReaders = users(['0', '1', '2', '3', '4']);

/** Spec 3 section 9. */
export const DASHBOARD = {
  /** The OTA pie shows the first 6 versions; More>> lists them all. */
  otaPieVersions: 6,
  /** Counter animation, seconds. */
  counterAnimation: 3.5,
  /** The kilobyte factor memory is divided by (twice). */
  kilobyte: 1024,
  /** Weeks on the weekly line of OTA-upgraded panels. */
  upgradeWeeks: 8,
  /** The fallback poll of every live screen when its event stream is down (spec 2 section 9). */
  pollMs: 5000,
} as const;

/** Offline-days buckets of the bar chart (days since the panel was last seen, offline panels only). */
export const OFFLINE_BUCKETS = ['lt1', 'd1to3', 'd3to7', 'd7to30', 'gt30', 'never'] as const;
export type OfflineBucket = (typeof OFFLINE_BUCKETS)[number];

const optionalId = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  recordId('dashboard.customerInvalid'),
);

export const dashboardParams = z.object({ customerId: optionalId.optional() });

const nameValue = z.object({ name: z.string(), value: z.number().int().nonnegative() });
export type NameValue = z.infer<typeof nameValue>;

export const systemInfo = z.object({
  /** Whose figures: the server host (platform admin) or the panels of the scope. */
  source: z.enum(['host', 'fleet']),
  /** CPU load in percent (host), or the panels' average CPU temperature in °C (fleet). */
  cpu: z.number().nullable(),
  /** Used and total disk in KB (gauge: divided by 1024 twice = GB); null when not known. */
  disk: z.number().nullable(),
  diskTotal: z.number().nullable(),
  /** Used and total memory in KB (gauge: divided by kilobyte twice = GB). */
  memory: z.number().nullable(),
  memoryTotal: z.number().nullable(),
  /** When the fleet figures were measured (ms); null for the host (now). */
  measuredAt: z.number().int().nullable(),
});
export type SystemInfo = z.infer<typeof systemInfo>;

export const dashboardData = z.object({
  scope: z.enum(['platform', 'distributor', 'company']),
  deviceTotal: z.number().int().nonnegative(),
  activeDeviceTotal: z.number().int().nonnegative(),
  userTotal: z.number().int().nonnegative(),
  activeUserTotal: z.number().int().nonnegative(),
  /** Panels per province of the China map. */
  mapDataCN: z.array(nameValue),
  /** Panels per country of the world map (China included, as one country). */
  mapDataNotCN: z.array(nameValue),
  /** Located panels (by their reported position, else their public IP) and unlocated ones. */
  knownIpData: z.number().int().nonnegative(),
  unknownIpData: z.number().int().nonnegative(),
  /** Of the located panels: how many by their own position (the rest by IP). */
  locatedByPosition: z.number().int().nonnegative(),
  /** Panels per reported firmware version, most first. */
  otaVersionToTotal: z.array(nameValue),
  /** Succeeded OTA installs per week (createDate: the Monday, yyyy-MM-dd, UTC), oldest first. */
  weekUpgradeDevice: z.array(z.object({ createDate: z.string(), total: z.number().int().nonnegative() })),
  kilobyte: z.number().int(),
  systemInfo,
  /** Offline panels by days since they were last seen (OFFLINE_BUCKETS order). */
  offlineDays: z.array(z.object({ bucket: z.enum(OFFLINE_BUCKETS), value: z.number().int().nonnegative() })),
  /** Panels per machine type (series). */
  machineTypeToTotal: z.array(nameValue),
  /** Panels per customer company of the scope, most first. */
  listObject: z.array(nameValue.extend({ customerId: z.number().int() })),
});
export type DashboardData = z.infer<typeof dashboardData>;

export const previewCustomerDevice = defineCall({
  method: 'GET',
  path: '/platform/dashboard/previewCustomerDevice',
  summary:
    "Dashboard figures of the caller's scope (spec 3 section 3): counters, map counts, OTA versions, weekly OTA upgrades, system or fleet gauges, offline days, panels per machine type and per customer",
  tag,
  access: dashboardReaders,
  params: dashboardParams,
  reply: okBase.extend({ dataObject: dashboardData }),
});

export const HISTORY_PERIODS = ['hour', 'day'] as const;
export type HistoryPeriod = (typeof HISTORY_PERIODS)[number];

const epochMs = z.coerce
  .number({ error: 'dashboard.rangeInvalid' })
  .int({ error: 'dashboard.rangeInvalid' })
  .min(0, { error: 'dashboard.rangeInvalid' });

export const historyParams = dashboardParams
  .extend({
    startTime: epochMs,
    endTime: epochMs,
    period: z.enum(HISTORY_PERIODS, { error: 'dashboard.periodInvalid' }).default('day'),
  })
  .refine((v) => v.endTime > v.startTime, { error: 'dashboard.rangeInvalid', path: ['endTime'] });

/**
 * One period of the history. Screen-on time and OTA installs come from what is stored, however
 * far back the panels' reports and the rollouts go; panels and users are counted by samples, so
 * they are null for a period before sampling began (or while the server was down).
 */
export const historyPoint = z.object({
  /** Start of the hour or day (ms, UTC). */
  time: z.number().int(),
  deviceTotal: z.number().int().nullable(),
  /** The most panels online at once in the period (sampled). */
  onlineDevices: z.number().int().nullable(),
  userTotal: z.number().int().nullable(),
  /** The most users signed in at once in the period (sampled). */
  onlineUsers: z.number().int().nullable(),
  /** Screen-on time the panels reported for the period, ms. */
  screenOnMs: z.number().int(),
  /** Succeeded OTA installs in the period. */
  otaUpgrades: z.number().int(),
});
export type HistoryPoint = z.infer<typeof historyPoint>;

export const history = defineCall({
  method: 'GET',
  path: '/platform/dashboard/history',
  summary:
    "The scope's figures over time, per hour (kept HISTORY_HOURLY_DAYS) or per day (kept HISTORY_DAYS); a range reaching before what is kept is refused",
  tag,
  access: dashboardReaders,
  params: historyParams,
  reply: okBase.extend({
    listObject: z.array(historyPoint),
    totalRecords: z.number().int(),
    /** The earliest time this period is kept from. */
    keptFrom: z.number().int(),
  }),
});

export const mapDevice = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  deviceKey: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  /** gps: the panel's reported position; ip: where its public IP is. */
  source: z.enum(['gps', 'ip']),
  isOnline: z.enum(['0', '1']),
});
export type MapDevice = z.infer<typeof mapDevice>;

/** The most panels one map reply carries. */
export const MAP_DEVICES_LIMIT = 50_000;

export const mapDevices = defineCall({
  method: 'GET',
  path: '/platform/dashboard/mapDevices',
  summary: `Every located panel of the caller's company (at most ${MAP_DEVICES_LIMIT}), with its position, how it was located and whether it is online`,
  tag,
  access: users(['2', '4'], { refusal: 'device.customersOnly' }),
  params: z.object({}),
  reply: okBase.extend({
    listObject: z.array(mapDevice),
    totalRecords: z.number().int(),
    /** Panels without a position or a locatable IP. */
    unlocated: z.number().int(),
  }),
});
