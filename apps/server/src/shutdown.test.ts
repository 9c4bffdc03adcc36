import { describe, expect, it } from 'vitest';
import { shutDown } from './shutdown.js';

const quiet = { info: () => undefined, error: () => undefined };

describe('shutdown on a signal', () => {
  it('exits 0 once the app closed', async () => {
    const exits: number[] = [];
    await shutDown('SIGTERM', {
      close: () => Promise.resolve(),
      log: quiet,
      exit: (code) => void exits.push(code),
      deadlineMs: 60_000,
    });
    expect(exits).toEqual([0]);
  });

  it('exits 1 when the close fails', async () => {
    const exits: number[] = [];
    await shutDown('SIGTERM', {
      close: () => Promise.reject(new Error('db gone')),
      log: quiet,
      exit: (code) => void exits.push(code),
      deadlineMs: 60_000,
    });
    expect(exits).toEqual([1]);
  });

  it('exits 1 at the deadline when the close never finishes', async () => {
    const exits: number[] = [];
    const errors: object[] = [];
    const log = { info: () => undefined, error: (obj: object) => void errors.push(obj) };
    await shutDown('SIGTERM', {
      close: () => new Promise<void>(() => undefined),
      log,
      exit: (code) => void exits.push(code),
      deadlineMs: 50,
    });
    expect(exits).toEqual([1]);
    expect(errors).toEqual([{ signal: 'SIGTERM', deadlineMs: 50 }]);
  });
});
