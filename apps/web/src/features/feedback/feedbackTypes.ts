import { device } from '@panelfleet/contract';

/** Order code -> its name in the protocol (00 -> brightness, POWERUP -> powerUp, ...). */
const ORDER_NAMES = new Map<string, string>(
  Object.entries(device.ORDERS).map(([name, code]) => [code, name]),
);

/** The catalog key of a feedback type's name, or undefined for a code this console does not know. */
export function feedbackTypeKey(code: string): string | undefined {
  const name = ORDER_NAMES.get(code);
  return name === undefined ? undefined : `feedback.types.${name}`;
}

export const FEEDBACK_STATUS_COLORS: Record<(typeof device.FEEDBACK_STATUSES)[number], string> = {
  sent: 'processing',
  fail: 'error',
  success: 'success',
};
