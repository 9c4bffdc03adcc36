import type { Clock } from '../../clock.js';
import type { ThrottleRepository } from './throttle-repository.js';

export interface ThrottleLimits {
  /** Failures against one account from one client address within the window; past it that address waits the window out. */
  perAccount: number;
  /** Failures from one client address, whatever the account, within the window. */
  perAddress: number;
  /**
   * Failures against one account from all addresses within the window. Past it the account is
   * not locked: its password is checked at most once per windowMs / perAccountAllAddresses,
   * whoever asks, so a guesser spread over many addresses stays slow and the owner waits seconds.
   */
  perAccountAllAddresses?: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: Required<ThrottleLimits> = {
  perAccount: 5,
  perAddress: 20,
  perAccountAllAddresses: 50,
  windowMs: 15 * 60_000,
};

/** A sign-in attempt counted in advance: the counters it took, to give back if it was no failure. */
export interface ThrottleAttempt {
  taken: Array<{ key: string; firstAt: number }>;
  pairKey: string;
}

export type Reservation = { allowed: true; attempt: ThrottleAttempt } | { allowed: false; waitMs: number };

/**
 * Counts sign-in attempts in the database (shared by every server instance). An attempt is
 * counted before its password is checked, so parallel guesses cannot exceed a limit; one that
 * turns out not to be a failure (right password) is given back.
 */
export class LoginThrottle {
  private readonly limits: Required<ThrottleLimits>;

  constructor(
    private readonly repository: ThrottleRepository,
    private readonly clock: Clock,
    limits: ThrottleLimits = DEFAULT_THROTTLE,
  ) {
    this.limits = { ...DEFAULT_THROTTLE, ...limits };
  }

  /** Takes one attempt on every counter of this sign-in, or says how long the caller must wait. */
  async reserve(userName: string, ip: string): Promise<Reservation> {
    const { perAccount, perAddress, perAccountAllAddresses, windowMs } = this.limits;
    const now = this.clock.now();
    const windowStart = now - windowMs;
    const account = userName.toLowerCase();
    const pairKey = `pair:${account}|${ip}`;
    const taken: ThrottleAttempt['taken'] = [];
    const take = async (key: string) => {
      const row = await this.repository.reserve(key, now, windowStart);
      taken.push({ key, firstAt: row.first_at });
      return row;
    };
    const refuse = async (waitMs: number): Promise<Reservation> => {
      await this.giveBack(taken);
      return { allowed: false, waitMs: Math.max(waitMs, 1) };
    };

    const address = await take(`ip:${ip}`);
    if (address.count > perAddress) return refuse(address.first_at + windowMs - now);
    const pair = await take(pairKey);
    if (pair.count > perAccount) return refuse(pair.first_at + windowMs - now);
    const all = await take(`user:${account}`);
    if (all.count > perAccountAllAddresses) {
      const slotMs = Math.max(1, Math.floor(windowMs / perAccountAllAddresses));
      const slot = Math.floor(now / slotMs);
      const rationed = await take(`slot:${account}:${slot}`);
      if (rationed.count > 1) return refuse((slot + 1) * slotMs - now);
    }
    return { allowed: true, attempt: { taken, pairKey } };
  }

  /** The password was right: the attempt was no failure, and this address's earlier ones on the account are forgiven. */
  async succeeded(attempt: ThrottleAttempt): Promise<void> {
    await this.giveBack(attempt.taken);
    await this.repository.remove(attempt.pairKey);
  }

  /** The attempt was refused for a reason other than a wrong name or password. */
  async notAFailure(attempt: ThrottleAttempt): Promise<void> {
    await this.giveBack(attempt.taken);
  }

  purgeExpired(): Promise<void> {
    return this.repository.purgeOlderThan(this.clock.now() - this.limits.windowMs);
  }

  private async giveBack(taken: ThrottleAttempt['taken']) {
    for (const { key, firstAt } of taken) await this.repository.release(key, firstAt);
  }
}
