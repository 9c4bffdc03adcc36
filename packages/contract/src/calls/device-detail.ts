import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { itemReply, listReply, okBase } from '../envelope.js';
import { deviceRow } from '../device/calls.js';
import { MATCHING_PANELS_MAX, withPanelSelection } from '../device/selection.js';
import { SERIES, SETTING_SECTIONS } from '../device/settings.js';
import { isRecordId, recordId } from '../ids.js';

// The device detail modal (spec 2 sections 2-7): detail, apps, the panel's settings. Paths the
// spec does not show are chosen here in its style.

const tag = 'device detail';
const deviceId = recordId('device.notFound');

/** Comma-separated values as the console's forms send lists: at least one (message `emptyKey`), at most `max`, no repeats. */
const commaList = (emptyKey: string, max: number) =>
  z
    .string({ error: emptyKey })
    .trim()
    .min(1, { error: emptyKey })
    .transform((text) => [
      ...new Set(
        text
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ])
    .refine((items) => items.length >= 1, { error: emptyKey })
    .refine((items) => items.length <= max, { error: 'common.invalidParams' });

const idList = (emptyKey: string, max: number) =>
  commaList(emptyKey, max)
    .refine((items) => items.every((item) => /^\d{1,10}$/.test(item) && isRecordId(Number(item))), {
      error: 'common.invalidParams',
    })
    .transform((items) => items.map(Number));

/**
 * Everything of spec 2 section 3, what else the panel reports about itself (its network card and
 * its time zone), and the machine type's catalog id (for its input sources).
 */
export const deviceDetail = deviceRow.extend({
  /** The machine type of the catalog whose name is the panel's reported machineType; null if none. */
  machineTypeId: z.number().int().nullable(),
  /**
   * How far the panel's own clock was off the server's (ms, positive: ahead) in its newest report
   * that carried its time (`ts`), and when that report arrived; null until one did. Past
   * CLOCK_SKEW_WARNING_MS the console warns: the panel's times (logs, screen time) are off too.
   */
  clockOffsetMs: z.number().int().nullable(),
  clockCheckedAt: z.number().int().nullable(),
  /** MAC address of the LAN interface (Wake-on-LAN); '' until reported. */
  mac: z.string(),
  /** Netmask of the LAN interface; '' until reported. */
  netmask: z.string(),
  /** The panel's offset from UTC in minutes east (480 in China): upgrade policies' time-zone windows apply in it; null until reported. */
  utcOffset: z.number().int().nullable(),
});
export type DeviceDetail = z.infer<typeof deviceDetail>;

/** A panel clock further off than this (either way) gets a warning in the device detail. */
export const CLOCK_SKEW_WARNING_MS = 60_000;

export const selectByDeviceId = defineCall({
  method: 'GET',
  path: '/platform/device/selectByDeviceId',
  summary:
    "One device of the caller's company with everything the panel reported (the detail modal polls it every 5 s)",
  tag,
  access: callers.deviceOperators,
  params: z.object({ deviceId }),
  reply: itemReply(deviceDetail),
});

export const APP_STATUSES = ['normal', 'uninstall'] as const;

export const deviceApp = z.object({
  appName: z.string(),
  packageName: z.string(),
  versionName: z.string(),
  /** A newer version in the APK repository; null while none is known. */
  newVersionName: z.string().nullable(),
  /** Bytes. */
  appSize: z.number(),
  /** 1 is a system app (never uninstallable). */
  appLevel: z.union([z.literal(0), z.literal(1)]),
  iconName: z.string(),
  /** `uninstall` while an uninstall of it is on its way to the panel. */
  status: z.enum(APP_STATUSES),
});
export type DeviceApp = z.infer<typeof deviceApp>;

export const listDeviceApps = defineCall({
  method: 'GET',
  path: '/platform/device/listApp',
  summary: 'The apps the panel last reported, by name',
  tag,
  access: callers.deviceOperators,
  params: z.object({ deviceId }),
  reply: listReply(deviceApp),
});

const PACKAGE_NAME = /^[A-Za-z0-9_.]{1,255}$/;

export const uninstallApk = defineCall({
  method: 'POST',
  path: '/platform/device/uninstallApk',
  summary:
    'Uninstall user apps; replies when the panel confirmed (uninstallStatus true) or after a short wait (false: still on its way)',
  tag,
  access: callers.deviceOperators,
  params: z.object({
    deviceId,
    packageNames: commaList('deviceManage.SelectApkUninstall', 100).refine(
      (names) => names.every((n) => PACKAGE_NAME.test(n)),
      { error: 'common.invalidParams' },
    ),
  }),
  reply: okBase.extend({
    appList: z.array(z.object({ packageName: z.string(), uninstallStatus: z.boolean() })),
  }),
});

export const upgradeApk = defineCall({
  method: 'POST',
  path: '/platform/device/upgradeApk',
  summary:
    "Renew: update user apps of an online panel to the newest version the company's APK repository holds of the same package and signer (an install task per app, each followed like any install)",
  tag,
  access: callers.deviceOperators,
  params: z.object({
    deviceId,
    packageNames: commaList('deviceManage.SelectApkRenew', 100).refine(
      (names) => names.every((n) => PACKAGE_NAME.test(n)),
      { error: 'common.invalidParams' },
    ),
  }),
  reply: okBase.extend({
    dataObject: z.object({
      tasks: z.array(
        z.object({ packageName: z.string(), versionName: z.string(), taskId: z.number().int() }),
      ),
    }),
  }),
});

export const deviceSetting = z.object({
  /** Stable while the panel keeps reporting this section. */
  deviceSettingId: z.number().int(),
  section: z.enum(SETTING_SECTIONS),
  /** The section as the panel reported it (a language code or an object of fields). */
  value: z.unknown(),
  reportedAt: z.number(),
});
export type DeviceSetting = z.infer<typeof deviceSetting>;

export const listDeviceSetting = defineCall({
  method: 'GET',
  path: '/deviceSetting/listDeviceSetting',
  summary: "The panel's current settings as it last reported them, one row per section, with its series",
  tag,
  access: callers.deviceOperators,
  params: z.object({ deviceId }),
  reply: listReply(deviceSetting).extend({ platform: z.enum(SERIES).nullable() }),
});

export const updateDeviceSetting = defineCall({
  method: 'POST',
  path: '/deviceSetting/updateDeviceSetting',
  summary:
    "Change some of the panel's settings: jsonData holds the changed sections and fields (platformMsg of spec 2)",
  tag,
  access: callers.deviceOperators,
  params: z.object({
    deviceId,
    jsonData: z
      .string({ error: 'setting.valueInvalid' })
      .trim()
      .min(2, { error: 'setting.valueInvalid' })
      .max(20_000),
  }),
  reply: itemReply(z.object({ commandId: z.string() })),
});

export const sendDeviceSettings = defineCall({
  method: 'POST',
  path: '/sendData/sendDeviceSettings',
  summary:
    "Clone: send the chosen sections of one panel's settings to the chosen panels of the same series (deviceIds), " +
    'or to every enabled panel matching a filter (matching, JSON body; at most 10,000)',
  tag,
  access: callers.deviceOperators,
  params: withPanelSelection(
    { deviceSettingIds: idList('deviceManage.selectSettingToPush', SETTING_SECTIONS.length) },
    idList('setting.chooseDevice', MATCHING_PANELS_MAX),
    'setting.chooseDevice',
  ),
  reply: itemReply(z.object({ count: z.number().int() })),
});
