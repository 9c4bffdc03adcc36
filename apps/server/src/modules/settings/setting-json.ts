import { device } from '@panelfleet/contract';
import { Refusal } from '../../refusal.js';
import type { SettingRecord } from './repository.js';

/** The rules of a saved setting's jsonData (spec 2 "Setting page"), checked by one schema per series. */

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Refusal('settingTemplate.jsonInvalid', 'invalid');
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A template's jsonData: {platform: its series, platformMsg: complete settings of that series}. */
export function checkTemplate(row: SettingRecord, json: unknown): device.TemplateJson {
  if (!isObject(json)) throw new Refusal('settingTemplate.jsonInvalid', 'invalid');
  if (json.platform !== row.series) throw new Refusal('settingTemplate.identityChanged', 'invalid');
  const parsed = device.templateJson.safeParse(json);
  if (!parsed.success) throw new Refusal(device.settingIssueKey(parsed.error), 'invalid');
  return parsed.data;
}

/** A source setting's jsonData: its system and input, and the complete picture. */
export function checkSource(row: SettingRecord, json: unknown): device.SourceSettingJson {
  if (!isObject(json)) throw new Refusal('settingTemplate.jsonInvalid', 'invalid');
  if (json.platform !== row.system || json.sourceType !== row.source_type)
    throw new Refusal('settingTemplate.identityChanged', 'invalid');
  const parsed = device.sourceSettingJson.safeParse(json);
  if (!parsed.success) throw new Refusal(device.settingIssueKey(parsed.error), 'invalid');
  return parsed.data;
}
