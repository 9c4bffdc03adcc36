import type { Insertable, Selectable } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import { containsFolded } from '../../db/search.js';
import { ApkVersionQueries } from './install-repository.js';
import type { ApkFileSubsTable, ApkMarksTable, ApkVersionsTable } from '../../db/schema-apk.js';

export type ApkMarkRecord = Selectable<ApkMarksTable>;
export type ApkVersionRecord = Selectable<ApkVersionsTable>;
export type ApkFileSubRecord = Selectable<ApkFileSubsTable>;

/** What a card lists: the card with its latest version (the newest upload). */
export type CardRow = ApkMarkRecord & {
  latest_id: number;
  version_name: string;
  version_code: number;
  file_size: number;
  icon_path: string;
  version_date: number;
  version_count: number;
};

/** Why a version could not be added to its card (the service turns these into refusals). */
export type AddVersionOutcome =
  | { ok: true; id: number }
  | { ok: false; reason: 'cardGone' }
  | { ok: false; reason: 'packageDiffers'; expected: string }
  | { ok: false; reason: 'signerDiffers' }
  | { ok: false; reason: 'versionNotHigher'; latest: number }
  | { ok: false; reason: 'versionTaken' };

/** All SQL of the APK repository; every read is scoped by the caller's organisation. */
export class ApkRepository extends ApkVersionQueries {
  private latestOf(markIds: number[]) {
    if (!markIds.length) return Promise.resolve([] as ApkVersionRecord[]);
    return this.db
      .selectFrom('apk_versions as v')
      .selectAll('v')
      .where('v.mark_id', 'in', markIds)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('apk_versions as w')
              .select('w.id')
              .whereRef('w.mark_id', '=', 'v.mark_id')
              .whereRef('w.id', '>', 'v.id'),
          ),
        ),
      )
      .execute();
  }

  private async cards(marks: ApkMarkRecord[]): Promise<CardRow[]> {
    const ids = marks.map((m) => m.id);
    const [latest, counts] = await Promise.all([
      this.latestOf(ids),
      ids.length
        ? this.db
            .selectFrom('apk_versions')
            .select(['mark_id', (eb) => eb.fn.countAll<number | string>().as('n')])
            .where('mark_id', 'in', ids)
            .groupBy('mark_id')
            .execute()
        : Promise.resolve([]),
    ]);
    const byMark = new Map(latest.map((v) => [v.mark_id, v]));
    const countOf = new Map(counts.map((c) => [c.mark_id, Number(c.n)]));
    return marks.flatMap((m) => {
      const v = byMark.get(m.id);
      if (!v) return [];
      return [
        {
          ...m,
          latest_id: v.id,
          version_name: v.version_name,
          version_code: Number(v.version_code),
          file_size: Number(v.file_size),
          icon_path: v.icon_path,
          version_date: Number(v.created_at),
          version_count: countOf.get(m.id) ?? 0,
        },
      ];
    });
  }

  async page(orgId: number, offset: number, size: number, label?: string) {
    let q = this.db.selectFrom('apk_marks').where('org_id', '=', orgId);
    if (label) q = q.where(containsFolded('label', label));
    const [rows, total] = await Promise.all([
      q.selectAll().orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(size).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: await this.cards(rows), total: Number(total.n) };
  }

  async card(orgId: number, id: number): Promise<CardRow | undefined> {
    const mark = await this.db
      .selectFrom('apk_marks')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return mark ? (await this.cards([mark]))[0] : undefined;
  }

  async versions(orgId: number, markId: number, offset: number, size: number) {
    const q = this.db.selectFrom('apk_versions').where('org_id', '=', orgId).where('mark_id', '=', markId);
    const [rows, total] = await Promise.all([
      q.selectAll().orderBy('id', 'desc').limit(size).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const subs = rows.length
      ? await this.db
          .selectFrom('apk_file_subs')
          .selectAll()
          .where(
            'version_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('id')
          .execute()
      : [];
    return { rows, subs, total: Number(total.n) };
  }

  sub(orgId: number, id: number) {
    return this.db
      .selectFrom('apk_file_subs')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** A card and its first version together; undefined when the package has a card already. */
  async insertCard(
    mark: Insertable<ApkMarksTable>,
    version: Omit<Insertable<ApkVersionsTable>, 'mark_id'>,
  ): Promise<{ markId: number; versionId: number } | undefined> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const m = await trx.insertInto('apk_marks').values(mark).returning('id').executeTakeFirstOrThrow();
        const v = await trx
          .insertInto('apk_versions')
          .values({ ...version, mark_id: m.id })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { markId: m.id, versionId: v.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) return undefined;
      throw err;
    }
  }

  /**
   * A new version of a card, checked against its latest version inside one transaction that
   * holds the card's row (PostgreSQL: FOR UPDATE; SQLite runs one transaction at a time), so
   * two uploads at once are judged one after the other.
   */
  async addVersion(
    orgId: number,
    markId: number,
    version: Omit<Insertable<ApkVersionsTable>, 'mark_id' | 'org_id'>,
    packageName: string,
    allowDowngrade: boolean,
    now: number,
  ): Promise<AddVersionOutcome> {
    try {
      return await this.db.transaction().execute(async (trx): Promise<AddVersionOutcome> => {
        let lock = trx
          .selectFrom('apk_marks')
          .selectAll()
          .where('org_id', '=', orgId)
          .where('id', '=', markId);
        if (this.dialect === 'postgres') lock = lock.forUpdate();
        const mark = await lock.executeTakeFirst();
        if (!mark) return { ok: false, reason: 'cardGone' };
        if (mark.package_name !== packageName)
          return { ok: false, reason: 'packageDiffers', expected: mark.package_name };
        if (mark.signer_sha256 !== version.signer_sha256) return { ok: false, reason: 'signerDiffers' };
        const latest = await trx
          .selectFrom('apk_versions')
          .select(['version_code'])
          .where('mark_id', '=', markId)
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst();
        const latestCode = latest ? Number(latest.version_code) : -1;
        const code = Number(version.version_code);
        if (code <= latestCode && !allowDowngrade)
          return { ok: false, reason: 'versionNotHigher', latest: latestCode };
        const v = await trx
          .insertInto('apk_versions')
          .values({ ...version, mark_id: markId, org_id: orgId, downgrade: code <= latestCode ? 1 : 0 })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('apk_marks')
          .set({ label: version.label, updated_at: now })
          .where('id', '=', markId)
          .execute();
        return { ok: true, id: v.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) return { ok: false, reason: 'versionTaken' };
      throw err;
    }
  }

  async insertSub(row: Insertable<ApkFileSubsTable>) {
    const r = await this.db.insertInto('apk_file_subs').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  async deleteSub(orgId: number, id: number) {
    const r = await this.db
      .deleteFrom('apk_file_subs')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async updateRemark(orgId: number, id: number, remark: string) {
    await this.db
      .updateTable('apk_versions')
      .set({ remark })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
  }

  /**
   * Deletes a version with its auxiliary apps, and the card when it was the last, under the
   * card's lock: two deletes of a card's last two versions at once leave no empty card. Answers
   * the files to remove (undefined when the version is gone already).
   */
  async deleteVersion(
    orgId: number,
    id: number,
  ): Promise<{ files: string[]; cardDeleted: boolean; open: number } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const version = await trx
        .selectFrom('apk_versions')
        .select(['id', 'mark_id', 'stored_path', 'icon_path'])
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!version) return undefined;
      let lock = trx.selectFrom('apk_marks').select('id').where('id', '=', version.mark_id);
      if (this.dialect === 'postgres') lock = lock.forUpdate();
      if (!(await lock.executeTakeFirst())) return undefined;
      // Unfinished install tasks (rollouts of kind apk) of this version keep it.
      const tasks = await trx
        .selectFrom('rollout_tasks')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('kind', '=', 'apk')
        .where('payload_id', '=', id)
        .where('state', 'in', ['scheduled', 'running', 'paused'])
        .executeTakeFirstOrThrow();
      const open = Number(tasks.n);
      if (open) return { files: [], cardDeleted: false, open };
      const subs = await trx
        .selectFrom('apk_file_subs')
        .select(['stored_path', 'icon_path'])
        .where('version_id', '=', id)
        .execute();
      const gone = await trx.deleteFrom('apk_versions').where('id', '=', id).executeTakeFirst();
      if (!Number(gone.numDeletedRows)) return undefined;
      const left = await trx
        .selectFrom('apk_versions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('mark_id', '=', version.mark_id)
        .executeTakeFirstOrThrow();
      const cardDeleted = Number(left.n) === 0;
      if (cardDeleted) await trx.deleteFrom('apk_marks').where('id', '=', version.mark_id).execute();
      const files = [
        version.stored_path,
        version.icon_path,
        ...subs.flatMap((s) => [s.stored_path, s.icon_path]),
      ];
      return { files: files.filter((f) => f !== ''), cardDeleted, open: 0 };
    });
  }
}
