import { afterEach, describe, expect, it } from 'vitest';
import { bounded, closeProcessBy, withinClose } from './bounded.js';

function recordingLog() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg?: string }> = [];
  const at = (level: string) => (obj: object, msg?: string) =>
    lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

describe('bounded shutdown steps', () => {
  afterEach(() => closeProcessBy(Number.POSITIVE_INFINITY));

  it('waits a step its own bound while no close deadline is set', () => {
    expect(withinClose(5000)).toBe(5000);
  });

  it('stops waiting for a hanging step before the close deadline, whatever its own bound', async () => {
    closeProcessBy(Date.now() + 700);
    const log = recordingLog();
    await bounded('hangs', 60_000, log, () => new Promise(() => undefined));
    const warning = log.lines.find((l) => l.level === 'warn');
    expect(warning?.obj.step).toBe('hangs');
    expect(warning?.obj.waitedMs).toBeLessThanOrEqual(100);
  });

  it('skips the wait of every later step once the deadline is near', async () => {
    closeProcessBy(Date.now() + 100);
    expect(withinClose(5000)).toBe(0);
    const log = recordingLog();
    await bounded('later', 5000, log, () => new Promise(() => undefined));
    expect(log.lines).toEqual([
      expect.objectContaining({ level: 'warn', obj: { step: 'later', waitedMs: 0 } }),
    ]);
  });

  it('logs a step that failed and goes on', async () => {
    const log = recordingLog();
    await bounded('fails', 1000, log, () => Promise.reject(new Error('broker gone')));
    expect(log.lines[0]).toMatchObject({ level: 'error', obj: { step: 'fails' } });
  });
});
