import type { TFunction } from 'i18next';

/**
 * A label as an option of a select (alert rules, token restrictions): a dynamic label says so
 * after its name, as the label chips do.
 */
export function labelOption(label: { groupId: number; groupName: string; dynamic?: boolean }, t: TFunction) {
  return {
    value: label.groupId,
    label: label.dynamic ? `${label.groupName} (${t('labels.dynamic.tag')})` : label.groupName,
  };
}
