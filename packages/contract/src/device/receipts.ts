import { z } from 'zod';
import { reportId } from './payloads.js';
import { PROTOCOL_VERSION } from './topics.js';

/** Most ids one receipt names (all its lists together); more go in further receipts. */
export const RECEIPT_MAX_IDS = 500;

const ids = <T extends z.ZodType>(id: T) => z.array(id).min(1).max(RECEIPT_MAX_IDS).optional();

/**
 * The server's receipt (protocol 5.9, topic `receipt`): what it has written to its database of a
 * panel's final acknowledgements (`acks`; a PROGRAM's `finished` apart), usage reports and
 * abnormal logs. Published after the write commits, one message per panel per write batch.
 */
export const receipt = z
  .object({
    v: z.literal(PROTOCOL_VERSION),
    acks: ids(z.string().uuid()),
    finished: ids(z.string().uuid()),
    usage: ids(reportId),
    logs: ids(reportId),
    plays: ids(reportId),
  })
  .strict()
  .refine(
    (r) => {
      const total =
        (r.acks?.length ?? 0) +
        (r.finished?.length ?? 0) +
        (r.usage?.length ?? 0) +
        (r.logs?.length ?? 0) +
        (r.plays?.length ?? 0);
      return total >= 1 && total <= RECEIPT_MAX_IDS;
    },
    { message: `a receipt names 1 to ${RECEIPT_MAX_IDS} ids` },
  );
export type Receipt = z.infer<typeof receipt>;
export type ReceiptList = 'acks' | 'finished' | 'usage' | 'logs' | 'plays';
export const RECEIPT_LISTS: readonly ReceiptList[] = ['acks', 'finished', 'usage', 'logs', 'plays'];

/** Receipts for the confirmed ids of one panel, each within RECEIPT_MAX_IDS. */
export function receiptMessages(confirmed: Partial<Record<ReceiptList, string[]>>): Receipt[] {
  const entries = RECEIPT_LISTS.flatMap((list) => (confirmed[list] ?? []).map((id) => [list, id] as const));
  const messages: Receipt[] = [];
  for (let i = 0; i < entries.length; i += RECEIPT_MAX_IDS) {
    const message: Receipt = { v: PROTOCOL_VERSION };
    for (const [list, id] of entries.slice(i, i + RECEIPT_MAX_IDS)) (message[list] ??= []).push(id);
    messages.push(message);
  }
  return messages;
}

/**
 * How a panel that subscribed to its receipts keeps what it sent (protocol 5.9): a message no
 * receipt named is sent again after RESEND_FIRST_MS, then after waits that double up to
 * RESEND_MAX_MS (each made random between half and all of it), and at once after reconnecting.
 */
export const RESEND_FIRST_MS = 30_000;
export const RESEND_MAX_MS = 5 * 60_000;
/** Most messages kept unconfirmed; beyond it the oldest go. */
export const KEEP_MAX_MESSAGES = 1000;
/** A message unconfirmed this long after it was first sent is given up. */
export const KEEP_MAX_AGE_MS = 7 * 24 * 60 * 60_000;
