import type { alerts } from '@panelfleet/contract';

type Severity = alerts.AlertSeverity;

/** Ant Design tag colours of the severities, the most urgent first. */
export const SEVERITY_COLORS: Record<Severity, string> = {
  critical: 'red',
  major: 'volcano',
  minor: 'gold',
  info: 'blue',
};

type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** What a condition watches, in words ("Offline longer than 10 minutes"). */
export function conditionText(condition: alerts.AlertCondition, t: Translate): string {
  const tasks = (kinds: readonly alerts.AlertTaskKind[]) =>
    kinds.map((kind) => t(`alerts.taskKind.${kind}`)).join(t('alerts.listSeparator'));
  switch (condition.kind) {
    case 'offline':
    case 'silent':
      return t(`alerts.condition.${condition.kind}`, { minutes: condition.minutes });
    case 'taskFailures':
      return t('alerts.condition.taskFailures', {
        tasks: tasks(condition.taskKinds),
        percent: condition.percent,
      });
    case 'taskPaused':
    case 'taskFinished':
      return t(`alerts.condition.${condition.kind}`, { tasks: tasks(condition.taskKinds) });
    case 'abnormalLogs':
      return t('alerts.condition.abnormalLogs', { count: condition.count, minutes: condition.minutes });
    case 'threshold':
      return t(`alerts.condition.threshold.${condition.direction}`, {
        metric: t(`alerts.metric.${condition.metric}`),
        value: condition.value,
      });
    case 'commandFailed':
      return t('alerts.condition.commandFailed');
    case 'expiring':
      return t(`alerts.condition.expiring.${condition.what}`, { days: condition.days });
  }
}
