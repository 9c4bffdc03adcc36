import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { okBase } from '../envelope.js';
import { DEVICE_KEY_PATTERN } from '../device/topics.js';

const tag = 'screen time';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Spec 2 section 9: today is a 24-hour scale, recent covers the last 6 days plus today. */
export const SCREEN_TIME_SCALE = { day: DAY_MS, recent: 7 * DAY_MS } as const;
/** The width of one bar of the chart: an hour for today, a day for recent. */
export const SCREEN_TIME_SLOT = { day: HOUR_MS, recent: DAY_MS } as const;
export const SCREEN_TIME_SIGNS = ['day', 'recent'] as const;
export type ScreenTimeSign = (typeof SCREEN_TIME_SIGNS)[number];

const epochMs = z.coerce
  .number({ error: 'screenTime.rangeInvalid' })
  .int({ error: 'screenTime.rangeInvalid' })
  .min(0, { error: 'screenTime.rangeInvalid' });

export const selectRptTimeParams = z
  .object({
    startTime: epochMs,
    endTime: epochMs,
    sign: z.enum(SCREEN_TIME_SIGNS, { error: 'screenTime.signInvalid' }),
    deviceKey: z
      .string({ error: 'device.notFound' })
      .trim()
      .regex(DEVICE_KEY_PATTERN, { error: 'device.notFound' }),
  })
  // An hour of tolerance: a day that has a daylight-saving change is 25 hours long.
  .refine((v) => v.endTime > v.startTime && v.endTime - v.startTime <= SCREEN_TIME_SCALE[v.sign] + HOUR_MS, {
    error: 'screenTime.rangeInvalid',
    path: ['endTime'],
  });

export const rtpAppTime = z.object({
  /** The icon name the panel reported for the app ('' when it reported none or the app is gone). */
  icon: z.string(),
  appName: z.string(),
  packageName: z.string(),
  /** Foreground time in the range, ms. */
  totalTime: z.number().int(),
});
export type RtpAppTime = z.infer<typeof rtpAppTime>;

export const screenTimeSlot = z.object({
  startTime: z.number().int(),
  endTime: z.number().int(),
  /** Screen-on time within the slot, ms. */
  totalTime: z.number().int(),
});

export const rtpDeviceTime = z.object({
  /** Screen-on time in the whole range, ms. */
  totalTime: z.number().int(),
  /** The range cut into slots (hours for day, days for recent). */
  slots: z.array(screenTimeSlot),
});
export type RtpDeviceTime = z.infer<typeof rtpDeviceTime>;

export const selectRptTime = defineCall({
  method: 'POST',
  path: '/rptDeviceTime/selectRptTime',
  summary:
    "A panel's screen time from its app-usage reports: per app (RtpAppTime, longest first), all apps together (RtpAppTotalTime, ms) and the screen-on time per slot (RtpDeviceTime)",
  tag,
  access: callers.deviceOperators,
  tokens: 'read',
  params: selectRptTimeParams,
  reply: okBase.extend({
    RtpAppTime: z.array(rtpAppTime),
    RtpAppTotalTime: z.number().int(),
    RtpDeviceTime: rtpDeviceTime,
  }),
});
