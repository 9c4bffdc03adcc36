import type { device, ParamsOf, ReplyOf } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';

/** A random (version 4) UUID; crypto.randomUUID exists only in secure contexts (https, localhost), getRandomValues everywhere. */
export function newRequestKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

type LabelCommandCall =
  typeof device.sendCommandByTagIds | typeof device.sendPowerUpByTagIds | typeof device.sendCommandToMatching;

/**
 * Idempotency keys of label commands: every click sends a new key, except the same command sent
 * again after it got no answer (network failure, server error), which sends the key of the
 * unanswered attempt, so the server answers that attempt's result instead of sending twice.
 * A reply, success or refusal, is an answer: the next click is a new command.
 */
export class CommandKeys {
  private unanswered: { command: string; key: string } | undefined;

  async send<C extends LabelCommandCall>(
    def: C,
    params: Omit<ParamsOf<C>, 'idempotencyKey'>,
    /** A JSON body (a filter, `matching`, is an object: a form cannot carry it). */
    options: { json?: boolean } = {},
  ): Promise<ReplyOf<C>> {
    const command = JSON.stringify([def.path, params]);
    const key = this.unanswered?.command === command ? this.unanswered.key : newRequestKey();
    this.unanswered = { command, key };
    try {
      const reply = await call(def, { ...params, idempotencyKey: key } as ParamsOf<C>, options);
      this.answered(key);
      return reply;
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'fail') this.answered(key);
      throw error;
    }
  }

  private answered(key: string) {
    if (this.unanswered?.key === key) this.unanswered = undefined;
  }
}

/**
 * The console's label command keys. Module-wide, not per mounted page: a network failure opens
 * the error page (the labels page unmounts), and the retry after coming back still finds its key.
 */
export const labelCommandKeys = new CommandKeys();
