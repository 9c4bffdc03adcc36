import type { alerts } from '@panelfleet/contract';

type Severity = alerts.AlertSeverity;

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
