import type { OtaLogStatus, TargetState } from '@panelfleet/contract';

/**
 * The catalog key of what happened to a panel, in words: status 3 is a skip (already up to date,
 * say) or a cancel, not a fault; a failure for want of an answer says it timed out.
 */
export function outcomeKey(row: { status: OtaLogStatus; state: TargetState; reason: string }): string {
  if (row.state === 'skipped' || row.state === 'cancelled') return `ota.log.outcomes.${row.state}`;
  if (row.state === 'failed' && row.reason === 'timedOut') return 'ota.log.outcomes.timedOut';
  return `ota.log.statuses.${row.status}`;
}
