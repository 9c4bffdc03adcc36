import type { HealthRepository } from './repository.js';

export interface Readiness {
  ready: boolean;
  /** One line per part: "database: ok", "broker: down (…)". */
  lines: string[];
}

/**
 * How long the database may take to answer before it counts as down: a balancer or orchestrator
 * asking /healthz sees a frozen database within a second (the fault suite, docs/operations.md).
 */
export const DATABASE_TIMEOUT_MS = 500;

/** Readiness of the parts a request or a panel needs: the database and the device broker. */
export class HealthService {
  /**
   * The ping in flight. Checks that come meanwhile wait for it instead of each taking a pooled
   * connection: against a frozen database every ping hangs, and a probe asking every 100 ms
   * would otherwise hold the whole pool until the statements time out.
   */
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly repository: HealthRepository,
    private readonly brokerHealthy: () => boolean,
    private readonly timeoutMs = DATABASE_TIMEOUT_MS,
  ) {}

  async check(): Promise<Readiness> {
    const database = await this.database();
    const broker = this.brokerHealthy() ? 'ok' : 'down';
    return {
      ready: database === 'ok' && broker === 'ok',
      lines: [`database: ${database}`, `broker: ${broker}`],
    };
  }

  private async database(): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`down (no answer within ${this.timeoutMs} ms)`), this.timeoutMs);
    });
    try {
      return await Promise.race([this.ping().then(() => 'ok'), late]);
    } catch (err) {
      return `down (${err instanceof Error ? err.message : String(err)})`;
    } finally {
      clearTimeout(timer);
    }
  }

  private ping() {
    this.inFlight ??= this.repository.ping().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }
}
