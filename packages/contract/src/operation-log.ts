import { z } from 'zod';

/**
 * The operation log in words. A row keeps its content structured — a sentence of the catalog
 * (`oplog.content.<k>`) and the names, numbers and terms that fill it — and is put into words
 * when it is read, in the reader's language: the same row reads "Brightness 42" in English and
 * "亮度 42" in Chinese. Rows written before this (migration 035) keep their stored English text.
 *
 * A term (`{t}`) is a catalog word (`oplog.<t>`: an order, a settings field, a user type), itself
 * filled with values; a list is joined with the language's separator.
 */
export interface OperationTerm {
  t: string;
  v?: Record<string, OperationValue>;
}
export type OperationScalar = string | number | OperationTerm;
export type OperationValue = OperationScalar | OperationScalar[];
export interface OperationContent {
  k: string;
  v?: Record<string, OperationValue>;
}

const scalar: z.ZodType<OperationScalar> = z.union([z.string(), z.number(), z.lazy(() => operationTerm)]);
const value: z.ZodType<OperationValue> = z.union([scalar, z.array(scalar)]);
const operationTerm: z.ZodType<OperationTerm> = z.object({
  t: z.string(),
  v: z.record(z.string(), value).optional(),
});
export const operationContent: z.ZodType<OperationContent> = z.object({
  k: z.string(),
  v: z.record(z.string(), value).optional(),
});

/** What fills a message: `translate(key, vars)` of the server's catalogs or the console's i18next. */
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

const PREFIX = 'oplog.';

function valueText(item: OperationValue, translate: Translate): string {
  if (Array.isArray(item)) {
    if (!item.length) return translate(`${PREFIX}none`);
    return item.map((part) => valueText(part, translate)).join(translate(`${PREFIX}separator`));
  }
  if (typeof item === 'object') return translate(`${PREFIX}${item.t}`, varsText(item.v, translate));
  return String(item);
}

function varsText(vars: Record<string, OperationValue> | undefined, translate: Translate) {
  return Object.fromEntries(
    Object.entries(vars ?? {}).map(([name, item]) => [name, valueText(item, translate)]),
  );
}

/** The content in words. */
export function operationText(content: OperationContent, translate: Translate): string {
  return translate(`${PREFIX}content.${content.k}`, varsText(content.v, translate));
}

/** The operation type in words; a type the catalog does not know stays its code. */
export function operationTypeText(action: string, translate: Translate): string {
  const key = `${PREFIX}type.${action}`;
  const text = translate(key);
  return text === key || text === '' ? action : text;
}

export const term = (t: string, v?: Record<string, OperationValue>): OperationTerm => (v ? { t, v } : { t });

/** A number of things in words, singular or plural: "1 panel", "12 panels" (`oplog.count.<noun>`). */
export const counted = (
  noun: 'panel' | 'material' | 'inputSource' | 'serialNumber' | 'user',
  count: number,
) => term(`count.${noun}.${count === 1 ? 'one' : 'other'}`, { count });

/** At most `max` names, then "and n more": a log row names what it can show, not thousands. */
export function someOf(names: readonly string[], max = 10): OperationScalar[] {
  if (names.length <= max) return [...names];
  return [...names.slice(0, max), term('more', { count: names.length - max })];
}

/**
 * Every operation type the server writes (what `oplog.type.<action>` names). The server's log
 * takes only these, so a new kind of write cannot reach the screen without words.
 */
export const OPERATION_ACTIONS = [
  // accounts
  'register',
  'activate',
  'changePassword',
  'resetPassword',
  'updatePersonal',
  'updateAvatar',
  'addUser',
  'updateUser',
  'deleteUser',
  'updateCustomer',
  'updateQuota',
  'addSalesperson',
  'updateSalesperson',
  'deleteSalesperson',
  'addLicense',
  'updateLicense',
  'deleteLicense',
  'server.first',
  'server.renew',
  // devices, labels, commands
  'device.update',
  'device.import',
  'device.remove',
  'device.upgradeApk',
  'device.uninstallApk',
  'label.create',
  'label.assign',
  'label.update',
  'command.send',
  'command.powerUp',
  'command.labelSend',
  'command.labelPowerUp',
  'command.matchingSend',
  'deviceSetting.update',
  'deviceSetting.clone',
  'sendMessage',
  'insertMaterial',
  'deleteMaterial',
  // saved settings
  'settingTemplate.add',
  'settingTemplate.update',
  'settingTemplate.delete',
  'settingTemplate.push.template',
  'settingTemplate.push.source',
  'settingTemplate.push.selection',
  'settingTemplate.push.picture',
  'settingTemplate.push.cancel',
  'certificate.update',
  // catalogs, tips, logs
  'addMachineType',
  'updateMachineType',
  'deleteMachineType',
  'addSource',
  'updateSource',
  'deleteSource',
  'addTips',
  'updateTips',
  'deleteTips',
  'addWarning',
  'updateWarning',
  'deleteWarning',
  'addWarningMessage',
  'updateWarningMessage',
  'deleteWarningMessage',
  'processAbnormalLog',
  // OTA
  'otaFile.add',
  'otaFile.update',
  'otaFile.delete',
  'otaFile.description',
  'otaFile.remind',
  'otaVersion.add',
  'otaVersion.update',
  'otaVersion.delete',
  'otaRule.add',
  'otaRule.update',
  'otaRule.delete',
  'otaRule.zone',
  'otaRule.ip',
  'otaRule.sn',
  'ota.forceUpdate',
  'ota.cancel',
  'ota.pause',
  'ota.resume',
  // APKs
  'apk.upload',
  'apk.sub',
  'apk.remark',
  'apk.delete',
  'apk.install',
  'apk.cancel',
  // programs
  'program.insert',
  'program.update',
  'program.delete',
  'program.approval',
  'program.importZip',
  'program.publish',
  'program.cancel',
  // alerts
  'alertRule.save',
  'alertRule.delete',
  'alert.acknowledge',
  'alert.clear',
  // API tokens
  'apiToken.create',
  'apiToken.revoke',
  // webhooks
  'webhook.add',
  'webhook.update',
  'webhook.delete',
  'webhook.rotateSecret',
  // identity: sign-in, second factor, sessions (issue 29)
  'signIn',
  'signInRefused',
  'secondFactor.enrol',
  'secondFactor.remove',
  'secondFactor.reset',
  'secondFactor.policy',
  'session.end',
  // single sign-on
  'sso.configure',
  'sso.signIn',
  'sso.accessEnded',
  'sso.tokensExpired',
] as const;
export type OperationAction = (typeof OPERATION_ACTIONS)[number];
