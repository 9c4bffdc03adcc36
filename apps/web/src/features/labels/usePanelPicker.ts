import { useEffect, useRef, useState } from 'react';
import { device } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { useResetOnOpen } from '../../lists/useResetOnOpen';
import { chosenAfterTick } from './pickerRules';
import { useLabels } from './useLabels';

export type PickerPanel = device.LabelDeviceRow;

export interface PanelPickerOptions {
  /** The dialog is open: labels are read afresh and the picker starts empty each time it opens. */
  open: boolean;
  /** Only the panels this OTA file fits are listed (the force upgrade's rule). */
  otaFileId?: number;
  /** Panels that cannot take what is sent (and why): listed, never chosen. */
  unavailable?(row: PickerPanel): string | undefined;
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
export function usePanelPicker({ open, otaFileId, unavailable }: PanelPickerOptions) {
  const { labels, loaded, reload } = useLabels();
  const [ticked, setTicked] = useState<number[]>([]);
  const [rows, setRows] = useState<PickerPanel[]>([]);
  const [chosen, setChosen] = useState<number[]>([]);
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
    setChosen([]);
    setUnfit(0);
  });
  useEffect(() => () => pending.current?.abort(), []);

  const tick = (next: number[]) => {
    const added = next.filter((id) => !ticked.includes(id));
    setTicked(next);
    pending.current?.abort();
    if (!next.length) {
      setRows([]);
      setChosen([]);
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
        setChosen((before) => chosenAfterTick(before, all, fresh ?? (added.length ? all : []), unavailable));
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
  return { labels, loaded, ticked, tick, tickedNames, rows, chosen, setChosen, unfit, loading, unavailable };
}

export type PanelPickerState = ReturnType<typeof usePanelPicker>;
