import { FINAL_TARGET_STATES, type TargetState } from '@panelfleet/contract';
import type { StateCount } from './repository.js';

/** Panels of one wave by state. */
export function tally(counts: StateCount[]) {
  const by = (state: TargetState) => counts.filter((c) => c.state === state).reduce((n, c) => n + c.n, 0);
  const total = counts.reduce((n, c) => n + c.n, 0);
  const finals = FINAL_TARGET_STATES.reduce((n, s) => n + by(s), 0);
  return {
    total,
    succeeded: by('succeeded'),
    failed: by('failed'),
    skipped: by('skipped'),
    cancelled: by('cancelled'),
    open: total - finals,
  };
}
