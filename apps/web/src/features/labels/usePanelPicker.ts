import { useEffect, useRef, useState } from 'react';
import { device } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { useResetOnOpen } from '../../lists/useResetOnOpen';
import type { MatchingCount } from '../devices/list/useAllMatching';
import { chosenAfterTick, everyChoosableChosen, pickerSelection } from './pickerRules';
import { useLabels } from './useLabels';

export type PickerPanel = device.LabelDeviceRow;

export interface PanelPickerOptions {
  /** The dialog is open: labels are read afresh and the picker starts empty each time it opens. */
  open: boolean;
  /** Only the panels this OTA file fits are listed (the force upgrade's rule). */
  otaFileId?: number;
  /** Panels that cannot take what is sent (and why): listed, never chosen. */
  unavailable?(row: PickerPanel): string | undefined;
  /**
   * Once every listed panel is chosen, offer "all N panels of the labels" (N counted by the
   * server): the call then sends the labels as a filter (`matching`) instead of ids.
   */
  offerAll?: boolean;
}

/** Every panel of the labels, page after page, so that nothing past the first page is left out. */
async function panelsOf(tags: number[], otaFileId: number | undefined, signal: AbortSignal) {
  const rows: PickerPanel[] = [];
  for (let start = 1; ; start += 1) {
    const reply = await call(
      device.selectByTag,
      { tags: tags.join(','), otaFileId, start, size: device.LABEL_DEVICES_MAX_SIZE },
      { signal },
    );
    rows.push(...reply.listObject);
    if (!reply.listObject.length || rows.length >= reply.totalRecords) return rows;
  }
}

async function countOf(tags: number[], signal: AbortSignal) {
  const reply = await call(device.selectByTag, { tags: tags.join(','), start: 1, size: 1 }, { signal });
  return reply.totalRecords;
}

/**
 * The state of a panel picker: ticked labels, every panel they hold, and the panels chosen.
 * Ticking a label chooses its panels (those that can take it); unticking one drops the panels no
 * other ticked label holds; a panel can then be unticked by itself.
 */
export function usePanelPicker({ open, otaFileId, unavailable, offerAll = false }: PanelPickerOptions) {
  const { labels, loaded, reload } = useLabels();
  const [ticked, setTicked] = useState<number[]>([]);
  const [rows, setRows] = useState<PickerPanel[]>([]);
  const [chosen, setChosenIds] = useState<number[]>([]);
  /** "All matching": the labels themselves are the selection. */
  const [all, setAll] = useState(false);
  const [counted, setCounted] = useState<MatchingCount>();
  /** Panels of the ticked labels that the OTA file does not fit. */
  const [unfit, setUnfit] = useState(0);
  const [loading, setLoading] = useState(false);
  const pending = useRef<AbortController>(undefined);

  // Labels made since the page loaded (by another operator or tab) must be choosable.
  useEffect(() => {
    if (open) void reload();
  }, [open, reload]);
  useResetOnOpen(open, () => {
    pending.current?.abort();
    setTicked([]);
    setRows([]);
    setChosenIds([]);
    setUnfit(0);
    setAll(false);
  });
  useEffect(() => () => pending.current?.abort(), []);

  const pageChosen = offerAll && ticked.length > 0 && everyChoosableChosen(rows, chosen, unavailable);
  const tickedKey = ticked.join(',');
  // The server's count of the labels' panels (enabled, within the caller's reach): the N offered.
  useEffect(() => {
    setCounted(undefined);
    if (!pageChosen || !tickedKey) return;
    const controller = new AbortController();
    call(device.countMatchingDevices, { tagIds: tickedKey }, { signal: controller.signal }).then(
      (reply) => setCounted(reply.dataObject),
      alreadyReported,
    );
    return () => controller.abort();
  }, [pageChosen, tickedKey]);

  /** Choosing panels by hand (a row unticked) leaves "all matching": the selection is the ticked panels again. */
  const setChosen = (ids: number[]) => {
    setAll(false);
    setChosenIds(ids);
  };

  const tick = (next: number[]) => {
    const added = next.filter((id) => !ticked.includes(id));
    setAll(false);
    setTicked(next);
    pending.current?.abort();
    if (!next.length) {
      setRows([]);
      setChosenIds([]);
      setUnfit(0);
      setLoading(false);
      return;
    }
    const controller = new AbortController();
    pending.current = controller;
    setLoading(true);
    const freshOnly = added.length > 0 && added.length < next.length;
    Promise.all([
      panelsOf(next, otaFileId, controller.signal),
      freshOnly ? panelsOf(added, otaFileId, controller.signal) : undefined,
      otaFileId === undefined ? undefined : countOf(next, controller.signal),
    ])
      .then(([all, fresh, everyPanel]) => {
        setRows(all);
        setChosenIds((before) =>
          chosenAfterTick(before, all, fresh ?? (added.length ? all : []), unavailable),
        );
        setUnfit(everyPanel === undefined ? 0 : Math.max(0, everyPanel - all.length));
      }, alreadyReported)
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
  };

  const tickedNames = labels
    .filter((l) => ticked.includes(l.groupId))
    .map((l) => l.groupName)
    .join(', ');
  return {
    labels,
    loaded,
    ticked,
    tick,
    tickedNames,
    rows,
    chosen,
    setChosen,
    unfit,
    loading,
    unavailable,
    /** "All N matching" for the picker's labels (offered once every listed panel is chosen). */
    matching: {
      all,
      counted,
      pageChosen,
      chooseAll: () => setAll(true),
      reset: () => setAll(false),
      matching: { deviceName: '', tagIds: ticked } satisfies device.PanelMatching,
    },
    /** What the call sends: the labels as a filter once "all matching" is chosen, else the chosen ids. */
    selection: () => pickerSelection({ all, ticked, chosen, rows }),
  };
}

export type PanelPickerState = ReturnType<typeof usePanelPicker>;
