import type { sources } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import { pageOffset } from '../../http/access.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { OrganisationRepository } from '../organisations/repository.js';
import type { SourceRecord, SourceRepository } from './repository.js';

/** What a caller reaches: the organisations whose sources it sees, and the owner of what it adds. */
export interface SourceReach {
  /** Its own organisation and those above it, the platform left out (its sources are the catalog). */
  orgs: number[];
  /** The owner of the sources it adds and may change: its organisation, or null (the catalog) for the platform. */
  own: number | null;
}

const OWNER_OF_KIND = { platform: 'catalog', distributor: 'distributor', customer: 'company' } as const;

export const toSignalSource = (r: SourceRecord, own: number | null | undefined): sources.SignalSource => ({
  id: r.id,
  name: r.name,
  sourceKey: r.source_key,
  insertTime: r.created_at,
  owner: r.org_id === null || r.owner_kind === null ? 'catalog' : OWNER_OF_KIND[r.owner_kind],
  editable: own !== undefined && r.org_id === own,
});

/**
 * Signal source management (view sourceManage; contract calls/sources.ts says who may): the
 * catalog is the platform's; a distributor or company adds its own and changes only those. Keys
 * are unique among what the owner sees; a catalog source cannot be deleted while a machine type
 * uses it.
 */
export class SourceService {
  constructor(
    private readonly deps: {
      repository: SourceRepository;
      organisations: Pick<OrganisationRepository, 'lineage'>;
      log: OperationLog;
      clock: Clock;
    },
  ) {}

  async reachOf(caller: SessionUser): Promise<SourceReach> {
    const lineage = await this.deps.organisations.lineage(caller.orgId);
    const orgs = lineage.filter((o) => o.kind !== 'platform').map((o) => o.id);
    return { orgs, own: lineage[0]?.kind === 'platform' || !lineage.length ? null : caller.orgId };
  }

  async list(caller: SessionUser, params: { start: number; size: number; name?: string }) {
    const reach = await this.reachOf(caller);
    const { rows, total } = await this.deps.repository.page(
      reach.orgs,
      pageOffset(params.start, params.size),
      params.size,
      params.name,
    );
    return { rows: rows.map((r) => toSignalSource(r, reach.own)), total };
  }

  /** Sources the caller's organisations added (not the catalog's): the source switch offers them too. */
  async ownedInReach(caller: SessionUser): Promise<SourceRecord[]> {
    return this.deps.repository.ownedBy((await this.reachOf(caller)).orgs);
  }

  async add(
    caller: SessionUser,
    values: { name: string; sourceKey: string },
    ip: string,
  ): Promise<sources.SignalSource> {
    const reach = await this.reachOf(caller);
    if (await this.deps.repository.findVisibleByKey(reach.orgs, values.sourceKey))
      throw new Refusal('source.keyTaken', 'conflict');
    const id = await this.keyed(() =>
      this.deps.repository.insert({
        name: values.name,
        source_key: values.sourceKey,
        created_at: this.deps.clock.now(),
        org_id: reach.own,
      }),
    );
    await this.deps.log.recordBy(caller, ip, 'addSource', {
      k: 'source',
      v: { name: values.name, key: values.sourceKey },
    });
    return toSignalSource((await this.deps.repository.findVisible(reach.orgs, id))!, reach.own);
  }

  async update(
    caller: SessionUser,
    values: { id: number; name: string; sourceKey: string },
    ip: string,
  ): Promise<void> {
    const reach = await this.reachOf(caller);
    const existing = await this.owned(reach, values.id);
    const holder = await this.deps.repository.findVisibleByKey(reach.orgs, values.sourceKey);
    if (holder && holder.id !== existing.id) throw new Refusal('source.keyTaken', 'conflict');
    await this.keyed(() =>
      this.deps.repository.update(existing.id, { name: values.name, source_key: values.sourceKey }),
    );
    await this.deps.log.recordBy(caller, ip, 'updateSource', {
      k: 'sourceChanged',
      v: { old: existing.name, oldKey: existing.source_key, name: values.name, key: values.sourceKey },
    });
  }

  async delete(caller: SessionUser, id: number, ip: string): Promise<void> {
    const existing = await this.owned(await this.reachOf(caller), id);
    const users = await this.deps.repository.machineTypesUsing(existing.id);
    if (users.length) throw new Refusal('source.inUse', 'conflict', { names: users.join(', ') });
    try {
      await this.deps.repository.delete(existing.id);
    } catch (error) {
      // A machine type took the source between the check and the delete.
      if (isForeignKeyViolation(error))
        throw new Refusal('source.inUse', 'conflict', {
          names: (await this.deps.repository.machineTypesUsing(existing.id)).join(', '),
        });
      throw error;
    }
    await this.deps.log.recordBy(caller, ip, 'deleteSource', {
      k: 'source',
      v: { name: existing.name, key: existing.source_key },
    });
  }

  /** A source the caller sees and its organisation keeps; another tenant's reads as missing. */
  private async owned(reach: SourceReach, id: number): Promise<SourceRecord> {
    const row = await this.deps.repository.findVisible(reach.orgs, id);
    if (!row) throw new Refusal('source.notFound', 'notFound');
    if (row.org_id !== reach.own) throw new Refusal('source.notOwner', 'forbidden');
    return row;
  }

  /** Two writers racing for one key: the unique index decides, and the loser hears why. */
  private async keyed<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new Refusal('source.keyTaken', 'conflict');
      throw error;
    }
  }
}
