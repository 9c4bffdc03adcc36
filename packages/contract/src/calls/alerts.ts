import { z } from 'zod';
import { defineCall } from '../call.js';
import { users } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { optionalText, pageParams, requiredText } from '../rules.js';
import { MAX_RECORD_ID, isRecordId, recordId } from '../ids.js';

const tag = 'alerts';

/**
 * Alerts (issue 26): rules an organisation sets on its own panels and tasks, the alerts they raise
 * (active -> acknowledged -> cleared), and where they are sent (the console, e-mail, webhooks).
 * Every user who sees panels has alerts within the panels of their fleet scope: a company its own,
 * a distributor those of its customers, the platform every company's.
 */
export const alertUsers = users(['0', '1', '2', '3', '4']);

export const ALERT_SEVERITIES = ['critical', 'major', 'minor', 'info'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ALERT_STATES = ['active', 'acknowledged', 'cleared'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const TASK_KINDS = ['ota', 'apk', 'program'] as const;
export type AlertTaskKind = (typeof TASK_KINDS)[number];

/** Reported values a threshold rule may watch (protocol state report fields, derived where said). */
export const ALERT_METRICS = [
  'cpuTemperature',
  /** 100 x ramUsed / ramTotal. */
  'ramUsedPercent',
  'networkIntensity',
  'brightness',
  'volume',
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

/** Limits of rule parameters. */
export const ALERT_MAX_MINUTES = 7 * 24 * 60;
export const ALERT_MAX_DURATION_SECONDS = 24 * 3600;
export const ALERT_MAX_DAYS = 365;
export const ALERT_MAX_RECIPIENTS = 50;
export const ALERT_MAX_RULE_LABELS = 100;
export const ALERT_MAX_BULK = 500;

const minutes = z.coerce
  .number({ error: 'alert.minutesInvalid' })
  .int({ error: 'alert.minutesInvalid' })
  .min(1, { error: 'alert.minutesInvalid' })
  .max(ALERT_MAX_MINUTES, { error: 'alert.minutesInvalid' });
const taskKinds = z.array(z.enum(TASK_KINDS, { error: 'alert.taskKindInvalid' })).min(1, {
  error: 'alert.taskKindInvalid',
});

/** What a rule watches, with its parameters. */
export const alertCondition = z.discriminatedUnion(
  'kind',
  [
    /** A panel offline longer than `minutes`. */
    z.object({ kind: z.literal('offline'), minutes }),
    /** A panel (online) that sent no state report for `minutes`. */
    z.object({ kind: z.literal('silent'), minutes }),
    /** A task of these kinds whose failed share of its panels passed `percent` (once it has >= 1 failure). */
    z.object({
      kind: z.literal('taskFailures'),
      taskKinds,
      percent: z.coerce
        .number({ error: 'alert.percentInvalid' })
        .min(0, { error: 'alert.percentInvalid' })
        .max(100, { error: 'alert.percentInvalid' }),
    }),
    /** A staged task paused by its health gate. */
    z.object({ kind: z.literal('taskPaused'), taskKinds }),
    /** A task finished (info): cleared by hand or after a day. */
    z.object({ kind: z.literal('taskFinished'), taskKinds }),
    /** More than `count` abnormal logs of a panel within `minutes`; `apps` narrows to those app names (empty: any). */
    z.object({
      kind: z.literal('abnormalLogs'),
      count: z.coerce
        .number({ error: 'alert.countInvalid' })
        .int({ error: 'alert.countInvalid' })
        .min(1, { error: 'alert.countInvalid' })
        .max(100_000, { error: 'alert.countInvalid' }),
      minutes,
      apps: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
    }),
    /** A reported value past a threshold (`above`: value > threshold; `below`: value < threshold). */
    z.object({
      kind: z.literal('threshold'),
      metric: z.enum(ALERT_METRICS, { error: 'alert.metricInvalid' }),
      direction: z.enum(['above', 'below'], { error: 'alert.directionInvalid' }),
      value: z.coerce
        .number({ error: 'alert.thresholdInvalid' })
        .min(-1_000_000, { error: 'alert.thresholdInvalid' })
        .max(1_000_000, { error: 'alert.thresholdInvalid' }),
    }),
    /** A command to a panel failed or expired. Cleared by hand or by the panel's next succeeded command. */
    z.object({ kind: z.literal('commandFailed') }),
    /** A certificate or a licence expiring within `days` (or expired). */
    z.object({
      kind: z.literal('expiring'),
      what: z.enum(['certificate', 'licence'], { error: 'alert.expiringInvalid' }),
      days: z.coerce
        .number({ error: 'alert.daysInvalid' })
        .int({ error: 'alert.daysInvalid' })
        .min(0, { error: 'alert.daysInvalid' })
        .max(ALERT_MAX_DAYS, { error: 'alert.daysInvalid' }),
    }),
  ],
  { error: 'alert.kindInvalid' },
);
export type AlertCondition = z.infer<typeof alertCondition>;
export type AlertRuleKind = AlertCondition['kind'];
export const ALERT_RULE_KINDS = alertCondition.options.map((o) => o.shape.kind.value) as AlertRuleKind[];

/** Where a rule's alerts go besides the console (which always shows them). */
export const alertChannels = z.object({
  /** Users of the rule's organisation (by id) and other addresses; each gets mail in its language. */
  emailUserIds: z
    .array(z.number().int().min(1).max(MAX_RECORD_ID))
    .max(ALERT_MAX_RECIPIENTS, { error: 'alert.tooManyRecipients' })
    .default([]),
  emailAddresses: z
    .array(z.string().trim().email({ error: 'alert.emailInvalid' }).max(254))
    .max(ALERT_MAX_RECIPIENTS, { error: 'alert.tooManyRecipients' })
    .default([]),
  /** `grouped`: one mail per batch window listing every alert raised in it; `digest`: one mail a day. */
  emailMode: z.enum(['grouped', 'digest'], { error: 'alert.emailModeInvalid' }).default('grouped'),
  /** Webhooks of the organisation that receive this rule's alert events. */
  webhookIds: z.array(z.number().int().min(1).max(MAX_RECORD_ID)).max(20).default([]),
});
export type AlertChannels = z.infer<typeof alertChannels>;

export const alertRule = z.object({
  id: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  severity: z.enum(ALERT_SEVERITIES),
  condition: alertCondition,
  /** The condition must hold this long before an alert is raised (no alert for a 20 s blip). */
  durationSeconds: z.number().int(),
  /** Label ids; empty: every panel of the scope. */
  labelIds: z.array(z.number().int()),
  /** Names of those labels, for the list. */
  labelNames: z.array(z.string()),
  channels: alertChannels,
  createdBy: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  /** Alerts of this rule now active or acknowledged. */
  openAlerts: z.number().int(),
});
export type AlertRule = z.infer<typeof alertRule>;

export const alertRuleInput = z.object({
  /** Absent: a new rule. */
  id: z.number().int().min(1).max(MAX_RECORD_ID).optional(),
  name: requiredText('alert.nameNull', 64),
  enabled: z.boolean().default(true),
  severity: z.enum(ALERT_SEVERITIES, { error: 'alert.severityInvalid' }),
  condition: alertCondition,
  durationSeconds: z.coerce
    .number({ error: 'alert.durationInvalid' })
    .int({ error: 'alert.durationInvalid' })
    .min(0, { error: 'alert.durationInvalid' })
    .max(ALERT_MAX_DURATION_SECONDS, { error: 'alert.durationInvalid' })
    .default(0),
  labelIds: z
    .array(z.number().int())
    .max(ALERT_MAX_RULE_LABELS)
    .refine((list) => list.every(isRecordId), { error: 'label.notFound' })
    .default([]),
  channels: alertChannels.default({
    emailUserIds: [],
    emailAddresses: [],
    emailMode: 'grouped',
    webhookIds: [],
  }),
});
export type AlertRuleInput = z.output<typeof alertRuleInput>;

const idParam = z.object({ id: recordId('common.invalidId') });

export const listAlertRules = defineCall({
  method: 'GET',
  path: '/alerts/rules',
  summary: "One page of the caller's organisation's alert rules, newest first",
  tag,
  access: alertUsers,
  params: pageParams,
  reply: listReply(alertRule),
});

export const saveAlertRule = defineCall({
  method: 'POST',
  path: '/alerts/rules/save',
  summary: 'Create an alert rule (no id) or change one of the organisation (id); JSON body',
  tag,
  access: alertUsers,
  params: alertRuleInput,
  reply: itemReply(alertRule),
});

export const deleteAlertRule = defineCall({
  method: 'POST',
  path: '/alerts/rules/delete',
  summary: "Delete an alert rule; its open alerts are cleared, its alerts' history is kept",
  tag,
  access: alertUsers,
  params: idParam,
  reply: emptyReply,
});

/** What an alert is about. */
export const alertSubject = z.object({
  type: z.enum(['device', 'task', 'certificate', 'licence']),
  /** Device id, task id (`<kind>:<id>`), certificate or licence id. */
  id: z.string(),
  name: z.string(),
  /** For a device: its serial number (device key). */
  deviceKey: z.string().optional(),
  taskKind: z.enum(TASK_KINDS).optional(),
});
export type AlertSubject = z.infer<typeof alertSubject>;

export const alert = z.object({
  id: z.number().int(),
  ruleId: z.number().int(),
  ruleName: z.string(),
  kind: z.enum(ALERT_RULE_KINDS as [AlertRuleKind, ...AlertRuleKind[]]),
  severity: z.enum(ALERT_SEVERITIES),
  state: z.enum(ALERT_STATES),
  subject: alertSubject,
  /** The company the subject belongs to. */
  companyId: z.number().int(),
  companyName: z.string(),
  /** What was seen, as an i18n key of the contract catalogs and its values (rendered by the console). */
  detailKey: z.string(),
  detailVars: z.record(z.string(), z.union([z.string(), z.number()])),
  raisedAt: z.number().int(),
  /** Last time the condition was seen to hold. */
  lastSeenAt: z.number().int(),
  acknowledgedAt: z.number().int().nullable(),
  acknowledgedBy: z.string().nullable(),
  note: z.string().nullable(),
  clearedAt: z.number().int().nullable(),
  /** Null when cleared automatically (the condition ended) or not cleared. */
  clearedBy: z.string().nullable(),
});
export type Alert = z.infer<typeof alert>;

const commaIds = z
  .string()
  .max(10_000)
  .transform((text) =>
    text
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map(Number),
  )
  .refine((list) => list.every(isRecordId), { error: 'common.invalidId' });

/** Filters of the notification centre, its export and its counts. */
export const alertFilter = z.object({
  /** Comma-separated states; absent: active and acknowledged. */
  states: z
    .string()
    .max(100)
    .transform((text) => text.split(',').filter(Boolean))
    .pipe(z.array(z.enum(ALERT_STATES, { error: 'alert.stateInvalid' })))
    .optional(),
  severities: z
    .string()
    .max(100)
    .transform((text) => text.split(',').filter(Boolean))
    .pipe(z.array(z.enum(ALERT_SEVERITIES, { error: 'alert.severityInvalid' })))
    .optional(),
  ruleIds: commaIds.optional(),
  deviceId: z.coerce.number().int().min(1).max(MAX_RECORD_ID).optional(),
  /** Any part of the subject's name or serial number, or of the rule's name. */
  q: optionalText(100),
  /** Raised at or after / before (ms since the epoch). */
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
});
export type AlertFilter = z.output<typeof alertFilter>;

export const listAlerts = defineCall({
  method: 'GET',
  path: '/alerts/list',
  summary:
    "One page of alerts of the caller's fleet scope, newest first, by state, severity, rule, panel, text and time",
  tag,
  access: alertUsers,
  params: pageParams.merge(alertFilter),
  reply: listReply(alert),
});

export const alertCounts = z.object({
  /** Alerts now active (not acknowledged) in the caller's scope: the bell's number. */
  active: z.number().int(),
  acknowledged: z.number().int(),
  bySeverity: z.record(z.enum(ALERT_SEVERITIES), z.number().int()),
});

export const countAlerts = defineCall({
  method: 'GET',
  path: '/alerts/count',
  summary: "How many alerts of the caller's scope are active and acknowledged (the header's bell)",
  tag,
  access: alertUsers,
  params: z.object({}),
  reply: itemReply(alertCounts),
});

const bulkParams = z.object({
  ids: z
    .array(z.number().int())
    .min(1, { error: 'alert.chooseAlerts' })
    .max(ALERT_MAX_BULK, { error: 'alert.tooMany' })
    .refine((list) => list.every(isRecordId), { error: 'common.invalidId' }),
  note: optionalText(500),
});

export const acknowledgeAlerts = defineCall({
  method: 'POST',
  path: '/alerts/acknowledge',
  summary: 'Acknowledge active alerts of the scope (by whom, with an optional note); JSON body',
  tag,
  access: alertUsers,
  params: bulkParams,
  reply: itemReply(z.object({ changed: z.number().int() })),
});

export const clearAlerts = defineCall({
  method: 'POST',
  path: '/alerts/clear',
  summary: 'Clear active or acknowledged alerts of the scope by hand; JSON body',
  tag,
  access: alertUsers,
  params: bulkParams,
  reply: itemReply(z.object({ changed: z.number().int() })),
});

export const exportAlerts = defineCall({
  method: 'GET',
  path: '/alerts/export',
  summary:
    'The alerts matching the filters as an Excel workbook (at most 100,000 rows), in the caller language',
  tag,
  access: alertUsers,
  params: alertFilter,
  reply: z.unknown(),
  produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
});
