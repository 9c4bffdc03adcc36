import type { live, webhooks as contract } from '@panelfleet/contract';
import type { BusMessage, EventBus } from '../../events/bus.js';
import type { Outbox } from './outbox.js';
import type { WebhookRepository } from './repository.js';
import type { SubscriberCache } from './subscriber-cache.js';

/** Presence changes of one panel this close together are one event (instances hear them apart). */
const PRESENCE_WINDOW_MS = 10_000;
/** At most one task.progress per task in this window. */
const PROGRESS_WINDOW_MS = 10_000;
const FINAL_COMMAND_STATUSES = new Set(['succeeded', 'failed', 'expired']);
/** Events waiting for their deliveries to be written; beyond this, new ones are dropped (logged). */
const MAX_WAITING = 100_000;
/** Events taken from the queue at a time. */
const BATCH = 1_000;

type LiveMessage = Extract<BusMessage, { kind: 'live' }>;

/**
 * Plain events for webhooks: panel.online/offline, command.result (final statuses), task.progress
 * (at most one per task per 10 s) and task.finished, from the event bus. Every instance hears them
 * (presence is read by each instance itself; other messages reach every instance through a shared
 * bus), so each event's id is derived from what it is, and the (webhook, event id) unique index
 * keeps one delivery. Work runs one event after another, off the publisher's path.
 */
export function subscribePlainEvents(
  bus: EventBus,
  deps: {
    outbox: Outbox;
    webhooks: WebhookRepository;
    /** Who wants a company's events, kept between events (most answers are "nobody"). */
    subscribers: SubscriberCache;
    logError: (err: unknown, message: string) => void;
  },
): { unsubscribe: () => void; settled: () => Promise<void> } {
  const queue: LiveMessage[] = [];
  let draining: Promise<void> | undefined;
  let dropped = 0;
  const drain = async () => {
    while (queue.length) {
      const batch = queue.splice(0, BATCH);
      for (const message of batch)
        await handle(message, deps).catch((err: unknown) =>
          deps.logError(err, 'webhook deliveries of an event could not be written'),
        );
    }
  };
  const unsubscribe = bus.subscribe((message) => {
    if (message.kind === 'webhooksChanged' || message.kind === 'eventsMissed') deps.subscribers.clear();
    if (message.kind !== 'live' || !isPlain(message.event)) return;
    if (queue.length >= MAX_WAITING) {
      if (dropped++ % 1000 === 0)
        deps.logError(new Error(`${dropped} dropped`), 'webhook events dropped: too many waiting');
      return;
    }
    queue.push(message);
    draining ??= drain().finally(() => (draining = undefined));
  });
  return { unsubscribe, settled: async () => await draining };
}

function isPlain(event: live.LiveEvent): boolean {
  if (event.type === 'presence' || event.type === 'taskProgress') return true;
  return event.type === 'command' && FINAL_COMMAND_STATUSES.has(event.status);
}

async function handle(
  message: LiveMessage,
  deps: { outbox: Outbox; webhooks: WebhookRepository; subscribers: SubscriberCache },
): Promise<void> {
  const { event, orgId } = message;
  const { outbox } = deps;
  const targetsOf = (companyId: number, type: contract.WebhookEventType) =>
    deps.subscribers.targets(companyId, type);
  if (event.type === 'presence') {
    const type = event.online ? 'panel.online' : 'panel.offline';
    const targets = await targetsOf(orgId, type);
    if (!targets.length) return;
    const device = await deviceRef(deps.webhooks, orgId, event.deviceId, event.deviceKey);
    const window = Math.floor(event.at / PRESENCE_WINDOW_MS);
    const key = (w: number) => `${type}:${event.deviceId}:${w}`;
    await outbox.emitForCompany(
      orgId,
      {
        type,
        data: { device, online: event.online },
        key: key(window),
        sameAs: [key(window - 1), key(window + 1)],
        occurredAt: event.at,
      },
      targets,
    );
    return;
  }
  if (event.type === 'command') {
    const targets = await targetsOf(orgId, 'command.result');
    if (!targets.length) return;
    const device = await deviceRef(deps.webhooks, orgId, event.deviceId, '');
    await outbox.emitForCompany(
      orgId,
      {
        type: 'command.result',
        data: {
          device,
          commandId: event.commandId,
          order: event.order,
          status: event.status as 'succeeded' | 'failed' | 'expired',
          detail: event.detail,
        },
        key: `command.result:${event.commandId}:${event.status}`,
        occurredAt: event.at,
      },
      targets,
    );
    return;
  }
  if (event.type !== 'taskProgress') return;
  const data: contract.WebhookPayload['data'] = {
    task: { kind: event.kind, id: event.taskId },
    done: event.done,
    failed: event.failed,
    total: event.total,
    finished: event.finished,
  };
  const task = `${event.kind}:${event.taskId}`;
  const type = event.finished ? 'task.finished' : 'task.progress';
  const targets = await targetsOf(orgId, type);
  if (!targets.length) return;
  await outbox.emitForCompany(
    orgId,
    {
      type,
      data,
      key: event.finished
        ? `task.finished:${task}`
        : `task.progress:${task}:${Math.floor(event.at / PROGRESS_WINDOW_MS)}`,
      occurredAt: event.at,
    },
    targets,
  );
}

async function deviceRef(webhooks: WebhookRepository, orgId: number, deviceId: number, fallbackKey: string) {
  const row = await webhooks.device(orgId, deviceId);
  return { id: deviceId, key: row?.device_key ?? fallbackKey, name: row?.name ?? '' };
}
