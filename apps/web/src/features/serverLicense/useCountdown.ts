import { useEffect, useState } from 'react';

/** Counts whole seconds down from `seconds` while `running`; calls `onDone` once at zero. */
export function useCountdown(seconds: number, running: boolean, onDone: () => void): number {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (!running) {
      setLeft(seconds);
      return undefined;
    }
    const timer = window.setInterval(() => setLeft((value) => Math.max(0, value - 1)), 1000);
    return () => window.clearInterval(timer);
  }, [running, seconds]);
  useEffect(() => {
    if (running && left === 0) onDone();
  }, [running, left, onDone]);
  return left;
}
