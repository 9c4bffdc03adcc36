import type { alerts as contract } from '@panelfleet/contract';

/** Rows per statement when a list of keys or rows is written. */
export const CHUNK = 200;

export function chunked<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A subject for which a rule's condition holds now. */
export interface Candidate {
  subjectKey: string;
  subjectType: contract.AlertSubject['type'];
  subjectName: string;
  deviceId: number | null;
  deviceKey: string | null;
  taskKind: contract.AlertTaskKind | null;
  companyId: number;
  /** When the condition began to hold; null: unknown (kept in alert_pending). */
  since: number | null;
  detailKey: string;
  detailVars: Record<string, string | number>;
}

/** What a rule's evaluation reads of the rule. */
export interface RuleTarget {
  id: number;
  orgId: number;
  createdAt: number;
  condition: contract.AlertCondition;
  /** Customer companies whose panels the rule watches. */
  companyIds: number[];
  labelIds: number[];
}
