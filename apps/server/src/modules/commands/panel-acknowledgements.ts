import type { device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { isDatabaseUnavailable, isTransactionConflict, isWorthRetrying } from '../../db/errors.js';
import { BatchWriter } from '../../gateway/batch-writer.js';
import type { KnownDevice } from '../../gateway/device-directory.js';
import { ackStored, type Stored } from '../../gateway/receipts.js';
import type { GatewayLog } from '../../gateway/transport.js';
import type { AckUpdate, CommandRepository, SettledCommand } from './repository.js';

/** An acknowledgement as it arrived, with the panel that sent it. */
interface ReceivedAck {
  known: KnownDevice;
  ack: device.CommandAck;
}

/**
 * A write an acknowledgement needs besides the command row (a rollout's panel row), run with each
 * batch: the panel is told a final result is stored only once every such write holds it.
 */
export type AckWriter = (acks: device.CommandAck[]) => Promise<void>;

export interface AcknowledgementDeps {
  commands: CommandRepository;
  clock: Clock;
  log: GatewayLog;
  /** Commands an acknowledgement settled (or moved to delivered). */
  settled(commands: SettledCommand[]): void;
  /** Tells panels what is stored (protocol 5.9: receipts). */
  confirm(stored: Stored[]): void;
}

/**
 * Panels' acknowledgements, written in batches every 50 ms: the command rows, what a WAKE relay
 * settles, the writes added with `addWriter`, and then the receipts of the final results. Every
 * final result is confirmed, also one that changed nothing (repeated, or of a command already
 * settled or unknown): it is as stored as it will ever be. A batch that fails for a passing
 * reason is tried again whole (each write only moves rows forward) and confirms nothing until it
 * holds; the panel sends its results again meanwhile.
 */
export class Acknowledgements {
  private readonly batches: BatchWriter<ReceivedAck>;
  private readonly writers: AckWriter[] = [];

  constructor(private readonly deps: AcknowledgementDeps) {
    this.batches = new BatchWriter(
      (items) => this.apply(items),
      (err, count) =>
        isDatabaseUnavailable(err)
          ? deps.log.warn({ err, count }, 'database unavailable: command acknowledgements wait')
          : isTransactionConflict(err)
            ? deps.log.warn({ err, count }, 'command acknowledgements met a conflicting write: tried again')
            : deps.log.error({ err, count }, 'command acknowledgements not stored'),
      { intervalMs: 50, retryWhen: isWorthRetrying },
      (count) =>
        deps.log.error(
          { count },
          'too many acknowledgements waiting for the database: the oldest were dropped',
        ),
    );
  }

  add(known: KnownDevice, ack: device.CommandAck) {
    this.batches.add({ known, ack });
  }

  addWriter(writer: AckWriter) {
    this.writers.push(writer);
  }

  /** Tries to write what arrived so far; resolves when that attempt is over. */
  flush() {
    return this.batches.flush();
  }

  private async apply(items: ReceivedAck[]) {
    const { commands, clock } = this.deps;
    const updates: AckUpdate[] = items.map(({ known, ack }) => ({
      id: ack.id,
      deviceId: known.id,
      status: ack.result === 'received' ? 'delivered' : ack.result,
      detail: ack.detail ?? '',
    }));
    const changed = await commands.applyAcksForPanels(updates, clock.now());
    if (changed.length) this.deps.settled(changed);
    const relayed = changed
      .filter((c) => c.order_code === 'WAKE' && c.status === 'succeeded' && c.relay_for)
      .map((c) => c.relay_for!);
    if (relayed.length) await commands.setStatusForPanels(relayed, 'delivered', 'wakeSent', clock.now());
    const acks = items.map((item) => item.ack);
    for (const write of this.writers) await write(acks);
    const stored = items.flatMap(({ known, ack }) => ackStored(known.deviceKey, ack) ?? []);
    if (stored.length) this.deps.confirm(stored);
  }
}
