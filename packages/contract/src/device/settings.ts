import { z } from 'zod';
import { invalid, oneOf, type Series } from './setting-rules.js';
import { SOURCE_TYPES, SYSTEMS, SourceType, pictureSetting, sourceTypesOf } from './settings-pictures.js';

export * from './settings-pictures.js';
export { SERIES, isSeries, type Series } from './setting-rules.js';

/**
 * Panel settings (spec 2 section 3, template jsonData): what a panel reports on its `settings`
 * topic, what a SETTINGS command changes, what the console edits and clones. One schema per
 * series; sections and fields a series lacks are refused, not ignored.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Energy saving: the chooser's presets (minutes), "never", or a custom number of minutes. */
export const ENERGY_SAVING_PRESETS = [30, 60, 90] as const;
export const ENERGY_SAVING_DEFAULT = 30;
export const ENERGY_SAVING_MIN = 3;
export const ENERGY_SAVING_MAX = 1440;
export const DEFAULT_POWER_TIME = '00:00';

/** Terminal languages (about 35), with each language's own name. */
export const TERMINAL_LANGUAGES = [
  ['en_us', 'English (US)'],
  ['en_gb', 'English (UK)'],
  ['zh_cn', '简体中文'],
  ['zh_tw', '繁體中文'],
  ['ja_jp', '日本語'],
  ['ko_kr', '한국어'],
  ['es_es', 'Español'],
  ['fr_fr', 'Français'],
  ['de_de', 'Deutsch'],
  ['it_it', 'Italiano'],
  ['pt_pt', 'Português'],
  ['pt_br', 'Português (Brasil)'],
  ['ru_ru', 'Русский'],
  ['nl', 'Nederlands'],
  ['pl_pl', 'Polski'],
  ['tr_tr', 'Türkçe'],
  ['ar_sa', 'العربية'],
  ['he_il', 'עברית'],
  ['th_th', 'ไทย'],
  ['vi_vn', 'Tiếng Việt'],
  ['id_id', 'Bahasa Indonesia'],
  ['ms_my', 'Bahasa Melayu'],
  ['sv_se', 'Svenska'],
  ['da_dk', 'Dansk'],
  ['nb_no', 'Norsk'],
  ['fi_fi', 'Suomi'],
  ['cs_cz', 'Čeština'],
  ['sk_sk', 'Slovenčina'],
  ['hu_hu', 'Magyar'],
  ['ro_ro', 'Română'],
  ['el_gr', 'Ελληνικά'],
  ['uk_ua', 'Українська'],
  ['bg_bg', 'Български'],
  ['hr_hr', 'Hrvatski'],
  ['sl_si', 'Slovenščina'],
] as const;
export type TerminalLanguage = (typeof TERMINAL_LANGUAGES)[number][0];
const LANGUAGE_CODES = TERMINAL_LANGUAGES.map(([code]) => code) as [TerminalLanguage, ...TerminalLanguage[]];

export const RESOLUTIONS = ['720*480', '1920*1080', '3840*2160'] as const;
export const STARTING_SOURCES = ['homeScreen', 'windows', 'userLastKnownSource', 'favoriteSource'] as const;
export const FAVORITE_CONNECTIONS = ['front', 'hdmi1', 'hdmi2', 'hdmi3', 'dp', 'vga'] as const;
export const TOOLBAR_ICONS = ['windows', 'gadget', 'task', 'connection'] as const;
export const CAMERA_POSITIONS = ['top', 'bottom'] as const;
export const ANTI_FLICKERING = ['auto', '50Hz', '60Hz'] as const;
export const EXTENSION_SOURCES = ['front', 'hdmi1', 'hdmi2', 'hdmi3'] as const;
/** Newline extension features that each take one source; a source serves at most one enabled feature. */
export const EXTENSION_FEATURES = ['trucast', 'x10d', 'trucam'] as const;

const bool = z.boolean(invalid);
export const HH_MM_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const time = z.string(invalid).regex(HH_MM_PATTERN, { error: 'setting.timeInvalid' });
/** Weekday codes joined by underscore (mon_tue), each at most once; empty means no day. */
const week = z.string(invalid).refine(
  (text) => {
    if (text === '') return true;
    const days = text.split('_');
    return (
      new Set(days).size === days.length && days.every((d) => (WEEKDAYS as readonly string[]).includes(d))
    );
  },
  { error: 'setting.weekInvalid' },
);
/** Minutes (integer, 3..1440) or "never". */
export const energySaving = z.union(
  [
    z.literal('never'),
    z
      .number(invalid)
      .int({ error: 'setting.threeMin' })
      .min(ENERGY_SAVING_MIN, { error: 'setting.threeMin' })
      .max(ENERGY_SAVING_MAX, { error: 'setting.energySavingMax' }),
  ],
  { error: 'setting.threeMin' },
);
export type EnergySaving = z.infer<typeof energySaving>;

const power = {
  autoPowerOn: bool,
  powerOnTime: time,
  powerOnWeek: week,
  autoPowerOff: bool,
  powerOffTime: time,
  powerOffWeek: week,
  energySaving,
};
const cec = { cecAutoPowerOn: bool, cecAutoPowerOff: bool };
const inputOutput = { hdmiOutputResolution: oneOf(RESOLUTIONS), newInputSource: bool };
const toolBar = { left: bool, right: bool, favoriteConnection: oneOf(FAVORITE_CONNECTIONS) };

/** Section shapes per series; plain objects so that partial updates can be derived from them. */
const shapes = {
  x9_vn: {
    language: z.enum(LANGUAGE_CODES, invalid),
    powerOnOffSetting: z.strictObject(power),
    inputOutputSetting: z.strictObject({ ...inputOutput, startingSource: oneOf(STARTING_SOURCES), ...cec }),
    toolBar: z.strictObject({ ...toolBar, customizedIcon: oneOf(TOOLBAR_ICONS) }),
    cameraSetting: z.strictObject({
      defaultCamera: oneOf(CAMERA_POSITIONS),
      antiFlickering: oneOf(ANTI_FLICKERING),
    }),
    bluelightFilter: z.strictObject({
      bluelightFilter: bool,
      filterLevel: z.number(invalid).int(invalid).min(0, invalid).max(100, invalid),
    }),
    newlineExtension: z.strictObject({
      trucast: bool,
      trucastSource: oneOf(EXTENSION_SOURCES),
      x10d: bool,
      x10dSource: oneOf(EXTENSION_SOURCES),
      trucam: bool,
      trucamSource: oneOf(EXTENSION_SOURCES),
      montage: bool,
    }),
  },
  oem: {
    language: z.enum(LANGUAGE_CODES, invalid),
    powerOnOffSetting: z.strictObject({ ...power, ...cec }),
    inputOutputSetting: z.strictObject({
      ...inputOutput,
      startingSource: oneOf(['homeScreen', 'userLastKnownSource', 'favoriteSource']),
      favoriteSource: oneOf(FAVORITE_CONNECTIONS),
    }),
  },
  rs: {
    language: z.enum(LANGUAGE_CODES, invalid),
    powerOnOffSetting: z.strictObject({ ...power, ...cec }),
    inputOutputSetting: z.strictObject({ ...inputOutput, startingSource: oneOf(STARTING_SOURCES) }),
    toolBar: z.strictObject({ ...toolBar, customizedIcon: oneOf(['windows', 'task', 'connection']) }),
  },
} as const;

export const SETTING_SECTIONS = [
  'language',
  'powerOnOffSetting',
  'inputOutputSetting',
  'toolBar',
  'cameraSetting',
  'bluelightFilter',
  'newlineExtension',
] as const;
export type SettingSection = (typeof SETTING_SECTIONS)[number];

/** The sections a series has, in the order the editors show them. */
export const sectionsOf = (series: Series): SettingSection[] =>
  SETTING_SECTIONS.filter((s) => s in shapes[series]);

/** A source chosen by one enabled newline feature cannot serve another. */
function checkExtensionSources(msg: { newlineExtension?: Record<string, unknown> }, ctx: z.RefinementCtx) {
  const ext = msg.newlineExtension;
  if (!ext) return;
  const used = EXTENSION_FEATURES.filter((f) => ext[f] === true).map((f) => ext[`${f}Source`]);
  if (new Set(used).size !== used.length)
    ctx.addIssue({ code: 'custom', message: 'setting.sourceTaken', path: ['newlineExtension'] });
}

export const platformMsgSchemas = {
  x9_vn: z.strictObject(shapes.x9_vn).superRefine(checkExtensionSources),
  oem: z.strictObject(shapes.oem),
  rs: z.strictObject(shapes.rs),
};
export type X9Settings = z.infer<typeof platformMsgSchemas.x9_vn>;
export type OemSettings = z.infer<typeof platformMsgSchemas.oem>;
export type RsSettings = z.infer<typeof platformMsgSchemas.rs>;
export type PlatformMsg = X9Settings | OemSettings | RsSettings;

/** Every section optional, every field of a section optional: what an operator changes. */
const partialOf = <S extends Record<string, z.ZodType>>(shape: S) =>
  z.strictObject(
    Object.fromEntries(
      Object.entries(shape).map(([key, schema]) => [
        key,
        (schema instanceof z.ZodObject ? schema.partial() : schema).optional(),
      ]),
    ) as {
      [K in keyof S]: z.ZodOptional<
        S[K] extends z.ZodObject
          ? z.ZodObject<{ [F in keyof S[K]['shape']]: z.ZodOptional<S[K]['shape'][F]> }, z.core.$strict>
          : S[K]
      >;
    },
  );

export const partialPlatformMsgSchemas = {
  x9_vn: partialOf(shapes.x9_vn),
  oem: partialOf(shapes.oem),
  rs: partialOf(shapes.rs),
};
export type PlatformMsgChange = z.infer<(typeof partialPlatformMsgSchemas)[Series]>;

const version = z.literal(1);

/** Picture settings by input, only inputs the series has. */
const picturesOf = (series: Series) =>
  z.partialRecord(z.enum(sourceTypesOf(series) as [SourceType, ...SourceType[]], invalid), pictureSetting);

/** Source setting jsonData (spec 2 section 3): platform is the system, sourceType the input. */
export const sourceSettingJson = pictureSetting.extend({
  platform: oneOf(SYSTEMS),
  sourceType: oneOf(SOURCE_TYPES),
});
export type SourceSettingJson = z.infer<typeof sourceSettingJson>;

// ---- setting templates (spec 2 section 3 "template jsonData") ----

/** Template jsonData: the complete settings of one series, exactly what a panel of it reports. */
export const templateJson = z.discriminatedUnion(
  'platform',
  [
    z.strictObject({ platform: z.literal('x9_vn'), platformMsg: platformMsgSchemas.x9_vn }),
    z.strictObject({ platform: z.literal('oem'), platformMsg: platformMsgSchemas.oem }),
    z.strictObject({ platform: z.literal('rs'), platformMsg: platformMsgSchemas.rs }),
  ],
  { error: 'setting.notForSeries' },
);
export type TemplateJson = z.infer<typeof templateJson>;

/** The settings a new template starts with (spec 2 section 9 defaults). */
export function defaultPlatformMsg(series: 'x9_vn'): X9Settings;
export function defaultPlatformMsg(series: 'oem'): OemSettings;
export function defaultPlatformMsg(series: 'rs'): RsSettings;
export function defaultPlatformMsg(series: Series): PlatformMsg;
export function defaultPlatformMsg(series: Series): PlatformMsg {
  const power = {
    autoPowerOn: false,
    powerOnTime: DEFAULT_POWER_TIME,
    powerOnWeek: '',
    autoPowerOff: false,
    powerOffTime: DEFAULT_POWER_TIME,
    powerOffWeek: '',
    energySaving: ENERGY_SAVING_DEFAULT,
  };
  const io = {
    hdmiOutputResolution: '1920*1080' as const,
    startingSource: 'homeScreen' as const,
    newInputSource: true,
  };
  const cec = { cecAutoPowerOn: true, cecAutoPowerOff: false };
  switch (series) {
    case 'x9_vn':
      return {
        language: 'en_us',
        powerOnOffSetting: power,
        inputOutputSetting: { ...io, ...cec },
        toolBar: { left: true, right: true, customizedIcon: 'windows', favoriteConnection: 'front' },
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
      };
    case 'oem':
      return {
        language: 'en_us',
        powerOnOffSetting: { ...power, ...cec },
        inputOutputSetting: { ...io, favoriteSource: 'front' },
      };
    case 'rs':
      return {
        language: 'en_us',
        powerOnOffSetting: { ...power, ...cec },
        inputOutputSetting: io,
        toolBar: { left: true, right: true, customizedIcon: 'windows', favoriteConnection: 'front' },
      };
  }
}

// ---- what travels between panel and server ----

/** SHA-256 in lower-case hex. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;
const sha256Hex = z.string().regex(SHA256_HEX);

/** The settings report of one series: its settings, and optionally its system, pictures and certificate. */
const reportOf = <S extends Series>(series: S) =>
  z.strictObject({
    v: version,
    platform: z.literal(series),
    platformMsg: platformMsgSchemas[series],
    /** The system the picture settings belong to. */
    system: oneOf(SYSTEMS).optional(),
    /** Complete picture settings of each input the panel has (protocol 5.5). */
    pictureSettings: picturesOf(series).optional(),
    /** Fingerprint of the platform certificate the panel holds (protocol 5.8); absent while it holds none. */
    certificateSha256: sha256Hex.optional(),
  });

/** `pf/v1/d/{key}/settings`: the panel's complete current settings, after connecting and after each change. */
export const settingsReport = z.discriminatedUnion('platform', [
  reportOf('x9_vn'),
  reportOf('oem'),
  reportOf('rs'),
]);
export type SettingsReport = z.infer<typeof settingsReport>;

/** The SETTINGS value of one series: settings sections and fields to change, pictures of inputs to replace. */
const changeOf = <S extends Series>(series: S) =>
  z.strictObject({
    platform: z.literal(series),
    /** Sections and fields to change; the rest stays as the panel has it. */
    platformMsg: partialPlatformMsgSchemas[series].optional(),
    /** The panel refuses (unsupported) when its system is another. */
    system: oneOf(SYSTEMS).optional(),
    /** Inputs whose picture settings are replaced as a whole. */
    pictureSettings: picturesOf(series).optional(),
  });

/** The SETTINGS order's value: settings, pictures or both; the rest stays as the panel has it. */
export const settingsChange = z
  .discriminatedUnion('platform', [changeOf('x9_vn'), changeOf('oem'), changeOf('rs')])
  .refine((change) => change.platformMsg !== undefined || change.pictureSettings !== undefined, {
    error: 'deviceManage.selectSettingToPush',
  });
export type SettingsChange = z.infer<typeof settingsChange>;

/** Applies a change to complete settings: named sections are merged field by field. */
export function mergeSettings(
  current: Record<string, unknown>,
  change: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [section, value] of Object.entries(change)) {
    const before = merged[section];
    merged[section] =
      typeof value === 'object' && value !== null && typeof before === 'object' && before !== null
        ? { ...before, ...value }
        : value;
  }
  return merged;
}

/**
 * Checks a change against the panel's current settings: the change must fit the series, and the
 * merged result must be valid settings. Returns the merged settings or the first message key.
 */
export function applySettingsChange(
  series: Series,
  current: Record<string, unknown>,
  change: unknown,
): { ok: true; merged: PlatformMsg; change: PlatformMsgChange } | { ok: false; key: string } {
  const parsedChange = partialPlatformMsgSchemas[series].safeParse(change);
  if (!parsedChange.success) return { ok: false, key: settingIssueKey(parsedChange.error) };
  const merged = platformMsgSchemas[series].safeParse(mergeSettings(current, parsedChange.data));
  if (!merged.success) return { ok: false, key: settingIssueKey(merged.error) };
  return { ok: true, merged: merged.data, change: parsedChange.data };
}

/** The message key of a settings schema's first issue (a section or field the series lacks: setting.notForSeries). */
export const settingIssueKey = (error: z.ZodError) => {
  const issue = error.issues[0];
  if (issue?.code === 'unrecognized_keys') return 'setting.notForSeries';
  return issue?.message.startsWith('setting.') ? issue.message : 'setting.valueInvalid';
};

/** Weekday codes of a week field. */
export const weekdaysOf = (week: string): Weekday[] => (week ? (week.split('_') as Weekday[]) : []);
export const weekOf = (days: readonly Weekday[]) => WEEKDAYS.filter((d) => days.includes(d)).join('_');
