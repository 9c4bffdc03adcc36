import { App, Drawer, Select, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { webhooks } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { formatDateTime } from '../../../format/dateTime';
import { AttemptList } from './AttemptList';
import { operationsColumn, RowAction } from '../../../lists/RowActions';
import { useFilteredList } from '../../../lists/usePagedList';

type Delivery = webhooks.WebhookDelivery;
type State = (typeof webhooks.DELIVERY_STATES)[number];

const STATE_COLORS: Record<State, string> = {
  pending: 'default',
  succeeded: 'green',
  retrying: 'gold',
  failed: 'red',
};

interface DeliveriesDrawerProps {
  hook: webhooks.Webhook | undefined;
  mayRedeliver: boolean;
  onClose(): void;
}

/** A webhook's delivery log, newest first, by state; a delivery can be sent again by hand. */
export function DeliveriesDrawer({ hook, mayRedeliver, onClose }: DeliveriesDrawerProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const webhookId = hook?.id ?? 0;
  const list = useFilteredList<Delivery, State>(`webhookDeliveries-${webhookId}`, (start, size, state) =>
    hook
      ? call(webhooks.listWebhookDeliveries, { start, size, webhookId, ...(state ? { state } : {}) })
      : Promise.resolve({ listObject: [], totalRecords: 0 }),
  );
  const redeliver = async (delivery: Delivery) => {
    try {
      const reply = await call(webhooks.redeliver, { id: delivery.id });
      void message.success(reply.hhtMsg || t('alerts.webhook.redelivered'), NOTICE_SECONDS);
      list.reload();
    } catch (error) {
      alreadyReported(error);
    }
  };
  const columns: TableColumnsType<Delivery> = [
    {
      title: t('alerts.delivery.event'),
      dataIndex: 'eventType',
      render: (_, row) => t(`alerts.event.${row.eventType}`),
    },
    {
      title: t('alerts.delivery.state'),
      dataIndex: 'state',
      width: 110,
      render: (_, row) => (
        <Tag color={STATE_COLORS[row.state]} data-testid="delivery-state">
          {t(`alerts.deliveryState.${row.state}`)}
        </Tag>
      ),
    },
    { title: t('alerts.delivery.attempts'), dataIndex: 'attempts', width: 80 },
    {
      title: t('alerts.delivery.httpStatus'),
      dataIndex: 'httpStatus',
      width: 110,
      render: (_, row) =>
        row.httpStatus === null
          ? ''
          : `${row.httpStatus}${row.durationMs === null ? '' : ` · ${row.durationMs} ms`}`,
    },
    {
      title: t('alerts.delivery.time'),
      dataIndex: 'createdAt',
      width: 170,
      render: (_, row) => formatDateTime(row.lastAttemptAt ?? row.createdAt),
    },
    {
      title: t('alerts.delivery.error'),
      dataIndex: 'error',
      ellipsis: { showTitle: false },
      render: (_, row) =>
        row.error ? (
          <Tooltip title={row.error}>
            <span>{row.error}</span>
          </Tooltip>
        ) : row.nextAttemptAt ? (
          t('alerts.delivery.next', { time: formatDateTime(row.nextAttemptAt) })
        ) : (
          ''
        ),
    },
    ...(mayRedeliver
      ? [
          operationsColumn<Delivery>(
            t('lists.operations'),
            (row) => (
              <RowAction
                label={t('alerts.webhook.redeliver')}
                testId="delivery-redeliver"
                onClick={() => void redeliver(row)}
              />
            ),
            110,
          ),
        ]
      : []),
  ];
  return (
    <Drawer
      open={hook !== undefined}
      onClose={onClose}
      width={980}
      title={t('alerts.webhook.deliveriesOf', { name: hook?.name ?? '' })}
      destroyOnHidden
    >
      <div data-testid="webhook-delivery-log">
        <Select<State>
          allowClear
          data-testid="delivery-filter-state"
          placeholder={t('alerts.delivery.state')}
          style={{ width: 180, marginBottom: 16 }}
          onChange={(state) => list.filter(state)}
          options={webhooks.DELIVERY_STATES.map((state) => ({
            value: state,
            label: t(`alerts.deliveryState.${state}`),
          }))}
        />
        <Table<Delivery>
          rowKey="id"
          columns={columns}
          dataSource={list.rows}
          loading={list.loading}
          pagination={list.pagination}
          tableLayout="fixed"
          size="small"
          expandable={{ expandedRowRender: (row) => <AttemptList deliveryId={row.id} /> }}
        />
      </div>
    </Drawer>
  );
}
