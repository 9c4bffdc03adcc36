import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/**
 * The APK versions as installs and the dispatch read them (a version, the newest of packages,
 * what a panel is installing or reports); the rest of the APK repository extends it.
 */
export class ApkVersionQueries {
  constructor(
    protected readonly db: Kysely<Database>,
    protected readonly dialect: Dialect,
  ) {}

  version(orgId: number, id: number) {
    return this.db
      .selectFrom('apk_versions')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The apps of a package the panels reported, with their signers (an install's dispatch). */
  installedAppsForPanels(packageName: string, deviceIds: number[]) {
    if (!deviceIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('device_apps')
      .select(['device_id', 'signer_sha256'])
      .where('package_name', '=', packageName)
      .where('device_id', 'in', deviceIds)
      .execute();
  }

  /** The server's own read at dispatch: a version with its card's package. */
  findForDispatch(id: number) {
    return this.db
      .selectFrom('apk_versions')
      .innerJoin('apk_marks', 'apk_marks.id', 'apk_versions.mark_id')
      .selectAll('apk_versions')
      .select('apk_marks.package_name')
      .where('apk_versions.id', '=', id)
      .executeTakeFirst();
  }

  /**
   * A version for an install task about to be made in this (bound) transaction: the card's row
   * is locked first (PostgreSQL: FOR UPDATE; SQLite runs one transaction at a time), then the
   * version is read again. A delete of the version waits for the task, or the task sees the
   * version gone: "a version in use is not deleted" holds under concurrency.
   */
  async lockVersionForInstall(orgId: number, versionId: number) {
    let lock = this.db
      .selectFrom('apk_marks')
      .select(['id', 'package_name'])
      .where('org_id', '=', orgId)
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('apk_versions')
          .select('mark_id')
          .where('id', '=', versionId)
          .where('org_id', '=', orgId),
      );
    if (this.dialect === 'postgres') lock = lock.forUpdate();
    const card = await lock.executeTakeFirst();
    if (!card) return undefined;
    const version = await this.version(orgId, versionId);
    return version && version.mark_id === card.id
      ? { ...version, package_name: card.package_name }
      : undefined;
  }

  /**
   * The newest version (highest versionCode) the organisation's repository holds of each
   * package, with the card's signer.
   */
  async newestVersions(orgId: number, packageNames: string[]) {
    const out = new Map<
      string,
      { versionId: number; versionName: string; versionCode: number; signerSha256: string }
    >();
    for (let i = 0; i < packageNames.length; i += 500) {
      const part = packageNames.slice(i, i + 500);
      const rows = await this.db
        .selectFrom('apk_marks as m')
        .innerJoin('apk_versions as v', 'v.mark_id', 'm.id')
        .select(['m.package_name', 'm.signer_sha256', 'v.id', 'v.version_name', 'v.version_code'])
        .where('m.org_id', '=', orgId)
        .where('m.package_name', 'in', part)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('apk_versions as w')
                .select('w.id')
                .whereRef('w.mark_id', '=', 'v.mark_id')
                .whereRef('w.version_code', '>', 'v.version_code'),
            ),
          ),
        )
        .execute();
      for (const r of rows)
        out.set(r.package_name, {
          versionId: r.id,
          versionName: r.version_name,
          versionCode: Number(r.version_code),
          signerSha256: r.signer_sha256,
        });
    }
    return out;
  }

  /** Packages with an install to this panel on its way (an unfinished row of an open apk task). */
  async installingPackages(orgId: number, deviceId: number): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('rollout_targets as t')
      .innerJoin('rollout_tasks as k', 'k.id', 't.task_id')
      .innerJoin('apk_versions as v', 'v.id', 'k.payload_id')
      .innerJoin('apk_marks as m', 'm.id', 'v.mark_id')
      .select('m.package_name')
      .where('t.org_id', '=', orgId)
      .where('t.device_id', '=', deviceId)
      .where('k.kind', '=', 'apk')
      .where('k.state', 'in', ['scheduled', 'running', 'paused'])
      .where('t.state', 'in', ['queued', 'waiting', 'sent', 'downloading', 'verifying', 'installing'])
      .execute();
    return new Set(rows.map((r) => r.package_name));
  }

  /** The versionName of a package each panel reports now. */
  async reportedVersions(orgId: number, deviceIds: number[], packageName: string) {
    if (!deviceIds.length) return new Map<number, string>();
    const rows = await this.db
      .selectFrom('device_apps')
      .select(['device_id', 'version_name'])
      .where('org_id', '=', orgId)
      .where('package_name', '=', packageName)
      .where('device_id', 'in', deviceIds)
      .execute();
    return new Map(rows.map((r) => [r.device_id, r.version_name]));
  }

  /** How many of `ids` are panels of the organisation. */
  async ownedDeviceCount(orgId: number, ids: number[]) {
    const row = await this.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('org_id', '=', orgId)
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
