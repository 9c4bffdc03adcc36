import type { alerts } from '@panelfleet/contract';

type Severity = alerts.AlertSeverity;

/** Ant Design tag colours of the severities, the most urgent first. */
export const SEVERITY_COLORS: Record<Severity, string> = {
  critical: 'red',
  major: 'volcano',
  minor: 'gold',
  info: 'blue',
};

/** The badge colour of the bell: that of the most urgent severity with an active alert. */
export function bellColor(bySeverity: Partial<Record<Severity, number>>): string | undefined {
  const order: Severity[] = ['critical', 'major', 'minor', 'info'];
  const worst = order.find((severity) => (bySeverity[severity] ?? 0) > 0);
  return worst ? BADGE_COLORS[worst] : undefined;
}

const BADGE_COLORS: Record<Severity, string> = {
  critical: '#f5222d',
  major: '#fa541c',
  minor: '#faad14',
  info: '#1677ff',
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
