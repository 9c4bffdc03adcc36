import type { device } from '@panelfleet/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CommandRecord } from '../commands/repository.js';
import type { TaskRecord } from './repository.js';
import type { Candidate } from './target-repository.js';

/** What the engine decides for a panel at dispatch (a policy's answer). */
export type Decision = { go: true } | { skip: string } | { waitUntil: number };

/**
 * One kind of payload (OTA firmware now; APK installs and program publishing later): what
 * command carries it, and the kind's own rules at dispatch. Everything else (waves, slots,
 * timers, leases, cancel) is the engine's.
 */
export interface RolloutKind {
  kind: string;
  order: device.Order;
  /** The order that stops a running command of this kind (the command id as value). */
  cancelOrder?: device.Order;
  /**
   * A command of this kind keeps running after it succeeded (a program plays until its play time
   * is over): cancelling reaches panels verifying, installing (ready) and succeeded until they
   * report `finished`, and a task that completed can still be cancelled while any plays.
   */
  runsOn?: boolean;
  /** How long a dispatched command lives. */
  ttlMs: number;
  /** The stored command value of a task (the same for all its panels). */
  commandValue(task: TaskRecord): Promise<unknown>;
  /** Policies at dispatch: go, skip (reason) or wait until a time, per candidate target id. */
  admit(task: TaskRecord, candidates: Candidate[], now: number): Promise<Map<number, Decision>>;
  /**
   * Values that differ by panel (an OTA reminder in the panel's language), by device id; a panel
   * missing from the map gets the task's value.
   */
  valuesFor?(task: TaskRecord, chosen: Candidate[], value: unknown): Promise<Map<number, unknown>>;
}

/** What the engine needs of the commands module (wired by the rollouts entry, index.ts). */
export interface CommandSide {
  prepare(
    orgId: number,
    userId: number | null,
    targets: Array<{ id: number; deviceKey: string }>,
    order: device.Order,
    value: unknown,
    ttlMs?: number,
  ): CommandRecord[];
  release(rows: CommandRecord[], targets: Array<{ id: number; deviceKey: string }>): void;
  insert(rows: CommandRecord[], trx: Kysely<Database>): Promise<void>;
  /** Ends commands that are still open (a cancelled download). */
  cancel(ids: string[]): Promise<void>;
  /**
   * Sends acknowledged commands again until their panel answers (asking a panel whose row has
   * not moved for its state; it answers with the acknowledgement it stored).
   */
  ask(ids: string[]): Promise<void>;
  /** Ends commands whose panel left the question unanswered (`timedOut`). */
  timeOut(ids: string[]): Promise<void>;
  create(
    orgId: number,
    userId: number | null,
    targets: Array<{ id: number; deviceKey: string }>,
    order: device.Order,
    value: unknown,
    ttlMs?: number,
  ): Promise<string[]>;
  isReady(deviceKey: string): boolean;
}
