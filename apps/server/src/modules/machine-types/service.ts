import { oplog, type machineTypes } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import { pageOffset } from '../../http/access.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import { toSignalSource } from '../sources/service.js';
import type { SourceRepository } from '../sources/repository.js';
import type { SourceService } from '../sources/service.js';
import { referenceScope } from './policy.js';
import type { MachineTypeRecord, MachineTypeRepository } from './repository.js';

interface MachineTypeValues {
  machineType: string;
  enable: '1' | '0';
  inputSourceIds: number[];
}

/**
 * Machine types with their input sources (spec 3 section 2.5). A machine type that devices
 * refer to keeps its name (devices match it by name) and its state, and cannot be deleted.
 */
export class MachineTypeService {
  constructor(
    private readonly deps: {
      repository: MachineTypeRepository;
      sources: SourceRepository;
      /** The sources the caller's organisations added, which its panels' source switch offers too. */
      ownSources: Pick<SourceService, 'ownedInReach'>;
      log: OperationLog;
      clock: Clock;
    },
  ) {}

  async list(caller: SessionUser, params: { start: number; size: number; machineType?: string }) {
    const { rows, total } = await this.deps.repository.page(
      pageOffset(params.start, params.size),
      params.size,
      params.machineType,
    );
    return { rows: await this.describe(caller, rows), total };
  }

  async one(caller: SessionUser, id: number): Promise<machineTypes.MachineType> {
    const [row] = await this.describe(caller, [await this.find(id)]);
    return row!;
  }

  /** The catalog's sources, which machine types draw their inputs from (the platform edits them). */
  async inputSources(caller: SessionUser) {
    const own = caller.userType === '0' ? null : undefined;
    return (await this.deps.sources.catalog()).map((r) => toSignalSource(r, own));
  }

  /**
   * The source switch's options for a panel of this machine type: its inputs in their order, then
   * the sources the caller's company and distributor added, unless a key is already offered.
   */
  async sourceOptions(caller: SessionUser, id: number) {
    const found = await this.find(id);
    const options = (await this.deps.repository.sourceOptions(found.id)).map((r) => ({
      name: r.name,
      sourceKey: r.source_key,
    }));
    const offered = new Set(options.map((o) => o.sourceKey));
    for (const extra of await this.deps.ownSources.ownedInReach(caller)) {
      if (offered.has(extra.source_key)) continue;
      offered.add(extra.source_key);
      options.push({ name: extra.name, sourceKey: extra.source_key });
    }
    return options;
  }

  async add(caller: SessionUser, values: MachineTypeValues, ip: string): Promise<number> {
    if (await this.deps.repository.findByName(values.machineType))
      throw new Refusal('machineType.nameTaken', 'conflict');
    await this.requireSources(values.inputSourceIds);
    const now = this.deps.clock.now();
    const id = await this.guarded(() =>
      this.deps.repository.insert(
        {
          name: values.machineType,
          enabled: Number(values.enable),
          create_man: caller.userName,
          created_at: now,
          updated_at: now,
        },
        values.inputSourceIds,
      ),
    );
    await this.deps.log.recordBy(caller, ip, 'addMachineType', {
      k: 'machineType',
      v: { name: values.machineType, sources: oplog.counted('inputSource', values.inputSourceIds.length) },
    });
    return id;
  }

  async update(caller: SessionUser, id: number, values: MachineTypeValues, ip: string): Promise<void> {
    const existing = await this.find(id);
    const enabled = Number(values.enable);
    if (values.machineType !== existing.name || enabled !== existing.enabled) {
      const references = await this.references(existing.name);
      if (references) throw new Refusal('machineType.locked', 'conflict', { count: references });
    }
    const holder = await this.deps.repository.findByName(values.machineType);
    if (holder && holder.id !== existing.id) throw new Refusal('machineType.nameTaken', 'conflict');
    await this.requireSources(values.inputSourceIds);
    await this.guarded(() =>
      this.deps.repository.update(
        existing.id,
        { name: values.machineType, enabled, updated_at: this.deps.clock.now() },
        values.inputSourceIds,
      ),
    );
    await this.deps.log.recordBy(caller, ip, 'updateMachineType', {
      k: 'machineTypeChanged',
      v: {
        old: existing.name,
        name: values.machineType,
        state: oplog.term(enabled === 1 ? 'state.enabled' : 'state.disabled'),
        sources: oplog.counted('inputSource', values.inputSourceIds.length),
      },
    });
  }

  async delete(caller: SessionUser, id: number, ip: string): Promise<void> {
    const existing = await this.find(id);
    const references = await this.references(existing.name);
    if (references) throw new Refusal('machineType.inUse', 'conflict', { count: references });
    await this.deps.repository.delete(existing.id);
    await this.deps.log.recordBy(caller, ip, 'deleteMachineType', {
      k: 'name',
      v: { name: existing.name },
    });
  }

  /** Every reference, whoever owns it: the lock does not depend on who asks. */
  private async references(name: string): Promise<number> {
    return (await this.deps.repository.referenceCounts([name], { kind: 'all' })).get(name) ?? 0;
  }

  private async describe(
    caller: SessionUser,
    rows: MachineTypeRecord[],
  ): Promise<machineTypes.MachineType[]> {
    const [sources, counts] = await Promise.all([
      this.deps.repository.sourcesOf(rows.map((r) => r.id)),
      this.deps.repository.referenceCounts(
        rows.map((r) => r.name),
        referenceScope(caller),
      ),
    ]);
    return rows.map((r) => ({
      machineTypeId: r.id,
      machineType: r.name,
      enable: r.enabled === 1 ? '1' : '0',
      creationDate: r.created_at,
      createMan: r.create_man,
      referenceCount: counts.get(r.name) ?? 0,
      inputSources: (sources.get(r.id) ?? []).map((s) => ({
        id: s.id,
        inputSourceId: s.source_id,
        name: s.name,
        sourceKey: s.source_key,
      })),
    }));
  }

  private async find(id: number): Promise<MachineTypeRecord> {
    const row = await this.deps.repository.findById(id);
    if (!row) throw new Refusal('machineType.notFound', 'notFound');
    return row;
  }

  private async requireSources(ids: number[]) {
    if ((await this.deps.repository.countSources(ids)) !== ids.length)
      throw new Refusal('machineType.sourceUnknown', 'invalid');
  }

  /** Races the checks cannot see: a name taken meanwhile, a source deleted meanwhile. */
  private async guarded<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new Refusal('machineType.nameTaken', 'conflict');
      if (isForeignKeyViolation(error)) throw new Refusal('machineType.sourceUnknown', 'invalid');
      throw error;
    }
  }
}
