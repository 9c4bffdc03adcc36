import { z } from 'zod';
import { invalid, oneOf, type Series } from './setting-rules.js';

// ---- per-input picture settings (spec 2 section 3 "source setting", sections 4, 5 and 9) ----

/** Input sources a picture setting may be for (spec 2 section 9). */
export const SOURCE_TYPES = ['vga', 'front', 'hdmi1', 'hdmi2', 'hdmi3', 'pc', 'dp'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
export const isSourceType = (value: string): value is SourceType =>
  (SOURCE_TYPES as readonly string[]).includes(value);

/** The inputs a series has (spec 2 section 5): VGA only when not x9_vn, HDMI3 only on x9_vn. */
export const sourceTypesOf = (series: Series): SourceType[] =>
  SOURCE_TYPES.filter((s) => (s !== 'vga' || series !== 'x9_vn') && (s !== 'hdmi3' || series === 'x9_vn'));

/** The system a panel's picture settings belong to: its Android board, or a panel without one. */
export const SYSTEMS = ['android', 'noAndroid'] as const;
export type PanelSystem = (typeof SYSTEMS)[number];
export const isPanelSystem = (value: string): value is PanelSystem =>
  (SYSTEMS as readonly string[]).includes(value);

export const PICTURE_MODES = ['normal', 'vivid', 'soft', 'custom'] as const;
export type PictureMode = (typeof PICTURE_MODES)[number];
/** Colour temperature codes: '1' normal, '2' warm, '0' cool. */
export const COLOR_TEMPS = ['1', '2', '0'] as const;
export const ASPECT_RATIOS = ['p2p', '16:9', '4:3'] as const;
export const COLOR_RANGES = ['16~235', '0~255', 'auto'] as const;
/** The five picture levels (0..100) a custom picture sets; the fixed modes show fixed values. */
export const PICTURE_LEVELS = ['brightness', 'contrast', 'hue', 'saturation', 'sharpness'] as const;
export type PictureLevel = (typeof PICTURE_LEVELS)[number];
type Levels = Record<PictureLevel, number>;
const levels = (brightness: number, contrast: number, hue: number, saturation: number, sharpness: number) =>
  ({ brightness, contrast, hue, saturation, sharpness }) satisfies Levels;
/** What the fixed picture modes show (read-only): spec 2 section 9. */
export const FIXED_PICTURE_LEVELS: Record<Exclude<PictureMode, 'custom'>, Levels> = {
  normal: levels(50, 50, 50, 50, 50),
  vivid: levels(50, 80, 50, 80, 30),
  soft: levels(40, 45, 50, 45, 45),
};
export const CUSTOM_PICTURE_DEFAULTS: Levels = levels(60, 20, 89, 60, 30);

const level = z.number(invalid).int(invalid).min(0, invalid).max(100, invalid);
const fixedMode = z.strictObject({ colorTemp: oneOf(COLOR_TEMPS) });

/**
 * The picture of one input (spec 2 source jsonData without its platform and sourceType): the
 * picture mode, each mode's colour temperature (custom with its five levels) and the display
 * settings. What a panel reports per input, what a SETTINGS order sets per input.
 */
export const pictureSetting = z.strictObject({
  pictureModeType: oneOf(PICTURE_MODES),
  imageSettings: z.strictObject({
    normal: fixedMode,
    vivid: fixedMode,
    soft: fixedMode,
    custom: z.strictObject({
      colorTemp: oneOf(COLOR_TEMPS),
      brightness: level,
      contrast: level,
      hue: level,
      saturation: level,
      sharpness: level,
    }),
  }),
  displaySettings: z.strictObject({ aspectRatio: oneOf(ASPECT_RATIOS), colorRange: oneOf(COLOR_RANGES) }),
});
export type PictureSetting = z.infer<typeof pictureSetting>;

/** The picture a new source setting starts with. */
export const defaultPictureSetting = (): PictureSetting => ({
  pictureModeType: 'normal',
  imageSettings: {
    normal: { colorTemp: '1' },
    vivid: { colorTemp: '1' },
    soft: { colorTemp: '1' },
    custom: { colorTemp: '1', ...CUSTOM_PICTURE_DEFAULTS },
  },
  displaySettings: { aspectRatio: '16:9', colorRange: 'auto' },
});

/** The levels an input shows in its current mode (fixed for normal, vivid and soft). */
export const shownLevels = (picture: PictureSetting): Levels =>
  picture.pictureModeType === 'custom'
    ? levels(
        picture.imageSettings.custom.brightness,
        picture.imageSettings.custom.contrast,
        picture.imageSettings.custom.hue,
        picture.imageSettings.custom.saturation,
        picture.imageSettings.custom.sharpness,
      )
    : FIXED_PICTURE_LEVELS[picture.pictureModeType];
