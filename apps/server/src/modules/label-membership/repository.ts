import { sql, type Kysely, type RawBuilder } from 'kysely';
import { device } from '@panelfleet/contract';
import type { Database } from '../../db/schema.js';
import { compareVersions } from './versions.js';

type LabelFilter = device.LabelFilter;
type Predicate = RawBuilder<boolean>;

/** Labels referenced through other labels' filters are read this many levels deep, no further. */
const MAX_DEPTH = 8;
const NOTHING: Predicate = sql<boolean>`1 = 0`;
const MINUTE_MS = 60_000;

/** One label of the organisation as membership needs it: a filter, or null for listed panels. */
interface LabelDefinition {
  id: number;
  orgId: number;
  /** 'broken': a stored filter that no longer parses, which matches nothing (never every panel). */
  filter: LabelFilter | null | 'broken';
}

/** Reads a stored filter; a row whose JSON does not parse as a filter matches nothing. */
export function parseStoredFilter(json: string | null): LabelFilter | null | 'broken' {
  if (json === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return 'broken';
  }
  const parsed = device.labelFilter.safeParse(value);
  return parsed.success ? parsed.data : 'broken';
}

/**
 * Which panels are members of labels: THE one place that decides it, for labels of listed panels
 * (label_devices) and dynamic labels (a filter on the devices row, its apps and other labels)
 * alike. Every user of label membership (commands, notifications, settings, rollouts, alerts, the
 * wall view, token restrictions, label names in lists) asks it for a predicate on its devices row,
 * so a dynamic label works wherever a label does.
 *
 * Tenancy: only labels of `orgId` are read, and every predicate holds `<alias>.org_id = orgId`,
 * so a label id, a machine type or a label named in a filter never reaches another company's panels.
 */
export class LabelMembership {
  private constructor(
    private readonly orgIds: number[],
    private readonly labels: Map<number, LabelDefinition>,
    private readonly versions: string[],
    private readonly now: number,
  ) {}

  /**
   * The labels' definitions, and those their filters name, read from the database: labels of the
   * organisation, or of any of several (an alert rule over a distributor's customers).
   */
  static async load(
    db: Kysely<Database>,
    orgId: number | number[],
    labelIds: number[],
    now: number,
    extra?: LabelFilter,
  ): Promise<LabelMembership> {
    const orgIds = [...new Set(Array.isArray(orgId) ? orgId : [orgId])];
    const labels = new Map<number, LabelDefinition>();
    let wanted = [...new Set([...labelIds, ...(extra ? referencedLabels(extra) : [])])];
    for (let depth = 0; wanted.length && orgIds.length && depth < MAX_DEPTH; depth++) {
      const rows = await db
        .selectFrom('labels')
        .select(['id', 'org_id', 'filter'])
        .where('org_id', 'in', orgIds)
        .where('id', 'in', wanted)
        .execute();
      const next: number[] = [];
      for (const row of rows) {
        const filter = parseStoredFilter(row.filter);
        // Filters are checked before they are stored: one that no longer reads is damage to say out loud.
        if (filter === 'broken')
          process.emitWarning(
            `label ${row.id} (organisation ${row.org_id}): its stored filter does not read as a filter; it matches no panel`,
            {
              code: 'PANELFLEET_LABEL_FILTER',
            },
          );
        labels.set(row.id, { id: row.id, orgId: row.org_id, filter });
        if (filter && filter !== 'broken') next.push(...referencedLabels(filter));
      }
      wanted = [...new Set(next)].filter((id) => !labels.has(id));
    }
    const filters = [...labels.values()].map((l) => l.filter).concat(extra ? [extra] : []);
    const needsVersions = filters.some(
      (f) => f && f !== 'broken' && f.firmware && (f.firmware.min || f.firmware.max),
    );
    const versions = needsVersions ? await firmwareVersionsOf(db, orgIds) : [];
    return new LabelMembership(orgIds, labels, versions, now);
  }

  /** The devices row `alias` is of the organisation(s) and a member of any of the labels. */
  anyOf(alias: string, labelIds: number[]): Predicate {
    return sql<boolean>`(${this.inOrgs(alias)} AND ${this.within(alias, labelIds)})`;
  }

  /**
   * The devices row `alias` is a member of any of the labels, for a query that scopes `alias` to
   * the organisation itself (a rollout reading the panels by id ranges).
   */
  within(alias: string, labelIds: number[]): Predicate {
    const ids = [...new Set(labelIds)].filter((id) => this.labels.has(id));
    return this.union(alias, ids, []);
  }

  /** The label is one of the organisation's labels of listed panels (label_devices), not a filter. */
  isListed(labelId: number): boolean {
    return this.labels.get(labelId)?.filter === null;
  }

  /** The devices row `alias` is of the (first) organisation and matches the filter (a label being edited). */
  matches(alias: string, filter: LabelFilter): Predicate {
    const orgId = this.orgIds[0];
    if (orgId === undefined) return NOTHING;
    return sql<boolean>`(${sql.ref(`${alias}.org_id`)} = ${orgId} AND ${this.filterOf(alias, filter, orgId, [])})`;
  }

  private inOrgs(alias: string): Predicate {
    if (!this.orgIds.length) return NOTHING;
    const column = sql.ref(`${alias}.org_id`);
    return this.orgIds.length === 1
      ? sql<boolean>`${column} = ${this.orgIds[0]}`
      : sql<boolean>`${column} IN (${sql.join(this.orgIds)})`;
  }

  /** Members of any of the labels (all read, of the organisations); `stack`: the dynamic labels being expanded. */
  private union(alias: string, ids: number[], stack: number[]): Predicate {
    const listed = ids.filter((id) => this.labels.get(id)?.filter === null);
    const parts: Predicate[] = [];
    // A listed label's rows carry its company: the panel's company must be the label's.
    if (listed.length)
      parts.push(sql<boolean>`EXISTS (SELECT 1 FROM label_devices lm WHERE lm.device_id = ${sql.ref(`${alias}.id`)}
        AND lm.org_id = ${sql.ref(`${alias}.org_id`)} AND lm.label_id IN (${sql.join(listed)}))`);
    for (const id of ids) {
      const label = this.labels.get(id);
      // A label that refers back to itself through others matches nothing on that path.
      if (label?.filter && label.filter !== 'broken' && !stack.includes(id))
        parts.push(
          sql<boolean>`(${sql.ref(`${alias}.org_id`)} = ${label.orgId} AND ${this.filterOf(alias, label.filter, label.orgId, [...stack, id])})`,
        );
    }
    if (!parts.length) return NOTHING;
    return parts.length === 1 ? parts[0]! : sql<boolean>`(${sql.join(parts, sql` OR `)})`;
  }

  /** Labels a filter of `orgId` names: only that company's count (another's reads as missing). */
  private named(ids: number[], orgId: number): number[] {
    return ids.filter((id) => this.labels.get(id)?.orgId === orgId);
  }

  private filterOf(alias: string, f: LabelFilter, orgId: number, stack: number[]): Predicate {
    const col = (name: string) => sql.ref(`${alias}.${name}`);
    const all: Predicate[] = [];
    if (f.machineTypes) all.push(sql<boolean>`${col('machine_type')} IN (${sql.join(f.machineTypes)})`);
    if (f.firmware) all.push(this.firmwareOf(col('ota_version'), f.firmware));
    if (f.app) {
      const a = f.app;
      const version = [
        a.versionName !== undefined ? sql` AND da.version_name = ${a.versionName}` : sql``,
        a.minVersionCode !== undefined ? sql` AND da.version_code >= ${a.minVersionCode}` : sql``,
        a.maxVersionCode !== undefined ? sql` AND da.version_code <= ${a.maxVersionCode}` : sql``,
      ];
      all.push(sql<boolean>`EXISTS (SELECT 1 FROM device_apps da WHERE da.device_id = ${col('id')}
        AND da.org_id = ${orgId} AND da.package_name = ${a.packageName}${sql.join(version, sql``)})`);
    }
    if (f.online !== undefined) all.push(sql<boolean>`${col('online')} = ${f.online ? 1 : 0}`);
    if (f.lastSeen) {
      const since = this.now - f.lastSeen.minutes * MINUTE_MS;
      all.push(
        f.lastSeen.within === 'within'
          ? sql<boolean>`${col('last_seen_at')} > ${since}`
          : sql<boolean>`(${col('last_seen_at')} IS NULL OR ${col('last_seen_at')} <= ${since})`,
      );
    }
    if (f.region?.country) all.push(sql<boolean>`${col('geo_country')} = ${f.region.country}`);
    if (f.region?.province) all.push(sql<boolean>`${col('geo_province')} = ${f.region.province}`);
    if (f.namePattern !== undefined)
      all.push(sql<boolean>`${col('name_key')} LIKE ${likePattern(f.namePattern)} ESCAPE '!'`);
    if (f.serialPattern !== undefined)
      all.push(sql<boolean>`lower(${col('device_key')}) LIKE ${likePattern(f.serialPattern)} ESCAPE '!'`);
    for (const id of f.hasLabels ?? []) all.push(this.union(alias, this.named([id], orgId), stack));
    if (f.notLabels) all.push(sql<boolean>`NOT ${this.union(alias, this.named(f.notLabels, orgId), stack)}`);
    if (!all.length) return NOTHING;
    return sql<boolean>`(${sql.join(all, sql` AND `)})`;
  }

  /**
   * Firmware versions: the listed ones, and a range compared part by part (numbers as numbers),
   * resolved against the versions the organisation's panels report, so the database compares
   * equality only (the (org_id, ota_version) index).
   */
  private firmwareOf(column: RawBuilder<unknown>, firmware: NonNullable<LabelFilter['firmware']>): Predicate {
    const parts: Predicate[] = [];
    if (firmware.versions) parts.push(sql<boolean>`${column} IN (${sql.join(firmware.versions)})`);
    if (firmware.min !== undefined || firmware.max !== undefined) {
      const inRange = this.versions.filter(
        (v) =>
          v !== '' &&
          (firmware.min === undefined || compareVersions(v, firmware.min) >= 0) &&
          (firmware.max === undefined || compareVersions(v, firmware.max) <= 0),
      );
      parts.push(inRange.length ? sql<boolean>`${column} IN (${sql.join(inRange)})` : NOTHING);
    }
    return sql<boolean>`(${sql.join(parts, sql` AND `)})`;
  }
}

/**
 * The firmware versions the organisations' panels report, each company read as a skip scan of its
 * (org_id, ota_version) index: one seek per version (tens), where `SELECT DISTINCT` read every
 * panel's entry (900,000 of one company: most of a firmware range's count on PostgreSQL,
 * docs/benchmarks.md).
 */
async function firmwareVersionsOf(db: Kysely<Database>, orgIds: number[]): Promise<string[]> {
  const found = new Set<string>();
  for (const orgId of orgIds) {
    const rows = await sql<{ v: string }>`WITH RECURSIVE versions(v) AS (
        SELECT min(ota_version) FROM devices WHERE org_id = ${orgId}
        UNION ALL
        SELECT (SELECT min(ota_version) FROM devices WHERE org_id = ${orgId} AND ota_version > versions.v)
        FROM versions WHERE versions.v IS NOT NULL
      ) SELECT v FROM versions WHERE v IS NOT NULL`.execute(db);
    for (const row of rows.rows) found.add(row.v);
  }
  return [...found];
}

/** Label ids a filter names (has / has not). */
export function referencedLabels(filter: LabelFilter): number[] {
  return [...(filter.hasLabels ?? []), ...(filter.notLabels ?? [])];
}

/** A pattern of `*` and `?` as a lower-case LIKE pattern with `!` as its escape. */
export function likePattern(pattern: string): string {
  let out = '';
  for (const ch of pattern.toLowerCase()) {
    if (ch === '*') out += '%';
    else if (ch === '?') out += '_';
    else if (ch === '%' || ch === '_' || ch === '!') out += `!${ch}`;
    else out += ch;
  }
  return out;
}

/** Reads the membership of labels of an organisation (one read of their definitions per use). */
export const labelMembers = (
  db: Kysely<Database>,
  orgId: number | number[],
  labelIds: number[],
  now = Date.now(),
) => LabelMembership.load(db, orgId, labelIds, now);
