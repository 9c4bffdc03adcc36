import { useEffect, useState } from 'react';
import { List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { notifications } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { deliveryKey, FINAL_STATUSES, summarize } from './deliveryState';

const POLL_MS = 2000;
/** A panel has ten minutes to take a command; after that nothing changes any more. */
const GIVE_UP_MS = 11 * 60_000;
/** Panels named one by one; a larger label send is summed up. */
const LISTED = 5;
const LOOKED_UP = 500;

/**
 * Follows a sent notification until every panel has shown it or failed: what the operator sees
 * after the send dialog closed (the panels' own acknowledgements, not the send reply).
 */
export function DeliveryProgress({ commandIds }: { commandIds: string[] }) {
  const { t } = useTranslation();
  const [deliveries, setDeliveries] = useState<notifications.Delivery[]>([]);

  useEffect(() => {
    const ids = commandIds.slice(0, LOOKED_UP);
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const reply = await call(notifications.selectDelivery, { commandIds: ids.join(',') }, { quietFail: true });
        if (stopped) return;
        setDeliveries(reply.listObject);
        const open = reply.listObject.some((d) => !FINAL_STATUSES.includes(d.status));
        if (open && Date.now() - started < GIVE_UP_MS) timer = setTimeout(() => void poll(), POLL_MS);
      } catch (error) {
        alreadyReported(error);
      }
    };
    void poll();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [commandIds]);

  const summary = summarize(Math.min(commandIds.length, LOOKED_UP), deliveries);
  return (
    <div data-testid="notice-delivery">
      <Typography.Text data-testid="notice-delivery-summary">
        {t('notice.deliverySummary', { done: summary.done, failed: summary.failed, waiting: summary.waiting, total: commandIds.length })}
      </Typography.Text>
      <List
        size="small"
        dataSource={deliveries.slice(0, LISTED)}
        renderItem={(delivery) => (
          <List.Item data-testid="notice-delivery-row" data-device-key={delivery.deviceKey} data-status={delivery.status} data-detail={delivery.detail}>
            <Typography.Text ellipsis style={{ maxWidth: 140 }}>{delivery.deviceName}</Typography.Text>
            <Typography.Text type={delivery.status === 'succeeded' ? 'success' : FINAL_STATUSES.includes(delivery.status) ? 'danger' : 'secondary'}>
              {t(deliveryKey(delivery), { detail: delivery.detail })}
            </Typography.Text>
          </List.Item>
        )}
      />
    </div>
  );
}
