import { createHash } from 'node:crypto';
import { device, translate, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { Transact } from '../../db/unit-of-work.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { OperationLog } from '../operation-log/repository.js';
import { NotUtf8 } from './import-csv.js';
import type { LineProblem } from './import-lines.js';
import { planImport, type PlannedBatch } from './import-plan.js';
import type { DeviceImportRepository, PanelFields, PendingPanel } from './import-repository.js';

type Counts = device.DeviceImportCounts;

export interface DeviceImportDeps {
  clock: Clock;
  /** Reads outside a transaction (the preview). */
  imports: DeviceImportRepository;
  /** The apply's transaction: the import's SQL and the operation log. */
  transact: Transact<{ imports: DeviceImportRepository; log: OperationLog }>;
}

/** The file's SHA-256 (hex): the preview's token, which the apply must bring with the same file. */
export const fileToken = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const emptyCounts = (): Counts => ({
  lines: 0,
  updated: 0,
  pending: 0,
  unchanged: 0,
  labelsCreated: 0,
  errors: 0,
});

function count(counts: Counts, batch: PlannedBatch) {
  counts.errors += batch.problems.length;
  counts.labelsCreated += batch.newLabels.length;
  counts.lines += batch.problems.length + batch.planned.length;
  for (const p of batch.planned) counts[p.kind === 'update' ? 'updated' : p.kind]++;
}

const checkSize = (bytes: Uint8Array) => {
  if (bytes.length > device.DEVICE_IMPORT_MAX_BYTES)
    throw new Refusal('deviceImport.tooLarge', 'tooLarge', {
      limit: `${device.DEVICE_IMPORT_MAX_BYTES / 1024 / 1024} MiB`,
    });
};

/**
 * The device list's CSV import (docs/device-import.md): panels by serial number — name, labels,
 * location, remark. The preview reads the whole file and says what would change and what is
 * wrong, line by line; the apply takes the same file again (its token), checks every line again
 * and writes in batches in one transaction, or, if any line is bad, writes nothing. A serial no
 * panel of the company holds waits (device_import_pending) for its panel to enroll.
 */
export class DeviceImportService {
  constructor(private readonly deps: DeviceImportDeps) {}

  async preview(orgId: number, bytes: Uint8Array, language: Language): Promise<device.DeviceImportPreview> {
    checkSize(bytes);
    const known = new Set((await this.deps.imports.labelIds(orgId)).keys());
    const counts = emptyCounts();
    const changes: device.DeviceImportChange[] = [];
    const errorLines: device.DeviceImportError[] = [];
    const newLabels: string[] = [];
    await this.eachBatch(this.deps.imports, orgId, bytes, known, (batch) => {
      count(counts, batch);
      for (const name of batch.newLabels) {
        known.add(name);
        if (newLabels.length < device.DEVICE_IMPORT_LISTED) newLabels.push(name);
      }
      for (const p of batch.planned)
        if (p.kind !== 'unchanged' && changes.length < device.DEVICE_IMPORT_LISTED)
          changes.push({ line: p.line.line, serial: p.line.serial, kind: p.kind, fields: p.fields });
      for (const problem of batch.problems)
        if (errorLines.length < device.DEVICE_IMPORT_LISTED) errorLines.push(this.errorOf(problem, language));
    });
    errorLines.sort((a, b) => a.line - b.line);
    return { ...counts, token: fileToken(bytes), changes, errorLines, newLabels };
  }

  async apply(caller: SessionUser, ip: string, bytes: Uint8Array, token: string): Promise<Counts> {
    checkSize(bytes);
    if (fileToken(bytes) !== token) throw new Refusal('deviceImport.changed', 'invalid');
    const orgId = caller.orgId;
    const now = this.deps.clock.now();
    return this.deps.transact(async ({ imports, log }) => {
      let labelIds = await imports.labelIds(orgId);
      const known = new Set(labelIds.keys());
      const counts = emptyCounts();
      await this.eachBatch(imports, orgId, bytes, known, async (batch) => {
        count(counts, batch);
        // After a bad line nothing more is written: the transaction is rolled back at the end.
        if (counts.errors) return;
        if (batch.newLabels.length) {
          await imports.createLabels(orgId, batch.newLabels, now);
          labelIds = await imports.labelIds(orgId);
          for (const name of batch.newLabels) known.add(name);
        }
        await this.write(imports, orgId, batch, labelIds, now);
      });
      if (counts.errors) throw new Refusal('deviceImport.hasErrors', 'invalid', { count: counts.errors });
      await log.recordBy(caller, ip, 'device.import', {
        k: 'deviceImport',
        v: {
          lines: counts.lines,
          updated: counts.updated,
          pending: counts.pending,
          labels: counts.labelsCreated,
        },
      });
      return counts;
    });
  }

  /**
   * A panel has just enrolled into the company: what an import said about its serial, if
   * anything, is applied and forgotten. Only that company's record is ever read.
   */
  async enrolled(orgId: number, deviceId: number, serial: string): Promise<void> {
    await this.deps.transact(async ({ imports }) => {
      const waiting = await imports.takePending(orgId, serial);
      if (!waiting) return;
      await imports.updatePanels(orgId, [
        {
          id: deviceId,
          ...(waiting.name !== null ? { name: waiting.name } : {}),
          ...(waiting.location !== null ? { location: waiting.location } : {}),
          ...(waiting.remark !== null ? { remark: waiting.remark } : {}),
        },
      ]);
      if (waiting.labels === null) return;
      const names = JSON.parse(waiting.labels) as string[];
      await imports.createLabels(orgId, names, this.deps.clock.now());
      const ids = await imports.labelIds(orgId);
      await imports.replaceLabels(orgId, new Map([[deviceId, names.map((n) => ids.get(n)!)]]));
    });
  }

  private async eachBatch(
    reads: DeviceImportRepository,
    orgId: number,
    bytes: Uint8Array,
    known: Set<string>,
    use: (batch: PlannedBatch) => void | Promise<void>,
  ) {
    let lines = 0;
    try {
      for await (const batch of planImport(reads, orgId, bytes, () => known)) {
        lines += batch.planned.length + batch.problems.length;
        if (lines > device.DEVICE_IMPORT_MAX_LINES)
          throw new Refusal('deviceImport.tooManyLines', 'invalid', { max: device.DEVICE_IMPORT_MAX_LINES });
        await use(batch);
      }
    } catch (error) {
      if (error instanceof NotUtf8) throw new Refusal('deviceImport.notUtf8', 'invalid');
      throw error;
    }
  }

  private async write(
    imports: DeviceImportRepository,
    orgId: number,
    batch: PlannedBatch,
    labelIds: Map<string, number>,
    now: number,
  ) {
    const panels: PanelFields[] = [];
    const labelsOf = new Map<number, number[]>();
    const pending: PendingPanel[] = [];
    for (const { line, kind, fields, panelId } of batch.planned) {
      if (kind === 'unchanged') continue;
      const changed = new Set(fields.map((f) => f.field));
      if (kind === 'update') {
        const set: PanelFields = { id: panelId! };
        if (changed.has('name')) set.name = line.name!;
        if (changed.has('location')) set.location = line.location!;
        if (changed.has('remark')) set.remark = line.remark!;
        if (changed.has('name') || changed.has('location') || changed.has('remark')) panels.push(set);
        if (changed.has('labels'))
          labelsOf.set(
            panelId!,
            line.labels!.map((n) => labelIds.get(n)!),
          );
        continue;
      }
      pending.push({
        device_key: line.serial,
        name: line.name ?? null,
        location: line.location ?? null,
        remark: line.remark ?? null,
        labels: line.labels ? JSON.stringify(line.labels) : null,
      });
    }
    await imports.updatePanels(orgId, panels);
    await imports.replaceLabels(orgId, labelsOf);
    await imports.savePending(orgId, pending, now);
  }

  private errorOf(problem: LineProblem, language: Language): device.DeviceImportError {
    return {
      line: problem.line,
      column: problem.column,
      message: translate(language, problem.key, problem.vars),
    };
  }
}
