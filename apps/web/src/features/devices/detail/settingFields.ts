import { z } from 'zod';
import { device } from '@panelfleet/contract';

export type FieldKind =
  | { kind: 'bool' }
  | { kind: 'choice'; options: readonly string[] }
  | { kind: 'time' }
  | { kind: 'week' }
  | { kind: 'energy' }
  | { kind: 'level' };

export interface SettingField {
  section: device.SettingSection;
  /** The field's name, or the section's own name for a section that is a single value (language). */
  name: string;
  kind: FieldKind;
  /**
   * The section is this one value (language). A field may share its section's name without being
   * the whole section: bluelightFilter.bluelightFilter.
   */
  whole?: boolean;
}

function kindOf(name: string, schema: z.ZodType): FieldKind {
  if (name === 'energySaving') return { kind: 'energy' };
  if (name.endsWith('Time')) return { kind: 'time' };
  if (name.endsWith('Week')) return { kind: 'week' };
  if (schema instanceof z.ZodBoolean) return { kind: 'bool' };
  if (schema instanceof z.ZodEnum) return { kind: 'choice', options: schema.options as string[] };
  return { kind: 'level' };
}

/**
 * The editable fields of a series, read from the contract's schema for that series, so the editor
 * offers exactly what the panel accepts (no windows start source on oem, no gadget icon on oem/rs).
 */
export function fieldsOf(
  series: device.Series,
): Array<{ section: device.SettingSection; fields: SettingField[] }> {
  const shape = device.platformMsgSchemas[series].shape as Record<string, z.ZodType>;
  return device.sectionsOf(series).map((section) => {
    const schema = shape[section]!;
    if (!(schema instanceof z.ZodObject))
      return { section, fields: [{ section, name: section, kind: kindOf(section, schema), whole: true }] };
    const fields = Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
      section,
      name,
      kind: kindOf(name, field),
    }));
    return { section, fields };
  });
}

export type SectionValues = Record<string, unknown>;

/** The value of a field within settings sections (a single-value section is its own value). */
export function valueOf(values: SectionValues, field: SettingField): unknown {
  const section = values[field.section];
  if (field.whole) return section;
  return typeof section === 'object' && section !== null
    ? (section as Record<string, unknown>)[field.name]
    : undefined;
}

/** Sets a field in a copy of the sections. */
export function withValue(values: SectionValues, field: SettingField, value: unknown): SectionValues {
  if (field.whole) return { ...values, [field.section]: value };
  return {
    ...values,
    [field.section]: {
      ...(values[field.section] as Record<string, unknown> | undefined),
      [field.name]: value,
    },
  };
}

/** Only what differs from the report: the change to send (empty when nothing changed). */
export function changeOf(reported: SectionValues, edited: SectionValues): SectionValues {
  const change: SectionValues = {};
  for (const [section, value] of Object.entries(edited)) {
    const before = reported[section];
    if (typeof value !== 'object' || value === null) {
      if (value !== before) change[section] = value;
      continue;
    }
    const fields = Object.entries(value).filter(
      ([name, v]) => (before as Record<string, unknown> | undefined)?.[name] !== v,
    );
    if (fields.length) change[section] = Object.fromEntries(fields);
  }
  return change;
}

type Extension = Record<string, unknown>;
type Feature = (typeof device.EXTENSION_FEATURES)[number];

/** Sources taken by the other enabled newline features (spec 2 section 4). */
export function takenSources(ext: Extension, feature: Feature): Set<string> {
  return new Set(
    device.EXTENSION_FEATURES.filter((f) => f !== feature && ext[f] === true).map((f) =>
      String(ext[`${f}Source`]),
    ),
  );
}

/** Turning a feature on when its source is taken moves it to the first free source. */
export function switchFeature(ext: Extension, feature: Feature, on: boolean): Extension {
  const next = { ...ext, [feature]: on };
  const taken = takenSources(ext, feature);
  if (on && taken.has(String(ext[`${feature}Source`]))) {
    const free = device.EXTENSION_SOURCES.find((s) => !taken.has(s));
    if (free) next[`${feature}Source`] = free;
  }
  return next;
}

export const isExtensionFeature = (name: string): name is Feature =>
  (device.EXTENSION_FEATURES as readonly string[]).includes(name);
