import { useCallback, useEffect, useState } from 'react';
import { panelHistory } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';

export type HistoryRange = [number, number];

/** The panel's history over a range, read when the range changes (and on demand). */
export function useHistory(deviceId: number, range: HistoryRange) {
  const [history, setHistory] = useState<panelHistory.PanelHistory>();
  const [loading, setLoading] = useState(false);
  const [from, to] = range;

  const load = useCallback(
    async (signal?: AbortSignal) => {
      setLoading(true);
      try {
        const reply = await call(
          panelHistory.selectPanelHistory,
          { deviceId, from, to },
          signal ? { signal } : {},
        );
        setHistory(reply.dataObject);
      } catch (error) {
        // The client showed the refusal; the tab keeps what it showed.
        alreadyReported(error);
      } finally {
        setLoading(false);
      }
    },
    [deviceId, from, to],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  return { history, loading, reload: () => void load() };
}
