import { describe, expect, it } from 'vitest';
import type { HealthRepository } from './repository.js';
import { DATABASE_TIMEOUT_MS, HealthService } from './service.js';

/** A database frozen until `thaw()` (its pings wait until then), counting the pings it got. */
function frozenDatabase() {
  const waiting: Array<() => void> = [];
  let frozen = true;
  const repository = {
    pings: 0,
    ping() {
      repository.pings++;
      return frozen ? new Promise<void>((resolve) => waiting.push(resolve)) : Promise.resolve();
    },
    thaw: () => {
      frozen = false;
      waiting.splice(0).forEach((answer) => answer());
    },
  };
  return repository;
}

describe('readiness against a frozen database', () => {
  it('answers not ready within the timeout, which stays under a second', async () => {
    const db = frozenDatabase();
    const service = new HealthService(db as unknown as HealthRepository, () => true, 50);
    expect(await service.check()).toEqual({
      ready: false,
      lines: ['database: down (no answer within 50 ms)', 'broker: ok'],
    });
    expect(DATABASE_TIMEOUT_MS).toBeLessThan(1000);
  });

  it('asks the database once while a ping is unanswered, however often it is asked', async () => {
    const db = frozenDatabase();
    const service = new HealthService(db as unknown as HealthRepository, () => true, 50);
    const answers = await Promise.all([service.check(), service.check(), service.check()]);
    await service.check();
    expect(answers.every((a) => !a.ready)).toBe(true);
    expect(db.pings).toBe(1);

    db.thaw();
    expect(await service.check()).toEqual({ ready: true, lines: ['database: ok', 'broker: ok'] });
    await service.check();
    expect(db.pings).toBeLessThanOrEqual(3);
  });
});
