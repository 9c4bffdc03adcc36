import type { alerts } from '@panelfleet/contract';

/** The notification centre's filters as the form holds them. */
export interface CentreFilter {
  states: alerts.AlertState[];
  severities: alerts.AlertSeverity[];
  ruleIds: number[];
  q: string;
  /** Raised within [from, to) in ms, either end open. */
  from?: number;
  to?: number;
}

/** Open alerts (active and acknowledged), as the centre opens and as the server lists by default. */
export const OPEN_ALERTS: CentreFilter = {
  states: ['active', 'acknowledged'],
  severities: [],
  ruleIds: [],
  q: '',
};

/** The list's and the export's query: comma lists, empty filters left out. */
export function filterParams(filter: CentreFilter): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  if (filter.states.length) params.states = filter.states.join(',');
  if (filter.severities.length) params.severities = filter.severities.join(',');
  if (filter.ruleIds.length) params.ruleIds = filter.ruleIds.join(',');
  if (filter.q.trim()) params.q = filter.q.trim();
  if (filter.from !== undefined) params.from = filter.from;
  if (filter.to !== undefined) params.to = filter.to;
  return params;
}
