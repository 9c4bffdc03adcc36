import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OtaDescriptionsTable, OtaFilesTable } from '../../db/schema-ota.js';
import { containsFolded } from '../../db/search.js';

export type OtaFileRecord = Selectable<OtaFilesTable>;
export type DescriptionRecord = Selectable<OtaDescriptionsTable>;

/** What a file fits, by catalog id and name. */
export interface FileFit {
  machineTypes: Array<{ id: number; name: string }>;
  versions: Array<{ id: number; name: string }>;
}

/**
 * OTA files and their descriptions. A caller reads the files of `visibleOrgs` (its organisation
 * and the ones above it) and writes only its own organisation's.
 */
export class OtaFileRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The organisation and those above it (a customer's distributor and the platform). */
  async lineage(orgId: number): Promise<number[]> {
    const out = [orgId];
    let current: number | null = orgId;
    for (let i = 0; i < 3 && current !== null; i++) {
      const row: { parent_id: number | null } | undefined = await this.db
        .selectFrom('organisations')
        .select('parent_id')
        .where('id', '=', current)
        .executeTakeFirst();
      current = row?.parent_id ?? null;
      if (current !== null) out.push(current);
    }
    return out;
  }

  async page(visibleOrgs: number[], offset: number, size: number, fileName?: string) {
    let query = this.db.selectFrom('ota_files').where('org_id', 'in', visibleOrgs);
    if (fileName) query = query.where(containsFolded('file_name', fileName));
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(size).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  find(visibleOrgs: number[], id: number): Promise<OtaFileRecord | undefined> {
    return this.db
      .selectFrom('ota_files')
      .selectAll()
      .where('org_id', 'in', visibleOrgs)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The server's own read at dispatch (the task already proved access when it was made). */
  /**
   * The machine type and display language panels reported (device side: the rollout engine's
   * chosen panels), by device id; a panel that reported no language counts as English.
   */
  async panelTraitsForPanels(
    deviceIds: number[],
  ): Promise<Map<number, { machineType: string | null; language: string }>> {
    const out = new Map<number, { machineType: string | null; language: string }>();
    if (!deviceIds.length) return out;
    const rows = await this.db
      .selectFrom('devices')
      .leftJoin('device_settings', (join) =>
        join
          .onRef('device_settings.device_id', '=', 'devices.id')
          .on('device_settings.section', '=', 'language'),
      )
      .select(['devices.id', 'devices.machine_type', 'device_settings.value'])
      .where('devices.id', 'in', deviceIds)
      .execute();
    for (const row of rows) {
      // The language section holds the code itself ("de_de"); older reports wrapped it in an object.
      const parsed: unknown = row.value ? JSON.parse(row.value) : undefined;
      const language =
        typeof parsed === 'object' && parsed !== null ? (parsed as { language?: unknown }).language : parsed;
      out.set(row.id, {
        machineType: row.machine_type,
        language: typeof language === 'string' ? language : 'en_US',
      });
    }
    return out;
  }

  findForDispatch(id: number): Promise<OtaFileRecord | undefined> {
    return this.db.selectFrom('ota_files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async fits(fileIds: number[]): Promise<Map<number, FileFit>> {
    const map = new Map<number, FileFit>();
    if (!fileIds.length) return map;
    for (const id of fileIds) map.set(id, { machineTypes: [], versions: [] });
    const [types, versions] = await Promise.all([
      this.db
        .selectFrom('ota_file_machine_types')
        .innerJoin('machine_types', 'machine_types.id', 'ota_file_machine_types.machine_type_id')
        .select(['ota_file_machine_types.file_id', 'machine_types.id', 'machine_types.name'])
        .where('ota_file_machine_types.file_id', 'in', fileIds)
        .orderBy('machine_types.name')
        .execute(),
      this.db
        .selectFrom('ota_file_versions')
        .innerJoin('ota_versions', 'ota_versions.id', 'ota_file_versions.version_id')
        .select(['ota_file_versions.file_id', 'ota_versions.id', 'ota_versions.name'])
        .where('ota_file_versions.file_id', 'in', fileIds)
        .orderBy('ota_versions.name')
        .execute(),
    ]);
    for (const t of types) map.get(t.file_id)!.machineTypes.push({ id: t.id, name: t.name });
    for (const v of versions) map.get(v.file_id)!.versions.push({ id: v.id, name: v.name });
    return map;
  }

  /** Enabled catalog entries among the ids (disabled ones are not offered). */
  async enabledMachineTypes(ids: number[]) {
    if (!ids.length) return [];
    return this.db
      .selectFrom('machine_types')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .where('enabled', '=', 1)
      .execute();
  }

  async enabledVersions(ids: number[]) {
    if (!ids.length) return [];
    return this.db
      .selectFrom('ota_versions')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .where('enabled', '=', 1)
      .execute();
  }

  machineTypeOptions() {
    return this.db
      .selectFrom('machine_types')
      .select(['id', 'name'])
      .where('enabled', '=', 1)
      .orderBy('name')
      .execute();
  }

  versionOptions() {
    return this.db
      .selectFrom('ota_versions')
      .select(['id', 'name'])
      .where('enabled', '=', 1)
      .orderBy('name')
      .execute();
  }

  machineTypeName(id: number) {
    return this.db.selectFrom('machine_types').select('name').where('id', '=', id).executeTakeFirst();
  }

  /** Inserts a file with what it fits; undefined when the organisation already has that version. */
  async insert(
    row: Insertable<OtaFilesTable>,
    machineTypeIds: number[],
    versionIds: number[],
  ): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('ota_files')
        .values(row)
        .onConflict((oc) => oc.columns(['org_id', 'ota_version']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return undefined;
      await trx
        .insertInto('ota_file_machine_types')
        .values(machineTypeIds.map((id) => ({ file_id: inserted.id, machine_type_id: id })))
        .execute();
      if (versionIds.length)
        await trx
          .insertInto('ota_file_versions')
          .values(versionIds.map((id) => ({ file_id: inserted.id, version_id: id })))
          .execute();
      return inserted.id;
    });
  }

  async update(
    orgId: number,
    id: number,
    set: { rule_id: number | null; remark: string; manifest: string; signature: string; updated_at: number },
    machineTypeIds: number[],
    versionIds: number[],
  ) {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('ota_files').set(set).where('org_id', '=', orgId).where('id', '=', id).execute();
      await trx.deleteFrom('ota_file_machine_types').where('file_id', '=', id).execute();
      await trx.deleteFrom('ota_file_versions').where('file_id', '=', id).execute();
      await trx
        .insertInto('ota_file_machine_types')
        .values(machineTypeIds.map((m) => ({ file_id: id, machine_type_id: m })))
        .execute();
      if (versionIds.length)
        await trx
          .insertInto('ota_file_versions')
          .values(versionIds.map((v) => ({ file_id: id, version_id: v })))
          .execute();
    });
  }

  async delete(orgId: number, id: number) {
    await this.db.deleteFrom('ota_files').where('org_id', '=', orgId).where('id', '=', id).execute();
  }

  ruleNames(ruleIds: number[]) {
    if (!ruleIds.length) return Promise.resolve([]);
    return this.db.selectFrom('ota_rules').select(['id', 'name']).where('id', 'in', ruleIds).execute();
  }

  ruleOfOrg(orgId: number, ruleId: number) {
    return this.db
      .selectFrom('ota_rules')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', ruleId)
      .executeTakeFirst();
  }

  // ---- descriptions ----

  async descriptionPage(fileId: number, offset: number, size: number) {
    const query = this.db.selectFrom('ota_descriptions').where('file_id', '=', fileId);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('id').limit(size).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** A description of a file of `visibleOrgs`, with its file's owner and name. */
  findDescription(visibleOrgs: number[], id: number) {
    return this.db
      .selectFrom('ota_descriptions')
      .innerJoin('ota_files', 'ota_files.id', 'ota_descriptions.file_id')
      .selectAll('ota_descriptions')
      .select(['ota_files.org_id', 'ota_files.file_name'])
      .where('ota_files.org_id', 'in', visibleOrgs)
      .where('ota_descriptions.id', '=', id)
      .executeTakeFirst();
  }

  /** Undefined when the file already has a description in that language. */
  async insertDescription(row: Insertable<OtaDescriptionsTable>): Promise<number | undefined> {
    const inserted = await this.db
      .insertInto('ota_descriptions')
      .values(row)
      .onConflict((oc) => oc.columns(['file_id', 'language']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  }

  async updateDescription(
    id: number,
    set: Partial<{
      language: string;
      text_content: string;
      remind_text: string;
      update_user: string;
      updated_at: number;
    }>,
  ) {
    await this.db.updateTable('ota_descriptions').set(set).where('id', '=', id).execute();
  }

  async deleteDescription(id: number) {
    await this.db.deleteFrom('ota_descriptions').where('id', '=', id).execute();
  }

  /** Files naming each version (as target or as from-version) and each machine type: the catalogs' reference counts. */
  async referencesOfVersions(names: string[], ids: number[]): Promise<Map<string, number>> {
    const map = new Map<string, number>();
    if (names.length) {
      const rows = await this.db
        .selectFrom('ota_files')
        .select(['ota_version', (eb) => eb.fn.countAll<number>().as('n')])
        .where('ota_version', 'in', names)
        .groupBy('ota_version')
        .execute();
      for (const r of rows) map.set(r.ota_version, Number(r.n));
    }
    if (ids.length) {
      const rows = await this.db
        .selectFrom('ota_file_versions')
        .innerJoin('ota_versions', 'ota_versions.id', 'ota_file_versions.version_id')
        .select(['ota_versions.name', (eb) => eb.fn.countAll<number>().as('n')])
        .where('ota_file_versions.version_id', 'in', ids)
        .groupBy('ota_versions.name')
        .execute();
      for (const r of rows) map.set(r.name, (map.get(r.name) ?? 0) + Number(r.n));
    }
    return map;
  }

  /** A file's fit as the device picker filters by it: machine type names and from-version names. */
  async fitNames(fileId: number) {
    const fit = (await this.fits([fileId])).get(fileId)!;
    return {
      machineTypes: fit.machineTypes.map((m) => m.name),
      fromVersions: fit.versions.map((v) => v.name),
    };
  }

  /** Count of devices reporting each version, within the organisations given (all when undefined). */
  async devicesOnVersions(names: string[], orgFilter: ReturnType<typeof sql<boolean>> | undefined) {
    const map = new Map<string, number>();
    if (!names.length) return map;
    let query = this.db
      .selectFrom('devices')
      .select(['ota_version', (eb) => eb.fn.countAll<number>().as('n')])
      .where('ota_version', 'in', names);
    if (orgFilter) query = query.where(orgFilter);
    for (const r of await query.groupBy('ota_version').execute()) map.set(r.ota_version, Number(r.n));
    return map;
  }
}
