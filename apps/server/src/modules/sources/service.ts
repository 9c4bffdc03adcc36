import type { sources } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import { pageOffset } from '../../http/access.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { SourceRecord, SourceRepository } from './repository.js';

export const toSignalSource = (r: SourceRecord): sources.SignalSource => ({
  id: r.id,
  name: r.name,
  sourceKey: r.source_key,
  insertTime: r.created_at,
});

/** Signal source management (view sourceManage): keys unique, deletion refused while a machine type uses one. */
export class SourceService {
  constructor(private readonly deps: { repository: SourceRepository; log: OperationLog; clock: Clock }) {}

  async list(caller: SessionUser, params: { start: number; size: number; name?: string }) {
    const { rows, total } = await this.deps.repository.page(
      pageOffset(params.start, params.size),
      params.size,
      params.name,
    );
    return { rows: rows.map(toSignalSource), total };
  }

  async add(
    caller: SessionUser,
    values: { name: string; sourceKey: string },
    ip: string,
  ): Promise<sources.SignalSource> {
    if (await this.deps.repository.findByKey(values.sourceKey))
      throw new Refusal('source.keyTaken', 'conflict');
    const row = await this.keyed(() =>
      this.deps.repository.insert({
        name: values.name,
        source_key: values.sourceKey,
        created_at: this.deps.clock.now(),
      }),
    );
    await this.deps.log.recordBy(
      caller,
      ip,
      'addSource',
      `added signal source ${values.name} (${values.sourceKey})`,
    );
    return toSignalSource(row);
  }

  async update(
    caller: SessionUser,
    values: { id: number; name: string; sourceKey: string },
    ip: string,
  ): Promise<void> {
    const existing = await this.find(values.id);
    const holder = await this.deps.repository.findByKey(values.sourceKey);
    if (holder && holder.id !== existing.id) throw new Refusal('source.keyTaken', 'conflict');
    await this.keyed(() =>
      this.deps.repository.update(existing.id, { name: values.name, source_key: values.sourceKey }),
    );
    await this.deps.log.recordBy(
      caller,
      ip,
      'updateSource',
      `changed signal source ${existing.name} (${existing.source_key}) to ${values.name} (${values.sourceKey})`,
    );
  }

  async delete(caller: SessionUser, id: number, ip: string): Promise<void> {
    const existing = await this.find(id);
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
    await this.deps.log.recordBy(
      caller,
      ip,
      'deleteSource',
      `deleted signal source ${existing.name} (${existing.source_key})`,
    );
  }

  private async find(id: number): Promise<SourceRecord> {
    const row = await this.deps.repository.findById(id);
    if (!row) throw new Refusal('source.notFound', 'notFound');
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
