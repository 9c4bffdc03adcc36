import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';

/** The error-tip catalogue (deployment-wide: no org_id). */
export class TipRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(offset: number, size: number, code?: string) {
    let query = this.db.selectFrom('error_tips');
    if (code) query = query.where(containsFolded('tips_code', code));
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('tips_code').orderBy('language').limit(size).offset(offset).execute(),
      query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  find(id: number) {
    return this.db.selectFrom('error_tips').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Inserts unless the code already has a tip in that language (undefined then). */
  async insert(values: {
    tips_code: string;
    language: string;
    message: string;
    update_man: string;
    at: number;
  }) {
    const row = await this.db
      .insertInto('error_tips')
      .values({
        tips_code: values.tips_code,
        language: values.language,
        message: values.message,
        update_man: values.update_man,
        created_at: values.at,
        updated_at: values.at,
      })
      .onConflict((oc) => oc.columns(['tips_code', 'language']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  async update(
    id: number,
    values: { tips_code: string; language: string; message: string; update_man: string; at: number },
  ) {
    const result = await this.db
      .updateTable('error_tips')
      .set({
        tips_code: values.tips_code,
        language: values.language,
        message: values.message,
        update_man: values.update_man,
        updated_at: values.at,
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async remove(id: number) {
    const result = await this.db.deleteFrom('error_tips').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The tips of some codes in one language. */
  async messages(codes: string[], language: string): Promise<Map<string, string>> {
    if (!codes.length) return new Map();
    const rows = await this.db
      .selectFrom('error_tips')
      .select(['tips_code', 'message'])
      .where('tips_code', 'in', codes)
      .where('language', '=', language)
      .execute();
    return new Map(rows.map((r) => [r.tips_code, r.message]));
  }
}

/** Reminders and their per-language messages (deployment-wide). */
export class ReminderRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The platform's organisation (the demo's reminder is the platform's). */
  async platformOrgId(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('organisations')
      .select('id')
      .where('kind', '=', 'platform')
      .orderBy('id')
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * The organisations whose reminders reach a company's panels: the platform's, and its
   * distributor's (the company's parent).
   */
  async reachingOrgs(companyOrgId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('organisations')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('kind', '=', 'platform'),
          eb(
            'id',
            '=',
            eb.selectFrom('organisations as c').select('c.parent_id').where('c.id', '=', companyOrgId),
          ),
        ]),
      )
      .execute();
    return rows.map((r) => r.id);
  }

  async page(orgIds: number[], offset: number, size: number, machineType?: string) {
    let query = this.db.selectFrom('warnings').where('org_id', 'in', orgIds.length ? orgIds : [-1]);
    if (machineType) query = query.where(containsFolded('machine_type', machineType));
    const [rows, total] = await Promise.all([
      query
        .selectAll()
        .orderBy('machine_type')
        .orderBy('ota_version')
        .orderBy('id')
        .limit(size)
        .offset(offset)
        .execute(),
      query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  async languagesOf(ids: number[]): Promise<Map<number, string[]>> {
    const map = new Map<number, string[]>();
    if (!ids.length) return map;
    const rows = await this.db
      .selectFrom('warning_messages')
      .select(['warning_id', 'language'])
      .where('warning_id', 'in', ids)
      .orderBy('language')
      .execute();
    for (const r of rows) map.set(r.warning_id, [...(map.get(r.warning_id) ?? []), r.language]);
    return map;
  }

  find(orgIds: number[], id: number) {
    return this.db
      .selectFrom('warnings')
      .selectAll()
      .where('org_id', 'in', orgIds.length ? orgIds : [-1])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async insert(values: {
    org_id: number;
    machine_type: string;
    ota_version: string;
    remark: string;
    create_man: string;
    created_at: number;
  }) {
    const row = await this.db
      .insertInto('warnings')
      .values(values)
      .onConflict((oc) => oc.columns(['org_id', 'machine_type', 'ota_version']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  async update(
    orgId: number,
    id: number,
    values: { machine_type: string; ota_version: string; remark: string },
  ) {
    const result = await this.db
      .updateTable('warnings')
      .set(values)
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes a reminder and its messages together. */
  async remove(orgId: number, id: number) {
    return this.db.transaction().execute(async (trx) => {
      const owned = await trx
        .selectFrom('warnings')
        .select('id')
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!owned) return false;
      await trx.deleteFrom('warning_messages').where('warning_id', '=', id).execute();
      const result = await trx.deleteFrom('warnings').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  async messagePage(warningId: number, offset: number, size: number) {
    const query = this.db.selectFrom('warning_messages').where('warning_id', '=', warningId);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('language').limit(size).offset(offset).execute(),
      query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  findMessage(id: number) {
    return this.db.selectFrom('warning_messages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Inserts unless the reminder has a message in that language (undefined then); false warning id throws a foreign-key error. */
  async insertMessage(values: { warning_id: number; language: string; message: string; created_at: number }) {
    const row = await this.db
      .insertInto('warning_messages')
      .values(values)
      .onConflict((oc) => oc.columns(['warning_id', 'language']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  async updateMessage(id: number, message: string) {
    const result = await this.db
      .updateTable('warning_messages')
      .set({ message })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async removeMessage(id: number) {
    const result = await this.db.deleteFrom('warning_messages').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * The message of the reminder of a machine type and version that reaches a company's panels, in
   * one of the languages, first found first: its distributor's reminder before the platform's.
   */
  async messageFor(companyOrgId: number, machineType: string, otaVersion: string, languages: string[]) {
    const reaching = await this.reachingOrgs(companyOrgId);
    if (!reaching.length) return undefined;
    const rows = await this.db
      .selectFrom('warning_messages as m')
      .innerJoin('warnings as w', 'w.id', 'm.warning_id')
      .innerJoin('organisations as o', 'o.id', 'w.org_id')
      .select(['m.language', 'm.message', 'o.kind'])
      .where('w.org_id', 'in', reaching)
      .where('w.machine_type', '=', machineType)
      .where('w.ota_version', '=', otaVersion)
      .where('m.language', 'in', languages)
      .execute();
    for (const kind of ['distributor', 'platform'])
      for (const language of languages) {
        const found = rows.find((r) => r.kind === kind && r.language === language);
        if (found) return { language: found.language, message: found.message };
      }
    return undefined;
  }
}
