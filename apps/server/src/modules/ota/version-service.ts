import type { ota } from '@panelfleet/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import { customerScope } from '../customers/policy.js';
import type { OperationLog } from '../operation-log/repository.js';
import { orgIn } from '../rollouts/repository.js';
import type { OtaFileRepository } from './file-repository.js';
import type { OtaVersionRecord, OtaVersionRepository } from './version-repository.js';

type Version = z.infer<typeof ota.otaVersion>;

/**
 * The OTA version catalog (spec 3 section 2.4). A version that files or devices refer to is
 * locked: neither edited nor deleted. Only the platform changes it.
 */
export class OtaVersionService {
  constructor(
    private readonly deps: {
      versions: OtaVersionRepository;
      files: OtaFileRepository;
      log: OperationLog;
      clock: Clock;
    },
  ) {}

  async list(caller: SessionUser, p: { start: number; size: number; otaVersion?: string }) {
    const { rows, total } = await this.deps.versions.page(pageOffset(p.start, p.size), p.size, p.otaVersion);
    const scope = customerScope(caller);
    const counts = await this.references(rows, scope.kind === 'all' ? undefined : scope);
    const out: Version[] = rows.map((r) => ({
      otaVersionId: r.id,
      otaVersion: r.name,
      enable: r.enabled === 1 ? '1' : '0',
      creationDate: r.created_at,
      lastUpdateDate: r.updated_at,
      lastUpdateMan: r.update_man,
      referenceCount: counts.get(r.name) ?? 0,
    }));
    return { rows: out, total };
  }

  /** Files (all) and devices (within the scope, or all) that name each version. */
  private async references(rows: OtaVersionRecord[], scope?: ReturnType<typeof customerScope>) {
    const names = rows.map((r) => r.name);
    const files = await this.deps.files.referencesOfVersions(
      names,
      rows.map((r) => r.id),
    );
    const devices = await this.deps.files.devicesOnVersions(
      names,
      scope ? orgIn(scope, 'devices.org_id') : undefined,
    );
    const out = new Map<string, number>();
    for (const n of names) out.set(n, (files.get(n) ?? 0) + (devices.get(n) ?? 0));
    return out;
  }

  async add(caller: SessionUser, ip: string, f: { otaVersion: string; enable: '1' | '0' }) {
    const now = this.deps.clock.now();
    const id = await this.deps.versions.insert({
      name: f.otaVersion,
      enabled: Number(f.enable),
      update_man: caller.userName,
      created_at: now,
      updated_at: now,
    });
    if (id === undefined) throw new Refusal('otaVersion.nameTaken', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'otaVersion.add', { k: 'name', v: { name: f.otaVersion } });
    return id;
  }

  async update(caller: SessionUser, ip: string, id: number, f: { otaVersion: string; enable: '1' | '0' }) {
    const row = await this.find(id);
    const refs = (await this.references([row])).get(row.name) ?? 0;
    if (refs) throw new Refusal('otaVersion.locked', 'conflict', { count: refs });
    const holder = await this.deps.versions.findByName(f.otaVersion);
    if (holder && holder.id !== id) throw new Refusal('otaVersion.nameTaken', 'conflict');
    await this.deps.versions.update(id, {
      name: f.otaVersion,
      enabled: Number(f.enable),
      update_man: caller.userName,
      updated_at: this.deps.clock.now(),
    });
    await this.deps.log.recordBy(caller, ip, 'otaVersion.update', {
      k: 'otaVersionChanged',
      v: { old: row.name, version: f.otaVersion },
    });
  }

  async delete(caller: SessionUser, ip: string, id: number) {
    const row = await this.find(id);
    const refs = (await this.references([row])).get(row.name) ?? 0;
    if (refs) throw new Refusal('otaVersion.inUse', 'conflict', { count: refs });
    await this.deps.versions.delete(id);
    await this.deps.log.recordBy(caller, ip, 'otaVersion.delete', { k: 'name', v: { name: row.name } });
  }

  private async find(id: number) {
    const row = await this.deps.versions.findById(id);
    if (!row) throw new Refusal('otaVersion.notFound', 'notFound');
    return row;
  }
}
