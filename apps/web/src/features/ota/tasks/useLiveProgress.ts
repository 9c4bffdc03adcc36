import { useEffect, useRef, useState } from 'react';
import { pollWhile, useLiveEvents } from '../../../live/useLive';
import type { TaskCounts } from './states';

const POLL_MS = 5000;
const RELOAD_AFTER_MS = 800;

/**
 * Task progress as the server publishes it (live events of a kind of task, "ota" unless told): the latest counts per
 * task, and a reload of the list soon after a change (states, waves), at most every 0.8 s. While
 * the stream is down the list is polled every 5 s instead (the spec's polling). Nothing listens
 * or polls while `active` is false (a closed dialog, a list without open tasks).
 */
export function useLiveTaskProgress(reload: () => void, active: boolean, kind = 'ota') {
  const [progress, setProgress] = useState<Record<number, TaskCounts & { finished: boolean }>>({});
  const timer = useRef<number | undefined>(undefined);
  const reloadRef = useRef(reload);
  useEffect(() => {
    reloadRef.current = reload;
  });
  const connected = useLiveEvents((event) => {
    if (event.type !== 'taskProgress' || event.kind !== kind) return;
    setProgress((old) => ({
      ...old,
      [Number(event.taskId)]: {
        done: event.done,
        failed: event.failed,
        total: event.total,
        finished: event.finished,
      },
    }));
    if (timer.current === undefined)
      timer.current = window.setTimeout(() => {
        timer.current = undefined;
        reloadRef.current();
      }, RELOAD_AFTER_MS);
  }, active);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  // Progress published before this view listened (a task that finished while its dialog opened)
  // is read once the stream is up.
  useEffect(() => {
    if (active && connected) reloadRef.current();
  }, [active, connected]);
  const interval = active ? pollWhile(connected, POLL_MS) : false;
  useEffect(() => {
    if (interval === false) return;
    const id = window.setInterval(() => reloadRef.current(), interval);
    return () => window.clearInterval(id);
  }, [interval]);
  return { progress, connected };
}
