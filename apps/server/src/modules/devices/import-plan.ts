import type { device } from '@panelfleet/contract';
import { csvRecords } from './import-csv.js';
import { isProblem, readHeadings, readLine, type ImportLine, type LineProblem } from './import-lines.js';
import {
  IMPORT_BATCH,
  type DeviceImportRepository,
  type ImportedPanel,
  type PendingPanel,
} from './import-repository.js';

type FieldChange = device.DeviceImportChange['fields'][number];

/** What one good line does: change a panel of the company, or save what waits for its panel. */
export interface PlannedLine {
  line: ImportLine;
  kind: 'update' | 'pending' | 'unchanged';
  fields: FieldChange[];
  /** The company's panel (kind update). */
  panelId?: number;
}

/** A batch of the file: its good lines planned and its bad ones. */
export interface PlannedBatch {
  planned: PlannedLine[];
  problems: LineProblem[];
  /** Label names the batch's lines use that the company does not have yet. */
  newLabels: string[];
}

type Reads = Pick<DeviceImportRepository, 'panels' | 'pending' | 'panelLabels' | 'dynamicLabelNames'>;

const sameLabels = (a: string[], b: string[]) => a.length === b.length && a.every((n, i) => n === b[i]);

/** The fields of a line that differ from what the panel (or the waiting record) has. */
function changes(
  line: ImportLine,
  now: { name: string; location: string; remark: string; labels: string[] },
) {
  const fields: FieldChange[] = [];
  if (line.name !== undefined && line.name !== now.name)
    fields.push({ field: 'name', from: now.name, to: line.name });
  if (line.labels && !sameLabels(line.labels, now.labels))
    fields.push({ field: 'labels', from: now.labels.join(';'), to: line.labels.join(';') });
  if (line.location !== undefined && line.location !== now.location)
    fields.push({ field: 'location', from: now.location, to: line.location });
  if (line.remark !== undefined && line.remark !== now.remark)
    fields.push({ field: 'remark', from: now.remark, to: line.remark });
  return fields;
}

const waitingLabels = (w: PendingPanel | undefined): string[] =>
  w?.labels ? (JSON.parse(w.labels) as string[]) : [];

/**
 * Reads an import file a batch of lines at a time and says what each line would do against the
 * database as it is (the company's panels, its waiting records, other companies' serials). The
 * file is decoded and parsed as it goes; only the serials seen so far (to find repeats) are kept.
 */
export async function* planImport(
  reads: Reads,
  orgId: number,
  bytes: Uint8Array,
  knownLabels: () => ReadonlySet<string>,
): AsyncGenerator<PlannedBatch> {
  const records = csvRecords(bytes);
  const head = records.next();
  const places = readHeadings(head.done ? undefined : head.value);
  if (isProblem(places)) {
    yield { planned: [], problems: [places], newLabels: [] };
    return;
  }
  const dynamic = await reads.dynamicLabelNames(orgId);
  const seen = new Map<string, number>();
  let lines: ImportLine[] = [];
  let problems: LineProblem[] = [];
  const flush = async (): Promise<PlannedBatch> => {
    const batch = await planBatch(reads, orgId, lines, knownLabels());
    batch.problems.push(...problems);
    lines = [];
    problems = [];
    return batch;
  };
  for (const record of records) {
    const read = readLine(record, places);
    if (isProblem(read)) problems.push(read);
    else if (seen.has(read.serial))
      problems.push({
        line: read.line,
        column: 'serial',
        key: 'deviceImport.serialTwice',
        vars: { line: seen.get(read.serial)! },
      });
    else {
      seen.set(read.serial, read.line);
      // A dynamic label's members follow from its filter: its name in the labels cell (as the
      // export writes it) is neither assigned nor compared.
      lines.push(read.labels ? { ...read, labels: read.labels.filter((name) => !dynamic.has(name)) } : read);
    }
    if (lines.length >= IMPORT_BATCH || problems.length >= IMPORT_BATCH) yield await flush();
  }
  yield await flush();
}

async function planBatch(
  reads: Reads,
  orgId: number,
  lines: ImportLine[],
  known: ReadonlySet<string>,
): Promise<PlannedBatch> {
  const serials = lines.map((l) => l.serial);
  const panels = new Map<string, ImportedPanel>(
    (await reads.panels(orgId, serials)).map((p) => [p.device_key, p]),
  );
  const labelsOf = await reads.panelLabels(
    orgId,
    [...panels.values()].map((p) => p.id),
  );
  const waiting = new Map((await reads.pending(orgId, serials)).map((w) => [w.device_key, w]));
  const batch: PlannedBatch = { planned: [], problems: [], newLabels: [] };
  const newLabels = new Set<string>();
  for (const line of lines) {
    for (const name of line.labels ?? []) if (!known.has(name)) newLabels.add(name);
    const panel = panels.get(line.serial);
    if (panel) {
      const fields = changes(line, { ...panel, labels: labelsOf.get(panel.id) ?? [] });
      batch.planned.push({ line, kind: fields.length ? 'update' : 'unchanged', fields, panelId: panel.id });
      continue;
    }
    // Not the company's panel: a waiting record, also when another company's panel holds the
    // serial. Saying so would tell one company what another enrolled (enrollment never does); the
    // record applies only if that panel ever enrolls into this company.
    const w = waiting.get(line.serial);
    const fields = changes(line, {
      name: w?.name ?? '',
      location: w?.location ?? '',
      remark: w?.remark ?? '',
      labels: waitingLabels(w),
    });
    batch.planned.push({ line, kind: !w || fields.length ? 'pending' : 'unchanged', fields });
  }
  batch.newLabels = [...newLabels];
  return batch;
}
