import type { notifications } from '@panelfleet/contract';

type Delivery = notifications.Delivery;

export const FINAL_STATUSES: ReadonlyArray<Delivery['status']> = ['succeeded', 'failed', 'expired'];

export interface DeliverySummary {
  total: number;
  done: number;
  failed: number;
  waiting: number;
}

/** Counts of a notification's commands by where they are. */
export function summarize(total: number, deliveries: Delivery[]): DeliverySummary {
  const done = deliveries.filter((d) => d.status === 'succeeded').length;
  const failed = deliveries.filter((d) => d.status === 'failed' || d.status === 'expired').length;
  return { total, done, failed, waiting: total - done - failed };
}

/** Message key of one panel's state. */
export function deliveryKey(delivery: Delivery): string {
  switch (delivery.status) {
    case 'queued':
    case 'sent':
      return 'notice.deliveryWaiting';
    case 'delivered':
      return 'notice.deliveryReceived';
    case 'succeeded':
      return 'notice.deliveryShown';
    default:
      return 'notice.deliveryFailed';
  }
}
