import { device, oplog } from '@panelfleet/contract';

/**
 * The parts of operation-log content that several modules write: a command in words, the fields a
 * settings change names, sizes. Everything here is structured (terms of the `oplog` catalog, names,
 * numbers); it is put into words when read, in the reader's language.
 */

const { term } = oplog;

/** A panel as the log names it: its name and serial number. */
export const panelName = (d: { name: string; device_key: string }) => `${d.name} (${d.device_key})`;

// The contract's lists: a source or key it names has words of its own; digits are said as they are.
const KNOWN_SOURCES = new Set<string>([...device.SOURCE_TYPES, 'home']);
const NAMED_KEYS = new Set<string>(device.VIRTUAL_KEYS.filter((key) => !/^\d$/.test(key)));

/** An order with its value in words: "Brightness 42", "Mute on", "Signal source HDMI 1", "Settings: Language". */
export function commandTerm(order: device.Order, value: unknown): oplog.OperationTerm {
  switch (order) {
    case '00':
    case '01':
      return term(`order.${order}`, { value: Number(value) });
    case '04': {
      const source = String(value);
      return term('order.04', { value: KNOWN_SOURCES.has(source) ? term(`source.${source}`) : source });
    }
    case '07':
      return term('order.07', { value: term(value ? 'on' : 'off') });
    case '08': {
      const key = String(value);
      return term('order.08', { value: NAMED_KEYS.has(key) ? term(`key.${key}`) : key });
    }
    case 'SETTINGS':
      return term('order.SETTINGS', { value: settingsChangeFields(value as device.SettingsChange) });
    case 'UNINSTALL':
      return term('order.UNINSTALL', {
        value: oplog.someOf((value as device.OrderValue<'UNINSTALL'>).packageNames),
      });
    default:
      return term(`order.${order}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** One settings field in words: "Power setting › Auto power-on"; a single-value section (language) is its section. */
function fieldTerm(section: string, field?: string): oplog.OperationTerm {
  if (field === undefined) return term(`section.${section}`);
  return term('settingField', { section: term(`section.${section}`), field: term(`field.${field}`) });
}

/** The fields named in settings sections (`platformMsg` of a change), in the order given. */
export function sectionFields(platformMsg: Record<string, unknown> | undefined): oplog.OperationTerm[] {
  const out: oplog.OperationTerm[] = [];
  for (const [section, fields] of Object.entries(platformMsg ?? {})) {
    if (isObject(fields)) for (const field of Object.keys(fields)) out.push(fieldTerm(section, field));
    else out.push(fieldTerm(section));
  }
  return out;
}

/** What a SETTINGS change changes: its settings fields and the pictures of its inputs. */
export function settingsChangeFields(change: device.SettingsChange): oplog.OperationTerm[] {
  const pictures = Object.keys(change.pictureSettings ?? {}).map((source) =>
    term('pictureOf', { source: KNOWN_SOURCES.has(source) ? term(`source.${source}`) : source }),
  );
  return [...sectionFields(change.platformMsg as Record<string, unknown> | undefined), ...pictures];
}

/**
 * The fields whose values differ between two complete settings (a saved template before and
 * after an edit): added, removed or changed, section by section.
 */
export function changedFields(before: unknown, after: unknown): oplog.OperationTerm[] {
  const a = isObject(before) ? before : {};
  const b = isObject(after) ? after : {};
  const out: oplog.OperationTerm[] = [];
  for (const section of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const was = a[section];
    const now = b[section];
    if (isObject(was) || isObject(now)) {
      const wasFields = isObject(was) ? was : {};
      const nowFields = isObject(now) ? now : {};
      for (const field of new Set([...Object.keys(wasFields), ...Object.keys(nowFields)]))
        if (JSON.stringify(wasFields[field]) !== JSON.stringify(nowFields[field]))
          out.push(fieldTerm(section, field));
    } else if (JSON.stringify(was) !== JSON.stringify(now)) out.push(fieldTerm(section));
  }
  return out;
}

/** A file size as people read it: 512 B, 38 KB, 2.4 MB, 1.2 GB. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let size = bytes / 1024;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${size >= 10 ? Math.round(size) : Math.round(size * 10) / 10} ${units[unit]}`;
}

/** The parts of a source setting's picture that differ: the mode, a mode's levels, the display settings. */
export function changedPictureFields(before: unknown, after: unknown): oplog.OperationTerm[] {
  const a = isObject(before) ? before : {};
  const b = isObject(after) ? after : {};
  const out: oplog.OperationTerm[] = [];
  if (JSON.stringify(a.pictureModeType) !== JSON.stringify(b.pictureModeType)) out.push(term('picture.mode'));
  const images = (x: Record<string, unknown>) => (isObject(x.imageSettings) ? x.imageSettings : {});
  for (const mode of new Set([...Object.keys(images(a)), ...Object.keys(images(b))])) {
    const was = images(a)[mode];
    const now = images(b)[mode];
    const wasLevels = isObject(was) ? was : {};
    const nowLevels = isObject(now) ? now : {};
    for (const level of new Set([...Object.keys(wasLevels), ...Object.keys(nowLevels)]))
      if (JSON.stringify(wasLevels[level]) !== JSON.stringify(nowLevels[level]))
        out.push(
          term('settingField', { section: term(`picture.modes.${mode}`), field: term(`picture.${level}`) }),
        );
  }
  const display = (x: Record<string, unknown>) => (isObject(x.displaySettings) ? x.displaySettings : {});
  for (const field of new Set([...Object.keys(display(a)), ...Object.keys(display(b))]))
    if (JSON.stringify(display(a)[field]) !== JSON.stringify(display(b)[field]))
      out.push(term(`picture.${field}`));
  return out;
}
