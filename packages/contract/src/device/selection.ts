import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { itemReply } from '../envelope.js';
import { LABEL_ORDERS, type Order } from './orders.js';

/** The device list's search, as the list and its export read it (listDevices' deviceName). */
export const deviceNameFilter = z.string().trim().max(64);

/**
 * Every panel the device list shows for its current filter, on every page: what a bulk action
 * sends instead of ids once the operator chose "all N matching". The server resolves it when the
 * action runs, within the caller's organisation and reach; disabled panels are left out.
 */
export const panelMatching = z.strictObject({ deviceName: deviceNameFilter.default('') });
export type PanelMatching = z.infer<typeof panelMatching>;

/** A set of panels: the ids chosen one by one, or every panel matching the list's filter. */
export type PanelSelection = { deviceIds: number[] } | { matching: PanelMatching };

/**
 * A call's params that name panels either way (`deviceIds` as the call always took them, or
 * `matching`, in a JSON body), exactly one of the two; `emptyKey` refuses neither or both.
 */
export function withPanelSelection<Shape extends z.ZodRawShape, Ids extends z.ZodType<number[], unknown>>(
  shape: Shape,
  deviceIds: Ids,
  emptyKey: string,
) {
  return z.object({ ...shape, deviceIds: deviceIds.optional(), matching: panelMatching.optional() }).refine(
    (p) => {
      const named = p as { deviceIds?: unknown; matching?: unknown };
      return (named.deviceIds === undefined) !== (named.matching === undefined);
    },
    { error: emptyKey },
  );
}

/** The selection a call's parsed params name (withPanelSelection guarantees one of the two). */
export function selectionOf(params: {
  deviceIds?: number[] | undefined;
  matching?: PanelMatching | undefined;
}) {
  return (
    params.matching ? { matching: params.matching } : { deviceIds: params.deviceIds ?? [] }
  ) satisfies PanelSelection;
}

export const countMatchingDevices = defineCall({
  method: 'GET',
  path: '/platform/device/countMatching',
  summary:
    'How many enabled panels of the company match the device list filter (deviceName as listDevices), counted exactly, ' +
    'beyond the search cap: the N of "all N matching"; a bulk action with `matching` reaches these panels',
  tag: 'devices',
  access: callers.deviceOperators,
  params: z.object({ deviceName: deviceNameFilter.optional() }),
  reply: itemReply(z.object({ count: z.number().int(), disabled: z.number().int() })),
});

export const sendCommandToMatching = defineCall({
  method: 'POST',
  path: '/sendData/sendCommandToMatching',
  summary:
    'Send one order (those a label takes) to every enabled panel matching the device list filter, resolved when sent ' +
    '(JSON body: order, value, matching); a repeated idempotencyKey answers the first result',
  tag: 'commands',
  access: callers.deviceOperators,
  params: z.object({
    order: z.enum(LABEL_ORDERS as [Order, ...Order[]], { error: 'command.labelOrderInvalid' }),
    value: z.string().max(20_000).optional(),
    matching: panelMatching,
    idempotencyKey: z.uuid({ error: 'command.idempotencyKeyInvalid' }).optional(),
  }),
  reply: itemReply(z.object({ count: z.number().int() })),
});
