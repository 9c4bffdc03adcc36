import { device } from '@panelfleet/contract';
import { comparePositions, prefixRange, type Position } from './list-position.js';
import { TRIGRAM, type DeviceListRepository } from './list-repository.js';
import type { DeviceRecord, DeviceRepository } from './repository.js';

/** One exported panel: its record and its label names. */
export interface ExportedDevice {
  record: DeviceRecord;
  labels: string[];
}

/** Panels read per statement: the export holds one batch (and the one read ahead) at a time. */
export const EXPORT_BATCH = 1000;

/**
 * The devices the list shows for a filter, all pages of it, in the list's order (lower(name),
 * id), read in keyset batches scoped to the organisation: memory stays at a batch whatever the
 * fleet's size. A search anywhere lists the list's own capped matches.
 */
export class DeviceExportService {
  constructor(
    private readonly list: DeviceListRepository,
    private readonly devices: DeviceRepository,
    private readonly batch = EXPORT_BATCH,
    private readonly searchCap = device.DEVICE_SEARCH_CAP,
  ) {}

  async *batches(orgId: number, deviceName: string | undefined): AsyncGenerator<ExportedDevice[]> {
    const search = deviceName ? await this.list.lower(deviceName) : '';
    if ([...search].length >= TRIGRAM) {
      const found = await this.list.firstContaining(orgId, search, this.searchCap);
      const ids = found.sort(comparePositions).map((p) => p.id);
      for (let i = 0; i < ids.length; i += this.batch)
        yield this.withLabels(orgId, await this.list.rowsInOrder(orgId, ids.slice(i, i + this.batch)));
      return;
    }
    const range = search ? prefixRange(search) : undefined;
    let after: Position | undefined;
    for (;;) {
      const records = await this.list.rows(orgId, {
        lower: after ? { at: after, inclusive: false } : range && { at: range.lo, inclusive: true },
        upper: range && { at: range.hi, inclusive: false },
        direction: 'asc',
        offset: 0,
        limit: this.batch,
      });
      if (records.length) yield this.withLabels(orgId, records);
      if (records.length < this.batch) return;
      const last = records.at(-1)!;
      after = { key: last.name_key, id: last.id };
    }
  }

  private async withLabels(orgId: number, records: DeviceRecord[]): Promise<ExportedDevice[]> {
    const labels = await this.devices.labelNamesOf(
      orgId,
      records.map((r) => r.id),
    );
    return records.map((record) => ({ record, labels: labels.get(record.id) ?? [] }));
  }
}
