import { tips } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { ReminderRepository, TipRepository } from './repository.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';

interface Deps {
  tips: TipRepository;
  reminders: ReminderRepository;
  log: OperationLog;
  clock: Clock;
}

type TipValues = { tipsCode: string; message: string; language: string };

/**
 * The reminder languages to try for a panel's language, best first: the same code in any case
 * (zh_cn -> zh_CN; zh-CN too), then the first code of the same language (de -> de_DE), then
 * English.
 */
export function reminderLanguages(panelLanguage: string): string[] {
  const wanted = panelLanguage.trim().replace('-', '_').toLowerCase();
  const base = wanted.split('_')[0] ?? '';
  const exact = tips.REMINDER_LANGUAGES.filter((code) => code.toLowerCase() === wanted);
  const sameLanguage = tips.REMINDER_LANGUAGES.filter((code) => code.toLowerCase().split('_')[0] === base);
  return [...new Set([...exact, ...sameLanguage, 'en_US'])];
}

/** Error tips (spec 3 section 2.9) and reminders (section 2.10): the deployment's catalogues. */
export class TipService {
  constructor(private readonly deps: Deps) {}

  async listTips(params: { start: number; size: number; tipsCode?: string }) {
    const { rows, total } = await this.deps.tips.page(
      pageOffset(params.start, params.size),
      params.size,
      params.tipsCode,
    );
    return {
      total,
      rows: rows.map((r): tips.ErrorTip => ({
        id: r.id,
        tipsCode: r.tips_code,
        message: r.message,
        language: r.language as tips.ErrorTip['language'],
        updateMan: r.update_man,
        updateDate: Number(r.updated_at),
      })),
    };
  }

  async addTip(caller: SessionUser, values: TipValues, ip: string) {
    const id = await this.deps.tips.insert({
      tips_code: values.tipsCode,
      language: values.language,
      message: values.message,
      update_man: caller.userName,
      at: this.deps.clock.now(),
    });
    if (id === undefined) throw new Refusal('errorTips.duplicate', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'addTips', {
      k: 'tip',
      v: { code: values.tipsCode, language: values.language },
    });
    return id;
  }

  async updateTip(caller: SessionUser, id: number, values: TipValues, ip: string) {
    if (!(await this.deps.tips.find(id))) throw new Refusal('errorTips.notFound', 'notFound');
    const changed = await this.deps.tips
      .update(id, {
        tips_code: values.tipsCode,
        language: values.language,
        message: values.message,
        update_man: caller.userName,
        at: this.deps.clock.now(),
      })
      .catch(uniqueAs('errorTips.duplicate'));
    if (!changed) throw new Refusal('errorTips.notFound', 'notFound');
    await this.deps.log.recordBy(caller, ip, 'updateTips', {
      k: 'tip',
      v: { code: values.tipsCode, language: values.language },
    });
  }

  async deleteTip(caller: SessionUser, id: number, ip: string) {
    const found = await this.deps.tips.find(id);
    if (!found || !(await this.deps.tips.remove(id))) throw new Refusal('errorTips.notFound', 'notFound');
    await this.deps.log.recordBy(caller, ip, 'deleteTips', {
      k: 'tip',
      v: { code: found.tips_code, language: found.language },
    });
  }

  /** The tips of error codes in the operator's language (codes without a tip are absent). */
  tipsFor(codes: string[], language: string) {
    return this.deps.tips.messages([...new Set(codes.filter(Boolean))], language);
  }

  /**
   * Whose reminders the caller reads: its own organisation's (the platform, a distributor), or,
   * for a customer manager, those that reach its company's panels. Only the owner changes them.
   */
  private readable(caller: SessionUser): Promise<number[]> {
    return caller.userType === '3'
      ? this.deps.reminders.reachingOrgs(caller.orgId)
      : Promise.resolve([caller.orgId]);
  }

  async listWarnings(caller: SessionUser, params: { start: number; size: number; machineType?: string }) {
    const { rows, total } = await this.deps.reminders.page(
      await this.readable(caller),
      pageOffset(params.start, params.size),
      params.size,
      params.machineType,
    );
    const languages = await this.deps.reminders.languagesOf(rows.map((r) => r.id));
    return {
      total,
      rows: rows.map((r): tips.Warning => ({
        warningId: r.id,
        machineType: r.machine_type,
        otaVersion: r.ota_version,
        remark: r.remark,
        createMan: r.create_man,
        creationDate: Number(r.created_at),
        languages: languages.get(r.id) ?? [],
      })),
    };
  }

  async addWarning(
    caller: SessionUser,
    values: { machineType: string; otaVersion: string; remark: string },
    ip: string,
  ) {
    const id = await this.deps.reminders.insert({
      org_id: caller.orgId,
      machine_type: values.machineType,
      ota_version: values.otaVersion,
      remark: values.remark,
      create_man: caller.userName,
      created_at: this.deps.clock.now(),
    });
    if (id === undefined) throw new Refusal('warning.duplicate', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'addWarning', {
      k: 'reminder',
      v: { machineType: values.machineType, version: values.otaVersion },
    });
    return id;
  }

  private async warning(orgIds: number[], id: number) {
    const found = await this.deps.reminders.find(orgIds, id);
    if (!found) throw new Refusal('warning.notFound', 'notFound');
    return found;
  }

  async updateWarning(
    caller: SessionUser,
    id: number,
    values: { machineType: string; otaVersion: string; remark: string },
    ip: string,
  ) {
    await this.warning([caller.orgId], id);
    const changed = await this.deps.reminders
      .update(caller.orgId, id, {
        machine_type: values.machineType,
        ota_version: values.otaVersion,
        remark: values.remark,
      })
      .catch(uniqueAs('warning.duplicate'));
    if (!changed) throw new Refusal('warning.notFound', 'notFound');
    await this.deps.log.recordBy(caller, ip, 'updateWarning', {
      k: 'reminder',
      v: { machineType: values.machineType, version: values.otaVersion },
    });
  }

  async deleteWarning(caller: SessionUser, id: number, ip: string) {
    const found = await this.warning([caller.orgId], id);
    if (!(await this.deps.reminders.remove(caller.orgId, id)))
      throw new Refusal('warning.notFound', 'notFound');
    await this.deps.log.recordBy(caller, ip, 'deleteWarning', {
      k: 'reminder',
      v: { machineType: found.machine_type, version: found.ota_version },
    });
  }

  async listMessages(caller: SessionUser, params: { warningId: number; start: number; size: number }) {
    await this.warning(await this.readable(caller), params.warningId);
    const { rows, total } = await this.deps.reminders.messagePage(
      params.warningId,
      pageOffset(params.start, params.size),
      params.size,
    );
    return {
      total,
      rows: rows.map((r): tips.WarningMessage => ({
        warningMessageId: r.id,
        warningId: r.warning_id,
        message: r.message,
        language: r.language,
        creationDate: Number(r.created_at),
      })),
    };
  }

  async addMessage(
    caller: SessionUser,
    values: { warningId: number; language: string; message: string },
    ip: string,
  ) {
    const found = await this.warning([caller.orgId], values.warningId);
    const id = await this.deps.reminders
      .insertMessage({
        warning_id: values.warningId,
        language: values.language,
        message: values.message,
        created_at: this.deps.clock.now(),
      })
      // Deleted in between: its messages went with it.
      .catch(foreignKeyAs('warning.notFound'));
    if (id === undefined) throw new Refusal('warning.messageDuplicate', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'addWarningMessage', {
      k: 'reminderMessage',
      v: { machineType: found.machine_type, version: found.ota_version, language: values.language },
    });
    return id;
  }

  async updateMessage(
    caller: SessionUser,
    id: number,
    values: { language: string; message: string },
    ip: string,
  ) {
    const found = await this.ownMessage(caller, id);
    // Spec 3 section 5: the language is locked when editing.
    if (found.language !== values.language) throw new Refusal('warning.languageLocked', 'invalid');
    if (!(await this.deps.reminders.updateMessage(id, values.message)))
      throw new Refusal('warning.messageNotFound', 'notFound');
    await this.deps.log.recordBy(
      caller,
      ip,
      'updateWarningMessage',
      await this.messageContent(caller, found),
    );
  }

  async deleteMessage(caller: SessionUser, id: number, ip: string) {
    const found = await this.ownMessage(caller, id);
    if (!(await this.deps.reminders.removeMessage(id)))
      throw new Refusal('warning.messageNotFound', 'notFound');
    await this.deps.log.recordBy(
      caller,
      ip,
      'deleteWarningMessage',
      await this.messageContent(caller, found),
    );
  }

  /** A message of one of the caller's own reminders; another owner's reads as missing. */
  private async ownMessage(caller: SessionUser, id: number) {
    const found = await this.deps.reminders.findMessage(id);
    if (!found || !(await this.deps.reminders.find([caller.orgId], found.warning_id)))
      throw new Refusal('warning.messageNotFound', 'notFound');
    return found;
  }

  /** A reminder message as the log names it: its reminder's machine type and version, and its language. */
  private async messageContent(caller: SessionUser, message: { warning_id: number; language: string }) {
    const reminder = await this.deps.reminders.find([caller.orgId], message.warning_id);
    return {
      k: 'reminderMessage',
      v: {
        machineType: reminder?.machine_type ?? '',
        version: reminder?.ota_version ?? '',
        language: message.language,
      },
    };
  }

  /**
   * The reminder a panel shows before installing an OTA (for the OTA dispatch): the message of
   * the reminder of its machine type and the OTA's version, in the panel's language or the
   * nearest one configured (reminderLanguages); undefined when there is none.
   */
  async reminderFor(
    companyOrgId: number,
    machineType: string,
    otaVersion: string,
    panelLanguage: string,
  ): Promise<string | undefined> {
    const found = await this.deps.reminders.messageFor(
      companyOrgId,
      machineType,
      otaVersion,
      reminderLanguages(panelLanguage),
    );
    return found?.message;
  }
}

const uniqueAs = (key: string) => (err: unknown) => {
  if (isUniqueViolation(err)) throw new Refusal(key, 'conflict');
  throw err;
};
const foreignKeyAs = (key: string) => (err: unknown) => {
  if (isForeignKeyViolation(err)) throw new Refusal(key, 'notFound');
  throw err;
};
