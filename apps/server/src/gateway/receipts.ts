import { device } from '@panelfleet/contract';

/** Something a panel sent that is now stored: it may stop sending it again (protocol 5.9). */
export interface Stored {
  deviceKey: string;
  list: device.ReceiptList;
  id: string;
}

/**
 * The receipts for what one write batch stored, by panel: one message per panel (more only past
 * RECEIPT_MAX_IDS ids), not one per report.
 */
export function receiptsByPanel(stored: Stored[]): Map<string, device.Receipt[]> {
  const byPanel = new Map<string, Partial<Record<device.ReceiptList, string[]>>>();
  for (const { deviceKey, list, id } of stored) {
    let lists = byPanel.get(deviceKey);
    if (!lists) byPanel.set(deviceKey, (lists = {}));
    (lists[list] ??= []).push(id);
  }
  return new Map([...byPanel].map(([deviceKey, lists]) => [deviceKey, device.receiptMessages(lists)]));
}

/** The receipt entry of a final acknowledgement; undefined for `received`, which nothing confirms. */
export function ackStored(deviceKey: string, ack: device.CommandAck): Stored | undefined {
  if (!device.isFinalAck(ack)) return undefined;
  return { deviceKey, list: device.isFinishedAck(ack) ? 'finished' : 'acks', id: ack.id };
}
