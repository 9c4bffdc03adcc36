import { reportTime } from '@panelfleet/contract';
import type { TFunction } from 'i18next';
import { CONTRACT_NS } from '../../i18n';

/** A report duration in 天/小时/分钟/秒 or d/h/min/s (the same words as the preview and export). */
export function reportDuration(ms: number, t: TFunction, language: string): string {
  const word = (unit: string) => t(`report.duration.${unit}`, { ns: CONTRACT_NS });
  return reportTime.formatReportDuration(
    ms,
    { d: word('d'), h: word('h'), m: word('m'), s: word('s') },
    language.startsWith('zh') ? '' : ' ',
  );
}
