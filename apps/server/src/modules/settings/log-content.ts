import { oplog, settings as calls } from '@panelfleet/contract';
import type { SessionUser } from '../../http/router.js';
import type { OperationEntry } from '../operation-log/repository.js';
import { changedFields, changedPictureFields } from '../operation-log/words.js';
import type { SettingRecord } from './repository.js';

const { term } = oplog;

/** The operation-log row of a saved-settings write, for the repository to write in its transaction. */
export function entry(
  caller: { user: SessionUser; ip: string },
  action: oplog.OperationAction,
  content: oplog.OperationContent,
): OperationEntry {
  return {
    orgId: caller.user.orgId,
    userId: caller.user.id,
    userName: caller.user.userName,
    userType: caller.user.userType,
    action,
    content,
    ip: caller.ip,
  };
}

const SOURCE_NAMES = new Set(['vga', 'front', 'hdmi1', 'hdmi2', 'hdmi3', 'pc', 'dp']);
const sourceName = (source: string | null) =>
  source !== null && SOURCE_NAMES.has(source) ? term(`source.${source}`) : (source ?? '');
const systemName = (system: string | null) =>
  system === 'android' || system === 'noAndroid' ? term(`system.${system}`) : (system ?? '');

/** A saved setting as people name it: "Template x9_vn (No. 3)", "Source setting Android · x9_vn · HDMI 1 (No. 4)". */
export function settingTerm(r: {
  id?: number;
  type: string;
  series: string;
  system: string | null;
  sourceType: string | null;
}): oplog.OperationTerm {
  const numbered = r.id !== undefined ? 'No' : '';
  if (r.type === calls.SETTING_TYPES.template)
    return term(`setting.template${numbered}`, {
      series: r.series,
      ...(r.id !== undefined ? { id: r.id } : {}),
    });
  return term(`setting.source${numbered}`, {
    system: systemName(r.system),
    series: r.series,
    source: sourceName(r.sourceType),
    ...(r.id !== undefined ? { id: r.id } : {}),
  });
}

export const rowTerm = (row: SettingRecord) =>
  settingTerm({
    id: row.id,
    type: row.type,
    series: row.series,
    system: row.system,
    sourceType: row.source_type,
  });

/** What an edit of a saved setting changed: a template's fields, or a source setting's picture parts. */
export function changesOf(row: SettingRecord, saved: unknown): oplog.OperationTerm[] {
  const before = JSON.parse(row.json_data) as Record<string, unknown>;
  const after = saved as Record<string, unknown>;
  return row.type === calls.SETTING_TYPES.template
    ? changedFields(before.platformMsg, after.platformMsg)
    : changedPictureFields(before, after);
}

/** One item of a push: a saved setting (by its number), or the device detail's picture of an input. */
export function pushItemTerm(item: {
  settingId: number | null;
  what: string;
  series: string;
  system?: string;
}): oplog.OperationTerm {
  if (item.settingId === null) return term('setting.picture', { source: sourceName(item.what) });
  return item.system === undefined
    ? settingTerm({
        id: item.settingId,
        type: calls.SETTING_TYPES.template,
        series: item.series,
        system: null,
        sourceType: null,
      })
    : settingTerm({
        id: item.settingId,
        type: calls.SETTING_TYPES.source,
        series: item.series,
        system: item.system,
        sourceType: item.what,
      });
}
