import { alerts } from '@panelfleet/contract';

type Kind = alerts.AlertRuleKind;

/** The rule dialog's fields: one flat form, the condition's parameters by the chosen kind. */
export interface RuleFormValues {
  name: string;
  enabled: boolean;
  severity: alerts.AlertSeverity;
  kind: Kind;
  minutes?: number;
  percent?: number;
  taskKinds?: alerts.AlertTaskKind[];
  count?: number;
  apps?: string[];
  metric?: alerts.AlertMetric;
  direction?: 'above' | 'below';
  value?: number;
  what?: 'certificate' | 'licence';
  days?: number;
  durationSeconds: number;
  labelIds: number[];
  emailUserIds: number[];
  emailAddresses: string[];
  emailMode: 'grouped' | 'digest';
  webhookIds: number[];
}

/** The parameters each kind's form shows, in order. */
export const KIND_FIELDS: Record<Kind, (keyof RuleFormValues)[]> = {
  offline: ['minutes'],
  silent: ['minutes'],
  taskFailures: ['taskKinds', 'percent'],
  taskPaused: ['taskKinds'],
  taskFinished: ['taskKinds'],
  abnormalLogs: ['count', 'minutes', 'apps'],
  threshold: ['metric', 'direction', 'value'],
  commandFailed: [],
  expiring: ['what', 'days'],
};

/** A new rule's values: a panel offline for 10 minutes, held 60 s, every panel, grouped mail. */
export const NEW_RULE: RuleFormValues = {
  name: '',
  enabled: true,
  severity: 'major',
  kind: 'offline',
  minutes: 10,
  percent: 30,
  taskKinds: ['ota'],
  count: 10,
  apps: [],
  metric: 'cpuTemperature',
  direction: 'above',
  value: 80,
  what: 'certificate',
  days: 30,
  durationSeconds: 60,
  labelIds: [],
  emailUserIds: [],
  emailAddresses: [],
  emailMode: 'grouped',
  webhookIds: [],
};

/** A saved rule as the dialog shows it. */
export function ruleToForm(rule: alerts.AlertRule): RuleFormValues {
  return {
    ...NEW_RULE,
    ...rule.condition,
    name: rule.name,
    enabled: rule.enabled,
    severity: rule.severity,
    durationSeconds: rule.durationSeconds,
    labelIds: rule.labelIds,
    emailUserIds: rule.channels.emailUserIds,
    emailAddresses: rule.channels.emailAddresses,
    emailMode: rule.channels.emailMode,
    webhookIds: rule.channels.webhookIds,
  };
}

/** The condition of the chosen kind with only that kind's parameters. */
export function conditionOf(values: RuleFormValues): unknown {
  const picked: Record<string, unknown> = { kind: values.kind };
  for (const field of KIND_FIELDS[values.kind]) picked[field] = values[field];
  return picked;
}

/** What the save call sends (the contract's schema checks it, here and on the server). */
export function formToInput(values: RuleFormValues, id: number | undefined) {
  return {
    ...(id ? { id } : {}),
    name: values.name,
    enabled: values.enabled,
    severity: values.severity,
    condition: conditionOf(values) as alerts.AlertCondition,
    durationSeconds: values.durationSeconds,
    labelIds: values.labelIds,
    channels: {
      emailUserIds: values.emailUserIds,
      emailAddresses: values.emailAddresses,
      emailMode: values.emailMode,
      webhookIds: values.webhookIds,
    },
  };
}
