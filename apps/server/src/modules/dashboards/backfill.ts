import type { HistoryBackfillRepository } from './backfill-repository.js';
import { DAY_MS, HOUR_MS } from './periods.js';

/** Screen-time rows read per step (the server answers between steps; SQLite's driver is synchronous). */
const STEP = 10_000;

export interface BackfillWindow {
  /** The earliest hour kept by the hour; older periods are days. */
  hourlyFrom: number;
  /** The earliest day kept at all. */
  keptFrom: number;
  now: number;
}

/**
 * Brings what is stored elsewhere into the dashboards' history, so its 14-day and weekly figures
 * come from the data and not from the day the history began (a fresh install, a deployment that
 * got the history later, panels that report hours they kept while offline):
 *
 * - screen time: every row stored since the last pass (by id, in steps), the hours and days it
 *   falls in summed again from all their rows, whenever the panel sent them;
 * - OTA installs: once, those that settled before the history's sampling began (the sampler counts
 *   the later ones hour by hour).
 *
 * Periods nobody sampled get a row that carries only these figures (`sampled_at` 0): the history
 * says their panels and users are unknown.
 */
export class HistoryBackfill {
  constructor(private readonly repository: HistoryBackfillRepository) {}

  async run(window: BackfillWindow): Promise<void> {
    await this.screenTime(window);
    await this.otaInstalls(window);
  }

  private async screenTime(window: BackfillWindow) {
    const last = await this.repository.maxScreenTimeId();
    for (let after = await this.repository.position('screen_time'); after < last;) {
      const through = Math.min(last, after + STEP);
      const hours = await this.repository.screenOnOfTouchedAllCompanies(
        after,
        through,
        window.hourlyFrom,
        HOUR_MS,
      );
      const days = (
        await this.repository.screenOnOfTouchedAllCompanies(after, through, window.keptFrom, DAY_MS)
      ).filter((d) => d.at < window.hourlyFrom);
      await this.repository.setColumnAllCompanies('screen_on_ms', 'hour', hours);
      await this.repository.setColumnAllCompanies('screen_on_ms', 'day', days);
      await this.repository.setPosition('screen_time', through);
      after = through;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async otaInstalls(window: BackfillWindow) {
    if ((await this.repository.position('ota')) > 0) return;
    // Up to the hour before this one: the sampler completes that hour and counts from there on.
    const until = window.now - (window.now % HOUR_MS) - HOUR_MS;
    const hours = await this.repository.otaSucceededPerSlotAllCompanies(window.hourlyFrom, until, HOUR_MS);
    const days = await this.repository.otaSucceededPerSlotAllCompanies(
      window.keptFrom,
      Math.min(until, window.hourlyFrom),
      DAY_MS,
    );
    await this.repository.setColumnAllCompanies('ota_upgrades', 'hour', hours);
    await this.repository.setColumnAllCompanies('ota_upgrades', 'day', days);
    await this.repository.setPosition('ota', 1);
  }
}
