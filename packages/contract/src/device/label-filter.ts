import { z } from 'zod';
import { MAX_RECORD_ID } from '../ids.js';

/**
 * Dynamic labels (issue 28 item 3): a label defined by a filter instead of a list of panels. The
 * server decides membership when the label is used (apps/server/src/modules/labels/membership.ts),
 * so a dynamic label works wherever a label does. Every present condition must hold (AND); a
 * filter with no condition is refused. Fields: docs/labels.md.
 */
export const LABEL_FILTER_MAX_LIST = 50;
export const LABEL_FILTER_MAX_MINUTES = 365 * 24 * 60;

const text = (max: number) =>
  z
    .string({ error: 'labelFilter.invalid' })
    .trim()
    .min(1, { error: 'labelFilter.invalid' })
    .max(max, { error: 'labelFilter.invalid' });
const textList = (max: number) =>
  z.array(text(max)).min(1, { error: 'labelFilter.invalid' }).max(LABEL_FILTER_MAX_LIST, {
    error: 'labelFilter.invalid',
  });
const minutes = z
  .number({ error: 'labelFilter.minutesInvalid' })
  .int({ error: 'labelFilter.minutesInvalid' })
  .min(1, { error: 'labelFilter.minutesInvalid' })
  .max(LABEL_FILTER_MAX_MINUTES, { error: 'labelFilter.minutesInvalid' });
const versionCode = z
  .number({ error: 'labelFilter.invalid' })
  .int({ error: 'labelFilter.invalid' })
  .min(0, { error: 'labelFilter.invalid' })
  .max(2_147_483_647, { error: 'labelFilter.invalid' });
const labelIds = z
  .array(
    z
      .number({ error: 'label.notFound' })
      .int({ error: 'label.notFound' })
      .min(1, { error: 'label.notFound' })
      .max(MAX_RECORD_ID, { error: 'label.notFound' }),
  )
  .min(1, { error: 'labelFilter.invalid' })
  .max(LABEL_FILTER_MAX_LIST, { error: 'labelFilter.invalid' });

export const labelFilter = z
  .object({
    /** Machine type names (any of them). */
    machineTypes: textList(64).optional(),
    /** Firmware (OTA) version: any of `versions`, and/or within `min`..`max` (inclusive, numeric parts compared as numbers). */
    firmware: z
      .object({ versions: textList(64).optional(), min: text(64).optional(), max: text(64).optional() })
      .strict()
      .refine((f) => f.versions || f.min || f.max, { error: 'labelFilter.invalid' })
      .optional(),
    /** An installed app by package name; optionally its version name, or a versionCode range. */
    app: z
      .object({
        packageName: text(200),
        versionName: text(64).optional(),
        minVersionCode: versionCode.optional(),
        maxVersionCode: versionCode.optional(),
      })
      .strict()
      .optional(),
    /** Connected now (true) or not (false). */
    online: z.boolean({ error: 'labelFilter.invalid' }).optional(),
    /** Last report within the last `minutes` ('within'), or not within them, never seen included ('notWithin'). */
    lastSeen: z
      .object({ within: z.enum(['within', 'notWithin'], { error: 'labelFilter.invalid' }), minutes })
      .strict()
      .optional(),
    /** Where the panel is placed (the map's country and, for China, province); both given: both must hold. */
    region: z
      .object({ country: text(64).optional(), province: text(64).optional() })
      .strict()
      .refine((r) => r.country || r.province, { error: 'labelFilter.invalid' })
      .optional(),
    /** Name pattern: `*` any run of characters, `?` one; case does not matter. */
    namePattern: text(64).optional(),
    /** Serial number (device key) pattern, as namePattern. */
    serialPattern: text(64).optional(),
    /** Panels that carry all of these labels (static or dynamic) of the company. */
    hasLabels: labelIds.optional(),
    /** Panels that carry none of these labels. */
    notLabels: labelIds.optional(),
  })
  .strict()
  .refine((f) => Object.values(f).some((v) => v !== undefined), { error: 'labelFilter.empty' })
  .refine(
    (f) =>
      !f.app ||
      f.app.minVersionCode === undefined ||
      f.app.maxVersionCode === undefined ||
      f.app.minVersionCode <= f.app.maxVersionCode,
    { error: 'labelFilter.invalid' },
  );
export type LabelFilter = z.infer<typeof labelFilter>;

/** A label as lists and pickers show it: dynamic ones carry their filter. */
export const groupRow = z.object({
  groupId: z.number().int(),
  groupName: z.string(),
  dynamic: z.boolean(),
  filter: labelFilter.nullable(),
});
export type GroupRow = z.infer<typeof groupRow>;
