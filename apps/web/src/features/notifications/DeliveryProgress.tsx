import { useEffect, useRef, useState } from 'react';
import { List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { notifications } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { useLiveEvents } from '../../live/useLive';
import { deliveryKey, FINAL_STATUSES, summarize } from './deliveryState';

const POLL_MS = 2000;
/** While the live console is up, results arrive as events; a slow read catches anything missed. */
const LIVE_POLL_MS = 15_000;
/** Results of a label send arrive in bursts: one read for a burst. */
const EVENT_READ_MS = 200;
/** A panel has ten minutes to take a command; after that nothing changes any more. */
const GIVE_UP_MS = 11 * 60_000;
/** Panels named one by one; a larger label send is summed up. */
const LISTED = 5;
const LOOKED_UP = 500;
const REPORT_PAGE = 10;

/**
 * Follows a sent notification until every panel has shown it or failed: what the operator sees
 * after the send dialog closed (the panels' own acknowledgements, not the send reply).
 */
export function DeliveryProgress({
  commandIds,
  listAll = false,
}: {
  commandIds: string[];
  /** Every panel, ten a page (the Broadcast tab's report), instead of the first five. */
  listAll?: boolean;
}) {
  const { t } = useTranslation();
  const [deliveries, setDeliveries] = useState<notifications.Delivery[]>([]);
  const readNow = useRef<() => void>(undefined);
  const live = useRef(false);
  live.current = useLiveEvents((event) => {
    if (event.type === 'command' && commandIds.includes(event.commandId)) readNow.current?.();
  });

  useEffect(() => {
    const ids = commandIds.slice(0, LOOKED_UP);
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let reading = false;
    /** An event arrived while a read was on its way: read once more right after it. */
    let again = false;
    const poll = async () => {
      reading = true;
      again = false;
      try {
        const reply = await call(
          notifications.selectDelivery,
          { commandIds: ids.join(',') },
          { quietFail: true },
        );
        if (stopped) return;
        setDeliveries(reply.listObject);
        const open = reply.listObject.some((d) => !FINAL_STATUSES.includes(d.status));
        if (timer) clearTimeout(timer);
        timer = undefined;
        if (open && Date.now() - started < GIVE_UP_MS)
          timer = setTimeout(
            () => void poll(),
            again ? EVENT_READ_MS : live.current ? LIVE_POLL_MS : POLL_MS,
          );
      } catch (error) {
        alreadyReported(error);
      } finally {
        reading = false;
      }
    };
    readNow.current = () => {
      if (reading) {
        again = true;
        return;
      }
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void poll(), EVENT_READ_MS);
    };
    void poll();
    return () => {
      stopped = true;
      readNow.current = undefined;
      if (timer) clearTimeout(timer);
    };
  }, [commandIds]);

  const summary = summarize(Math.min(commandIds.length, LOOKED_UP), deliveries);
  return (
    <div data-testid="notice-delivery">
      <Typography.Text data-testid="notice-delivery-summary">
        {t('notice.deliverySummary', {
          done: summary.done,
          failed: summary.failed,
          waiting: summary.waiting,
          total: commandIds.length,
        })}
      </Typography.Text>
      <List
        size="small"
        dataSource={listAll ? deliveries : deliveries.slice(0, LISTED)}
        pagination={
          listAll && deliveries.length > REPORT_PAGE ? { pageSize: REPORT_PAGE, size: 'small' } : false
        }
        renderItem={(delivery) => (
          <List.Item
            data-testid="notice-delivery-row"
            data-device-key={delivery.deviceKey}
            data-status={delivery.status}
            data-detail={delivery.detail}
          >
            <Typography.Text ellipsis style={{ maxWidth: 140 }}>
              {delivery.deviceName}
            </Typography.Text>
            <Typography.Text
              type={
                delivery.status === 'succeeded'
                  ? 'success'
                  : FINAL_STATUSES.includes(delivery.status)
                    ? 'danger'
                    : 'secondary'
              }
            >
              {t(deliveryKey(delivery), { detail: delivery.detail })}
            </Typography.Text>
          </List.Item>
        )}
      />
    </div>
  );
}
