import { useCallback, useEffect, useRef, useState } from 'react';
import { screenshots } from '@panelfleet/contract';
import { alreadyReported, call, RequestAborted } from '../../api/client';

/** How often a pending screenshot's status is read (ms). */
const STATUS_POLL_MS = 700;

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new RequestAborted());
    });
  });

/** Asks for a screenshot and follows it until it is stored or failed (or the signal aborts). */
export async function takeAndFollow(
  deviceId: number,
  signal: AbortSignal,
): Promise<screenshots.ScreenshotRecord> {
  let record = (await call(screenshots.takeScreenshot, { deviceId }, { signal })).dataObject;
  while (record.status === 'pending') {
    await wait(STATUS_POLL_MS, signal);
    record = (await call(screenshots.screenshotStatus, { screenshotId: record.screenshotId }, { signal }))
      .dataObject;
  }
  return record;
}

/** The URL of a stored screenshot's picture or thumbnail. */
export const imageUrl = (
  record: Pick<screenshots.ScreenshotRecord, 'screenshotId'>,
  size: 'full' | 'thumb',
) => `${screenshots.screenshotImage.path}?screenshotId=${record.screenshotId}&size=${size}`;

/**
 * A panel's screenshots in the device detail: the newest stored one, the last attempt (pending,
 * or failed with why), a live view that takes one every LIVE_VIEW_INTERVAL_MS and stops after
 * LIVE_VIEW_LIMIT_MS, or when the detail closes (unmounts).
 */
export function useScreenshot(deviceId: number) {
  const [latest, setLatest] = useState<screenshots.ScreenshotRecord | null>();
  const [attempt, setAttempt] = useState<screenshots.ScreenshotRecord>();
  const [busy, setBusy] = useState(false);
  const [live, setLive] = useState(false);
  const [liveEnded, setLiveEnded] = useState(false);
  const controller = useRef<AbortController>(undefined);

  useEffect(() => {
    const abort = new AbortController();
    call(screenshots.latestScreenshot, { deviceId }, { signal: abort.signal, quietFail: true })
      .then((reply) => setLatest(reply.dataObject))
      .catch(alreadyReported);
    return () => abort.abort();
  }, [deviceId]);

  const take = useCallback(async () => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setBusy(true);
    try {
      const record = await takeAndFollow(deviceId, abort.signal);
      setAttempt(record);
      if (record.status === 'stored') setLatest(record);
    } catch (error) {
      // A refusal (rate limit) was shown as a notice; an abort means the detail closed.
      alreadyReported(error);
    } finally {
      if (!abort.signal.aborted) setBusy(false);
    }
  }, [deviceId]);

  useEffect(() => () => controller.current?.abort(), []);

  useEffect(() => {
    if (!live) return;
    setLiveEnded(false);
    void take();
    const every = setInterval(() => void take(), screenshots.LIVE_VIEW_INTERVAL_MS);
    const limit = setTimeout(() => {
      setLive(false);
      setLiveEnded(true);
    }, screenshots.LIVE_VIEW_LIMIT_MS);
    return () => {
      clearInterval(every);
      clearTimeout(limit);
    };
  }, [live, take]);

  return { latest, attempt, busy, live, setLive, liveEnded, take };
}
