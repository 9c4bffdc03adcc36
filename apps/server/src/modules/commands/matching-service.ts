import crypto from 'node:crypto';
import { device, oplog } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { Transact } from '../../db/unit-of-work.js';
import { Refusal } from '../../refusal.js';
import { reachOf, type MatchingDevices } from '../devices/matching-repository.js';
import type { OperationLog } from '../operation-log/repository.js';
import { commandTerm } from '../operation-log/words.js';
import { matchingBatch, type MatchingCommandRepository } from './matching-repository.js';
import { orderValue, type Caller } from './operator-service.js';
import { REQUEST_KEY_TTL_MS, type CommandRequestRepository } from './request-repository.js';
import type { CommandService } from './service.js';

export interface MatchingCommandDeps {
  clock: Clock;
  /** How long the commands live (the delivery's ttl). */
  ttlMs: number;
  matching: MatchingDevices;
  commands: Pick<CommandService, 'releaseBatch'>;
  /** One transaction over the idempotency key, the commands and the operation log. */
  transact: Transact<{
    requests: Pick<CommandRequestRepository, 'claim' | 'setCount'>;
    rows: MatchingCommandRepository;
    log: OperationLog;
  }>;
}

class NothingMatched extends Error {}

/**
 * An order to every panel matching the device list's filter ("all N matching", issue 28): the
 * orders a label takes, one command per enabled matching panel of the caller's organisation (and
 * of its token's labels), made by the database when the order is sent, with the label command's
 * idempotency key, progress and results (the feedback log).
 */
export class MatchingCommandService {
  constructor(private readonly deps: MatchingCommandDeps) {}

  async send(
    caller: Caller,
    matching: device.PanelMatching,
    order: device.Order,
    rawValue: string | undefined,
    idempotencyKey?: string,
  ): Promise<number> {
    if (!device.LABEL_ORDERS.includes(order)) throw new Refusal('command.labelOrderInvalid', 'invalid');
    const value = orderValue(order, rawValue);
    const { user } = caller;
    const reach = reachOf(user);
    const where = await this.deps.matching.condition(reach, matching);
    const now = this.deps.clock.now();
    const batch = matchingBatch({
      orgId: user.orgId,
      userId: user.id,
      order,
      value: JSON.stringify(value ?? null),
      now,
      expiresAt: now + this.deps.ttlMs,
    });
    const fingerprint = crypto
      .createHash('sha256')
      .update(JSON.stringify({ order, value, matching, labels: reach.labelIds }))
      .digest('hex');
    const filter = matching.deviceName;
    const outcome = await this.deps
      .transact(async ({ requests, rows, log }) => {
        if (idempotencyKey !== undefined) {
          const held = await requests.claim(
            {
              org_id: user.orgId,
              idempotency_key: idempotencyKey,
              fingerprint,
              command_count: 0,
              created_by: user.id,
              created_at: now,
            },
            now - REQUEST_KEY_TTL_MS,
          );
          if (!held.claimed) return held;
        }
        const count = await rows.insert(batch, where);
        // Nothing matched: the key's claim is rolled back with the rest, and the caller refused.
        if (!count) throw new NothingMatched();
        if (idempotencyKey !== undefined) await requests.setCount(user.orgId, idempotencyKey, count);
        await log.recordBy(user, caller.ip, 'command.matchingSend', {
          k: 'matchingCommand',
          v: {
            devices: filter ? oplog.term('matching', { filter }) : oplog.term('matchingAll'),
            command: commandTerm(order, value),
            count: oplog.counted('panel', count),
          },
        });
        return { claimed: true as const, count };
      })
      .catch((err: unknown) => {
        if (err instanceof NothingMatched) throw new Refusal('allMatching.noneMatching', 'invalid');
        throw err;
      });
    if (!outcome.claimed) {
      if (outcome.fingerprint !== fingerprint) throw new Refusal('command.idempotencyKeyReused', 'conflict');
      return outcome.commandCount;
    }
    this.deps.commands.releaseBatch(batch);
    return outcome.count;
  }
}
