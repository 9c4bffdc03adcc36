import type { device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { KnownDevice } from '../../gateway/device-directory.js';
import type { PublishRepository } from './publish-repository.js';

/**
 * Keeps the download share panels report while fetching a program (`received`, `downloading`,
 * `progress`). Reports arrive every few seconds per panel: the latest per command is written
 * every half second.
 */
export class ProgramProgressRecorder {
  private pending = new Map<string, { deviceId: number; percent: number }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      repository: PublishRepository;
      clock: Clock;
      logError: (err: unknown, message: string) => void;
    },
  ) {}

  acknowledge(known: KnownDevice, ack: device.CommandAck) {
    if (ack.result !== 'received' || ack.progress === undefined) return;
    this.pending.set(ack.id, { deviceId: known.id, percent: ack.progress });
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch((err: unknown) =>
        this.deps.logError(err, 'program download shares not stored'),
      );
    }, 500);
  }

  async flush() {
    const batch = [...this.pending];
    this.pending.clear();
    const now = this.deps.clock.now();
    for (const [commandId, { deviceId, percent }] of batch)
      await this.deps.repository.recordProgressForPanel(deviceId, commandId, percent, now);
  }

  async stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
