import { device } from '@panelfleet/contract';
import type { Clock } from '../clock.js';
import type { DeviceRepository } from '../modules/devices/repository.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { KnownDevice } from './device-directory.js';
import { PendingWrites } from './pending-writes.js';
import type { Stored } from './receipts.js';
import type { GatewayLog } from './transport.js';

export interface ReportWriterDeps {
  devices: DeviceRepository;
  clock: Clock;
  log: GatewayLog;
  /** Reports dropped because too many waited for the database. */
  overflowed(count: number): void;
  /** A report dropped for what it holds. */
  refused(deviceKey: string, kind: device.DevicePublishKind, reason: string): void;
  /** What a batch of writes stored, for the panels' receipts. */
  stored(receipts: Stored[]): void;
}

/**
 * The reports a panel sends that are written one by one (app lists, usage, abnormal logs,
 * settings): they wait while the database is away, and usage and logs are confirmed to their
 * panel once written (protocol 5.9), so that it stops sending them again.
 */
export class ReportWriter {
  private readonly writes: PendingWrites<Stored>;
  /** The last app-report write of each panel (by device id) still running. */
  private readonly appWrites = new Map<number, Promise<unknown>>();

  constructor(private readonly deps: ReportWriterDeps) {
    this.writes = new PendingWrites<Stored>({
      retryWhen: isDatabaseUnavailable,
      onError: (err, what) =>
        isDatabaseUnavailable(err)
          ? deps.log.warn({ err, what }, 'database unavailable: device reports wait')
          : deps.log.error({ err, what }, 'device report not stored'),
      onDrop: (count) => deps.overflowed(count),
      onStored: (receipts) => deps.stored(receipts),
    });
  }

  get waiting() {
    return this.writes.waiting;
  }

  /** Resolves when the writes queued so far have had their attempt. */
  settled() {
    return this.writes.settled();
  }

  stop() {
    this.writes.stop();
  }

  /** Some other work that needs the database (a panel's lookup), waiting with the reports while it is away. */
  retry(what: string, run: () => Promise<unknown>) {
    this.writes.add(what, run);
  }

  usage(known: KnownDevice, usage: device.AppUsageReport) {
    this.writes.add(
      `usage of ${known.deviceKey}`,
      () =>
        this.deps.devices.insertUsageForPanel(
          {
            org_id: known.orgId,
            device_id: known.id,
            from_at: usage.from,
            to_at: usage.to,
            screen_on_ms: usage.screenOnMs,
            report_id: usage.id,
          },
          usage.records.map((r) => ({
            org_id: known.orgId,
            device_id: known.id,
            package_name: r.packageName,
            app_name: r.appName,
            started_at: r.startedAt,
            duration_ms: r.durationMs,
          })),
        ),
      { deviceKey: known.deviceKey, list: 'usage', id: usage.id },
    );
  }

  /** Proof of play (protocol 5.11): once per id, confirmed to the panel once written. */
  play(known: KnownDevice, play: device.PlayReport) {
    this.writes.add(
      `play report of ${known.deviceKey}`,
      () =>
        this.deps.devices.insertPlayForPanel({
          org_id: known.orgId,
          device_id: known.id,
          report_id: play.id,
          program_id: play.programId,
          revision: play.revision,
          command_id: play.commandId ?? null,
          started_at: play.startedAt,
          ended_at: play.endedAt,
          reason: play.reason,
        }),
      { deviceKey: known.deviceKey, list: 'plays', id: play.id },
    );
  }

  log(known: KnownDevice, log: device.AbnormalLog) {
    this.writes.add(`abnormal log of ${known.deviceKey}`, () => this.insertLog(known, log), {
      deviceKey: known.deviceKey,
      list: 'logs',
      id: log.id,
    });
  }

  apps(known: KnownDevice, report: device.AppReport) {
    this.writes.add(`app list of ${known.deviceKey}`, () => this.storeAppsInOrder(known, report));
  }

  settings(known: KnownDevice, write: () => Promise<void>) {
    this.writes.add(`settings of ${known.deviceKey}`, write);
  }

  /**
   * App reports of one panel are written in the order they arrived (writes of different panels
   * run side by side): a part that superseded an unfinished report must not be overtaken by
   * that report's late parts.
   */
  private storeAppsInOrder(known: KnownDevice, report: device.AppReport) {
    const previous = this.appWrites.get(known.id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.storeApps(known, report));
    this.appWrites.set(known.id, next);
    void next
      .finally(() => {
        if (this.appWrites.get(known.id) === next) this.appWrites.delete(known.id);
      })
      .catch(() => undefined);
    return next;
  }

  /** A whole app list replaces the one before; a part waits for the rest of its report (protocol 5.2). */
  private async storeApps(known: KnownDevice, report: device.AppReport) {
    const { devices, clock } = this.deps;
    if (report.parts === undefined || report.parts === 1)
      return devices.replaceAppsForPanel(known.id, known.orgId, report.apps, clock.now());
    const outcome = await devices.storeAppReportPartForPanel(
      known.id,
      known.orgId,
      { id: report.id!, part: report.part!, parts: report.parts, apps: report.apps },
      clock.now(),
      device.MAX_REPORTED_APPS,
    );
    if (outcome === 'tooMany')
      this.deps.refused(
        known.deviceKey,
        'apps',
        `report ${report.id} holds more than ${device.MAX_REPORTED_APPS} apps`,
      );
  }

  /** An abnormal log, once per id: false when that id was stored before. */
  insertLog(known: KnownDevice, log: device.AbnormalLog): Promise<boolean> {
    return this.deps.devices.insertAbnormalLogForPanel({
      org_id: known.orgId,
      device_id: known.id,
      device_key: known.deviceKey,
      file_name: log.fileName,
      app_name: log.appName,
      model: log.model ?? '',
      occurred_at: log.occurredAt,
      upload_date: this.deps.clock.now(),
      text: log.text,
      text_length: codePoints(log.text),
      report_id: log.id,
    });
  }
}

/** Characters as SQL's length() and substr() count them (code points, not UTF-16 units). */
function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const p = text.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) n--;
    }
  }
  return n;
}
