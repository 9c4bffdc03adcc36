import { Table, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { webhooks } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { formatDateTime } from '../../../format/dateTime';
import { ALERTS_KEY } from '../useAlertCounts';

type Attempt = webhooks.WebhookAttempt;

/** Every attempt of one delivery, oldest first: when, the receiver's status and time, the error. */
export function AttemptList({ deliveryId }: { deliveryId: number }) {
  const { t } = useTranslation();
  const attempts = useQuery({
    queryKey: [...ALERTS_KEY, 'attempts', deliveryId],
    queryFn: () => call(webhooks.listDeliveryAttempts, { deliveryId }).then((reply) => reply.listObject),
  });
  const columns: TableColumnsType<Attempt> = [
    {
      title: t('alerts.delivery.time'),
      dataIndex: 'at',
      width: 170,
      render: (_, row) => formatDateTime(row.at),
    },
    {
      title: t('alerts.delivery.httpStatus'),
      dataIndex: 'httpStatus',
      width: 140,
      render: (_, row) =>
        `${row.httpStatus ?? t('alerts.webhook.noAnswer')}${row.durationMs === null ? '' : ` · ${row.durationMs} ms`}`,
    },
    { title: t('alerts.delivery.error'), dataIndex: 'error', ellipsis: true },
  ];
  return (
    <Table<Attempt>
      data-testid="delivery-attempts"
      rowKey={(row) => `${row.at}-${row.httpStatus ?? ''}-${row.error ?? ''}`}
      columns={columns}
      dataSource={attempts.data ?? []}
      loading={attempts.isFetching}
      pagination={false}
      size="small"
    />
  );
}
