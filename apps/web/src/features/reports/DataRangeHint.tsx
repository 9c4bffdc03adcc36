import { Button, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { reports } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';

/**
 * Which days a report's data span, with a button that shows them all (the default range, today,
 * is often empty: panels report hours they kept while offline, and history goes back weeks).
 */
export function DataRangeHint({
  kind,
  timeZone,
  onShow,
}: {
  kind: reports.ReportKind;
  timeZone: string;
  onShow: (firstDay: string, lastDay: string) => void;
}) {
  const { t } = useTranslation();
  const range = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'reportDataRange', kind, timeZone],
    queryFn: () => call(reports.reportDataRange, { report: kind, timeZone }).then((r) => r.dataObject),
  });
  if (!range.data) return null;
  const { firstDay, lastDay } = range.data;
  return (
    <div data-testid={`report-data-range-${kind}`} style={{ marginBottom: 12 }}>
      {firstDay && lastDay ? (
        <Typography.Text type="secondary">
          {t('report.dataRange', { from: firstDay, to: lastDay })}{' '}
          <Button
            type="link"
            size="small"
            data-testid="report-show-data"
            onClick={() => onShow(firstDay, lastDay)}
          >
            {t('report.showData')}
          </Button>
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary">{t('report.noDataYet')}</Typography.Text>
      )}
    </div>
  );
}
