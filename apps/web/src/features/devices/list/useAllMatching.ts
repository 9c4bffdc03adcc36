import { useEffect, useState } from 'react';
import { device } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';

/** What the server counts for the list's filter: the enabled panels an action reaches, and those left out. */
export type MatchingCount = { count: number; disabled: number };

/**
 * "Select all N matching" (as Gmail does): once every row of the page is ticked, the list offers
 * every panel matching its filter on every page; N is the server's exact count for the filter.
 * Choosing it makes the selection the filter itself, sent to the server instead of ids.
 */
export function useAllMatching(filter: string | undefined, pageChosen: boolean) {
  const [all, setAll] = useState(false);
  const [counted, setCounted] = useState<MatchingCount>();

  // Another filter is another set: what was chosen for the previous one is not carried over.
  useEffect(() => {
    setAll(false);
    setCounted(undefined);
  }, [filter]);

  useEffect(() => {
    if (!pageChosen && !all) return;
    const controller = new AbortController();
    call(device.countMatchingDevices, { deviceName: filter }, { signal: controller.signal }).then(
      (reply) => setCounted(reply.dataObject),
      alreadyReported,
    );
    return () => controller.abort();
  }, [filter, pageChosen, all]);

  return {
    /** The selection is every panel matching the filter. */
    all,
    counted,
    chooseAll: () => setAll(true),
    reset: () => setAll(false),
    /** The selection as a bulk call takes it when all matching are chosen. */
    matching: { deviceName: filter ?? '' } satisfies device.PanelMatching,
  };
}

export type AllMatchingState = ReturnType<typeof useAllMatching>;
