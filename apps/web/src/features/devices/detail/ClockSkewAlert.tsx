import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import type { deviceDetail } from '@panelfleet/contract';
import { formatDateTime } from '../../../format/dateTime';
import { clockSkewOf } from './format';

/**
 * A warning when the panel's own clock is off by more than a minute (its newest report with a
 * time says so): the times it reports itself are off as much; the server still keeps its reports in order.
 */
export function ClockSkewAlert({ detail }: { detail: deviceDetail.DeviceDetail }) {
  const { t } = useTranslation();
  const skew = clockSkewOf(detail.clockOffsetMs);
  if (!skew) return null;
  const amount = skew.parts.map((p) => t(`deviceDetail.clock.unit.${p.unit}`, { n: p.n })).join(' ');
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="detail-clock-skew"
      style={{ marginBottom: 12 }}
      title={t(skew.ahead ? 'deviceDetail.clock.ahead' : 'deviceDetail.clock.behind', { amount })}
      description={t('deviceDetail.clock.consequence', { at: formatDateTime(detail.clockCheckedAt) })}
    />
  );
}
