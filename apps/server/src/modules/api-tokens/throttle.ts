/** How many calls one token may make per window. */
export interface ApiTokenLimits {
  perWindow: number;
  windowMs: number;
}
export const DEFAULT_API_TOKEN_LIMITS: ApiTokenLimits = { perWindow: 600, windowMs: 60_000 };

/**
 * Calls per token in fixed windows, counted in this instance's memory. The sign-in throttle
 * counts in the database so that guesses spread over instances add up; a token's calls are no
 * guesses (the token is already proven), and a database write on every call would cost more than
 * the call (issue 28 budget: a token adds under 0.2 ms), so behind N instances a token may make
 * up to N times the limit.
 */
export class TokenThrottle {
  private readonly windows = new Map<number, { start: number; count: number }>();

  constructor(private readonly limits: ApiTokenLimits) {}

  /** Counts one call; the milliseconds to wait when the token is past its limit, else 0. */
  take(tokenId: number, now: number): number {
    const { perWindow, windowMs } = this.limits;
    let window = this.windows.get(tokenId);
    if (!window || now - window.start >= windowMs) {
      if (!window && this.windows.size >= 10_000) this.sweep(now);
      window = { start: now, count: 0 };
      this.windows.set(tokenId, window);
    }
    window.count++;
    return window.count > perWindow ? window.start + windowMs - now : 0;
  }

  private sweep(now: number) {
    for (const [id, window] of this.windows)
      if (now - window.start >= this.limits.windowMs) this.windows.delete(id);
  }
}
