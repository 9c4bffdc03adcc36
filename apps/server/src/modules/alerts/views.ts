import { alerts as contract } from '@panelfleet/contract';
import type { AlertRow } from './lifecycle-repository.js';
import type { RuleRow } from './repository.js';

/** A stored rule's JSON columns, read back through the contract's schemas. */
export function ruleParts(row: RuleRow) {
  return {
    condition: contract.alertCondition.parse(JSON.parse(row.condition)),
    labelIds: (JSON.parse(row.label_ids) as number[]).filter(Number.isInteger),
    channels: contract.alertChannels.parse(JSON.parse(row.channels)),
  };
}

export function ruleView(
  row: RuleRow,
  labelNames: Map<number, string>,
  openAlerts: number,
): contract.AlertRule {
  const { condition, labelIds, channels } = ruleParts(row);
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled === 1,
    severity: row.severity as contract.AlertSeverity,
    condition,
    durationSeconds: row.duration_seconds,
    labelIds,
    labelNames: labelIds.map((id) => labelNames.get(id) ?? ''),
    channels,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    openAlerts,
  };
}

const num = (value: number | string | bigint | null) => (value === null ? null : Number(value));

export function alertView(row: AlertRow, companyName: string): contract.Alert {
  return {
    id: row.id,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    kind: row.kind as contract.AlertRuleKind,
    severity: row.severity as contract.AlertSeverity,
    state: row.state,
    subject: {
      type: row.subject_type as contract.AlertSubject['type'],
      id: row.subject_key.slice(row.subject_key.indexOf(':') + 1),
      name: row.subject_name,
      ...(row.device_key ? { deviceKey: row.device_key } : {}),
      ...(row.task_kind ? { taskKind: row.task_kind as contract.AlertTaskKind } : {}),
    },
    companyId: row.company_id,
    companyName,
    detailKey: row.detail_key,
    detailVars: JSON.parse(row.detail_vars) as Record<string, string | number>,
    raisedAt: Number(row.raised_at),
    lastSeenAt: Number(row.last_seen_at),
    acknowledgedAt: num(row.acknowledged_at),
    acknowledgedBy: row.acknowledged_by,
    note: row.note,
    clearedAt: num(row.cleared_at),
    clearedBy: row.cleared_by,
  };
}
