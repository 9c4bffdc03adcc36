import { device } from '@panelfleet/contract';
import { decodeCursor, encodeCursor, type ListCursor } from './list-cursor.js';
import { comparePositions, prefixRange, type Position } from './list-position.js';
import { TRIGRAM, type Bound, type DeviceListRepository, type KeyScan } from './list-repository.js';
import type { DeviceOrderIndex } from './order-index.js';
import type { DeviceRecord, DeviceRepository } from './repository.js';
import { toDeviceRow } from './service.js';

export interface ListRequest {
  /** 1-based page number (0 reads as 1); a page past the end is empty. */
  start: number;
  size: number;
  deviceName?: string;
  cursor?: string;
}

export interface ListPage {
  rows: device.DeviceRow[];
  total: number;
  cursor: string | undefined;
  /** A search anywhere found more than it lists: `total` is the cap, not the number of matches. */
  totalCapped?: boolean;
}

/** The most index entries a keyset read may skip; beyond it a jump goes through the rank index. */
export const NEAR = 1024;

interface Window {
  lower: Bound | undefined;
  upper: Bound | undefined;
}

/**
 * One page of the device list, ordered by (lower(name), id): "next" and "previous" read on from
 * the cursor's positions, the first and last pages read from either end of the range, and any
 * other page seeks through the rank index; no read skips more than about NEAR index entries.
 */
export class DeviceListService {
  constructor(
    private readonly list: DeviceListRepository,
    private readonly devices: DeviceRepository,
    private readonly index: DeviceOrderIndex,
    private readonly near = NEAR,
    private readonly searchCap = device.DEVICE_SEARCH_CAP,
  ) {}

  async page(
    orgId: number,
    request: ListRequest,
    isOnline: (deviceKey: string) => boolean,
  ): Promise<ListPage> {
    const search = request.deviceName ? await this.list.lower(request.deviceName) : '';
    // Three characters or more: anywhere in the name or the device key, through the trigram
    // index. Shorter: the start of the name, one range of the name index (one or two characters
    // are in too many names to be worth a trigram, and no trigram index serves them).
    const anywhere = [...search].length >= TRIGRAM;
    const range = search ? prefixRange(search) : undefined;
    const window: Window = {
      lower: range && { at: range.lo, inclusive: true },
      upper: range && { at: range.hi, inclusive: false },
    };
    if (anywhere) return this.containing(orgId, search, request, isOnline);
    const state = await this.list.orderState(orgId);
    this.index.observe(orgId, state.version);
    const total = range ? await this.countRange(orgId, state.version, range) : state.total;
    const size = request.size;
    const page = Math.max(request.start, 1);
    // A malformed cursor is refused on every page, before anything else is answered.
    const cursor = decodeCursor(request.cursor, size, search);
    // Past the end is an empty page with the total, as in every other list (nothing to read).
    if (page > 1 && (page - 1) * size >= total) return { rows: [], total, cursor: undefined };
    const records = await this.locate(orgId, state.version, {
      page,
      size,
      total,
      window,
      cursor,
      rangeStart: range?.lo,
    });
    return this.answer(orgId, records, { page, size, search, total }, isOnline);
  }

  private async answer(
    orgId: number,
    records: DeviceRecord[],
    { page, size, search, total }: { page: number; size: number; search: string; total: number },
    isOnline: (deviceKey: string) => boolean,
  ): Promise<ListPage> {
    const labelNames = await this.devices.labelNamesOf(
      orgId,
      records.map((r) => r.id),
    );
    const first = records[0];
    const last = records.at(-1);
    return {
      rows: records.map((r) => toDeviceRow(r, labelNames.get(r.id) ?? [], isOnline(r.device_key))),
      total,
      cursor:
        first && last
          ? encodeCursor({
              page,
              size,
              search,
              first: { key: first.name_key, id: first.id },
              last: { key: last.name_key, id: last.id },
            })
          : undefined,
    };
  }

  /**
   * A search anywhere in name or key (docs/ARCHITECTURE.md, "Device list paging"): the first
   * `searchCap` matches in enrollment order, found through the trigram index, listed by name. When
   * more match, the reply says so (`totalCapped`) and the console asks for a longer search: no
   * page, count or order ever costs more than reading `searchCap + 1` index entries, wherever the
   * matches lie in the list.
   */
  private async containing(
    orgId: number,
    text: string,
    request: ListRequest,
    isOnline: (deviceKey: string) => boolean,
  ): Promise<ListPage> {
    const size = request.size;
    const page = Math.max(request.start, 1);
    // A malformed cursor is refused here too; a search's pages need none (each reads the same matches).
    decodeCursor(request.cursor, size, text);
    const found = await this.list.firstContaining(orgId, text, this.searchCap + 1);
    const totalCapped = found.length > this.searchCap;
    const matches = found.slice(0, this.searchCap).sort(comparePositions);
    const total = matches.length;
    const offset = (page - 1) * size;
    const ids = matches.slice(offset, offset + size).map((p) => p.id);
    const records = await this.list.rowsInOrder(orgId, ids);
    const reply = await this.answer(orgId, records, { page, size, search: text, total }, isOnline);
    return totalCapped ? { ...reply, totalCapped } : reply;
  }

  private async countRange(orgId: number, version: number, range: { lo: Position; hi: Position }) {
    const lower = { at: range.lo, inclusive: true };
    const upper = { at: range.hi, inclusive: false };
    const few = await this.list.countUpTo(orgId, lower, upper, this.near + 1);
    if (few <= this.near) return few;
    const [lo, hi] = await Promise.all([
      this.index.rankOf(orgId, version, range.lo),
      this.index.rankOf(orgId, version, range.hi),
    ]);
    return hi - lo;
  }

  private async locate(
    orgId: number,
    version: number,
    plan: {
      page: number;
      size: number;
      total: number;
      window: Window;
      cursor: ListCursor | undefined;
      rangeStart: Position | undefined;
    },
  ): Promise<DeviceRecord[]> {
    const { page, size, total, window, cursor } = plan;
    const near = this.near;
    const offset = (page - 1) * size;
    const onPage = Math.max(0, Math.min(size, total - offset));
    const forward = (lower: Bound | undefined, skip: number, limit = size) =>
      this.list.rows(orgId, { lower, upper: window.upper, direction: 'asc', offset: skip, limit });
    const backward = async (upper: Bound | undefined, skip: number, limit: number) =>
      (
        await this.list.rows(orgId, {
          lower: window.lower,
          upper,
          direction: 'desc',
          offset: skip,
          limit,
        } satisfies KeyScan)
      ).reverse();

    if (cursor) {
      const ahead = page - cursor.page;
      if (ahead === 0) return forward({ at: cursor.first, inclusive: true }, 0);
      if (ahead > 0 && (ahead - 1) * size <= near)
        return forward({ at: cursor.last, inclusive: false }, (ahead - 1) * size);
      if (ahead < 0 && (-ahead - 1) * size <= near)
        return backward({ at: cursor.first, inclusive: false }, (-ahead - 1) * size, size);
    }
    if (offset <= near) return forward(window.lower, offset);
    const afterPage = total - offset - onPage;
    if (afterPage <= near) return backward(window.upper, afterPage, onPage);

    const base = plan.rangeStart ? await this.index.rankOf(orgId, version, plan.rangeStart) : 0;
    const { from, skip } = await this.index.seek(orgId, version, base + offset);
    // `skip` counts from the anchor, which may lie before the search range: read from the anchor itself.
    return forward({ at: from, inclusive: true }, skip);
  }
}
