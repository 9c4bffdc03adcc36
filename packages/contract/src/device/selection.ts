import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { itemReply } from '../envelope.js';
import { isRecordId } from '../ids.js';
import { LABEL_ORDERS, type Order } from './orders.js';

/** The device list's search, as the list and its export read it (listDevices' deviceName). */
export const deviceNameFilter = z.string().trim().max(64);

/** The most labels a selection's filter names (as sendCommandByTagIds takes them). */
export const MATCHING_LABELS_MAX = 1000;

/** The most panels a call that names panels one by one takes (its deviceIds' max), "all matching" too. */
export const MATCHING_PANELS_MAX = 10_000;

/**
 * Every panel a list shows for its current filter, on every page: what a bulk action sends
 * instead of ids once the operator chose "all N matching". The device list's filter is its search
 * (deviceName); a panel picker's is the labels it ticked (tagIds: panels carrying any of them,
 * listed or dynamic). The server resolves it when the action runs, within the caller's
 * organisation and reach; disabled panels are left out.
 */
export const panelMatching = z.strictObject({
  deviceName: deviceNameFilter.default(''),
  tagIds: z
    .array(z.number({ error: 'label.notFound' }).refine(isRecordId, { error: 'label.notFound' }), {
      error: 'label.notFound',
    })
    .min(1, { error: 'label.chooseDevice' })
    .max(MATCHING_LABELS_MAX, { error: 'label.notFound' })
    .optional(),
});
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

/** Comma-separated ids (deviceIds, tagIds of a form), each once, at most MATCHING_PANELS_MAX; empty is none. */
export const commaIds = (error: string, empty: string) =>
  z
    .string({ error: empty })
    .trim()
    .transform((text) =>
      text ? [...new Set(text.split(',').map((part) => Number(part.trim())))] : ([] as number[]),
    )
    .refine((ids) => ids.length <= MATCHING_PANELS_MAX && ids.every(isRecordId), { error });

/** How many ways a call that takes panels, labels or a filter names its targets (one is right). */
export const targetKinds = (p: { deviceIds: number[]; tagIds: number[]; matching?: unknown }) =>
  [p.deviceIds.length > 0, p.tagIds.length > 0, p.matching !== undefined].filter(Boolean).length;

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
    'How many enabled panels of the company match the device list filter (deviceName as listDevices) or a panel ' +
    "picker's (tagIds: panels of any of these labels), counted exactly, " +
    'beyond the search cap: the N of "all N matching"; a bulk action with `matching` reaches these panels',
  tag: 'devices',
  access: callers.deviceOperators,
  params: z.object({
    deviceName: deviceNameFilter.optional(),
    /** A panel picker's filter: comma-separated label ids (panels carrying any of them). */
    tagIds: z
      .string({ error: 'label.notFound' })
      .trim()
      .optional()
      .transform((text) =>
        text ? [...new Set(text.split(',').map((part) => Number(part.trim())))] : undefined,
      )
      .refine((ids) => ids === undefined || (ids.length <= MATCHING_LABELS_MAX && ids.every(isRecordId)), {
        error: 'label.notFound',
      }),
  }),
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
