import { device } from '@panelfleet/contract';

type PowerSetting = device.X9Settings['powerOnOffSetting'] & {
  cecAutoPowerOn?: boolean;
  cecAutoPowerOff?: boolean;
};

/** Factory pictures: every input of the series at the default picture. */
const factoryPictures = (series: device.Series) =>
  Object.fromEntries(device.sourceTypesOf(series).map((s) => [s, device.defaultPictureSetting()]));

/**
 * Factory settings of a panel of each series (what it reports before anyone changes them): x9_vn
 * and rs panels run Android, oem panels do not; every input starts at the default picture.
 */
export function factorySettings(series: device.Series): device.SettingsReport {
  const report = factoryPlatformSettings(series);
  return {
    ...report,
    system: series === 'oem' ? 'noAndroid' : 'android',
    pictureSettings: factoryPictures(series),
  } as device.SettingsReport;
}

function factoryPlatformSettings(series: device.Series): device.SettingsReport {
  const power: PowerSetting = {
    autoPowerOn: false,
    powerOnTime: device.DEFAULT_POWER_TIME,
    powerOnWeek: '',
    autoPowerOff: false,
    powerOffTime: device.DEFAULT_POWER_TIME,
    powerOffWeek: '',
    // A fleet that dims itself in the middle of a demo or a test surprises people: off by default.
    energySaving: 'never',
  };
  const io = {
    hdmiOutputResolution: '1920*1080' as const,
    startingSource: 'homeScreen' as const,
    newInputSource: true,
  };
  switch (series) {
    case 'x9_vn':
      return {
        v: 1,
        platform: 'x9_vn',
        platformMsg: {
          language: 'en_us',
          powerOnOffSetting: power,
          inputOutputSetting: { ...io, cecAutoPowerOn: true, cecAutoPowerOff: false },
          toolBar: { left: true, right: true, customizedIcon: 'windows', favoriteConnection: 'hdmi1' },
          cameraSetting: { defaultCamera: 'top', antiFlickering: 'auto' },
          bluelightFilter: { bluelightFilter: false, filterLevel: 12 },
          newlineExtension: {
            trucast: false,
            trucastSource: 'front',
            x10d: false,
            x10dSource: 'hdmi1',
            trucam: false,
            trucamSource: 'hdmi2',
            montage: false,
          },
        },
      };
    case 'oem':
      return {
        v: 1,
        platform: 'oem',
        platformMsg: {
          language: 'en_us',
          powerOnOffSetting: { ...power, cecAutoPowerOn: true, cecAutoPowerOff: false },
          inputOutputSetting: { ...io, favoriteSource: 'hdmi1' },
        },
      };
    case 'rs':
      return {
        v: 1,
        platform: 'rs',
        platformMsg: {
          language: 'en_us',
          powerOnOffSetting: { ...power, cecAutoPowerOn: true, cecAutoPowerOff: false },
          inputOutputSetting: io,
          toolBar: { left: true, right: false, customizedIcon: 'task', favoriteConnection: 'hdmi1' },
        },
      };
  }
}

/**
 * Applies a SETTINGS order to a panel's settings (protocol 5.6): sections and fields named change,
 * pictures of the inputs named are replaced; undefined (the panel answers unsupported) when the
 * order is for another series or system, or the result is not valid settings.
 */
export function applySettings(
  current: device.SettingsReport,
  change: device.SettingsChange,
): device.SettingsReport | undefined {
  if (change.platform !== current.platform) return undefined;
  if (change.system !== undefined && change.system !== current.system) return undefined;
  let platformMsg = current.platformMsg as device.PlatformMsg;
  if (change.platformMsg !== undefined) {
    const result = device.applySettingsChange(current.platform, current.platformMsg, change.platformMsg);
    if (!result.ok) return undefined;
    platformMsg = result.merged;
  }
  const next = {
    ...current,
    platformMsg,
    ...(change.pictureSettings
      ? { pictureSettings: { ...current.pictureSettings, ...change.pictureSettings } }
      : {}),
  };
  const checked = device.settingsReport.safeParse(next);
  return checked.success ? checked.data : undefined;
}

const WEEKDAY_BY_DATE_DAY: device.Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const hhmm = (at: Date) =>
  `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
/** The local minute a scheduled time refers to. */
export type ScheduledAction = 'powerOn' | 'powerOff' | 'standby';

export interface PowerScheduleState {
  /** The panel runs (connected, screen on or in standby). */
  running: boolean;
  /** The screen is on (not in standby). */
  screenOn: boolean;
  /** Last operator activity (a command that changes what the panel shows or plays), epoch ms. */
  lastActivityAt: number;
}

/**
 * What the panel's own clock decides at `at` (local time): the auto power-on and power-off times
 * on their weekdays, and energy saving (standby after so many minutes without activity).
 * `firedMinute` is the minute already acted on, so each time fires once.
 */
export function scheduledAction(
  power: PowerSetting,
  state: PowerScheduleState,
  at: Date,
  firedMinute: string | undefined,
): ScheduledAction | undefined {
  const minute = minuteOf(at);
  const today = WEEKDAY_BY_DATE_DAY[at.getDay()]!;
  const due = (enabled: boolean, time: string, week: string) =>
    enabled && minute !== firedMinute && time === hhmm(at) && device.weekdaysOf(week).includes(today);
  if (state.running && due(power.autoPowerOff, power.powerOffTime, power.powerOffWeek)) return 'powerOff';
  if (!state.running && due(power.autoPowerOn, power.powerOnTime, power.powerOnWeek)) return 'powerOn';
  if (
    state.running &&
    state.screenOn &&
    power.energySaving !== 'never' &&
    at.getTime() - state.lastActivityAt >= power.energySaving * 60_000
  ) {
    return 'standby';
  }
  return undefined;
}

export const minuteOf = (at: Date) => `${at.toDateString()} ${hhmm(at)}`;
