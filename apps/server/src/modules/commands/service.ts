import { device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { KnownDevice } from '../../gateway/device-directory.js';
import type { CommandSink, DeviceGateway } from '../../gateway/gateway.js';
import { isDatabaseUnavailable } from '../../db/errors.js';
import type { GatewayLog } from '../../gateway/transport.js';
import type { DeviceRepository } from '../devices/repository.js';
import { storedOta } from '../downloads/ota.js';
import type { RegisteredFile } from '../downloads/service.js';
import type { SignedManifest } from '../../security/firmware-signing.js';
import { commandId } from './command-id.js';
import { Acknowledgements, type AckWriter } from './panel-acknowledgements.js';
import type { MatchingBatch } from './matching-repository.js';
import type { CommandRecord, CommandRepository, SettledCommand } from './repository.js';
import { DEFAULT_TIMINGS, envelopeOf, OTA_TTL_MS } from './delivery-options.js';
import type { CommandTimings, EnvelopeValues, Target } from './delivery-options.js';
import { broadcastAddress, sameLan } from './wake-relay.js';

// Delivery's options live in delivery-options.ts; the rest of the server imports them from here.
export * from './delivery-options.js';

const MAX_WAKE_RELAYS = 2;
/**
 * Every instance hears a panel come back (presence is read by all); the first to claim its
 * pending commands sends them, and a command sent within this time is not sent again on the
 * panel's return (its retry follows instead).
 */
const RECLAIM_ON_READY_MS = 2000;
/**
 * Commands with a life: queued (recorded) -> sent (published, or recorded so when the panel listens)
 * -> delivered (panel said received) -> succeeded | failed, or expired. Rows are committed before anything is published, so a crash
 * loses nothing; panels de-duplicate by id, so publishing again never runs a command twice.
 */
export class CommandService implements CommandSink {
  private readyQueue = new Map<number, KnownDevice>();
  private readyTimer: NodeJS.Timeout | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private ticking = false;
  /** Shutting down: nothing more is claimed, and what is claimed but unpublished is handed back. */
  private stopping = false;
  /** The last tick found the database away (logged once per outage). */
  private tickOutage = false;
  private readonly acks: Acknowledgements;
  private background = new Set<Promise<unknown>>();
  /** Told of commands that reached a new status by a panel's acknowledgement or by expiry. */
  private settledListener: (commands: SettledCommand[]) => void = () => undefined;

  constructor(
    private readonly commands: CommandRepository,
    private readonly devices: DeviceRepository,
    private readonly gateway: DeviceGateway,
    private readonly clock: Clock,
    private readonly log: GatewayLog,
    private readonly timings: CommandTimings = DEFAULT_TIMINGS,
    private readonly envelopeValues: EnvelopeValues = {},
  ) {
    this.acks = new Acknowledgements({
      commands,
      clock,
      log,
      settled: (changed) => this.settledListener(changed),
      confirm: (stored) => gateway.confirmStored(stored),
    });
  }

  onSettled(listener: (commands: SettledCommand[]) => void) {
    this.settledListener = listener;
  }

  /** Adds a write that each batch of acknowledgements runs before its final results are confirmed. */
  addAckWriter(writer: AckWriter) {
    this.acks.addWriter(writer);
  }

  start() {
    this.ticker = setInterval(() => void this.tick(), this.timings.tickMs);
    this.ticker.unref();
  }

  /**
   * Takes no more work (the start of a shutdown): no retry round, no claim of a returning panel's
   * commands; a fan-out under way publishes the batch it is in and hands the rest back.
   */
  stopTakingWork() {
    this.stopping = true;
    if (this.ticker) clearInterval(this.ticker);
    if (this.readyTimer) clearTimeout(this.readyTimer);
    this.readyTimer = undefined;
    this.readyQueue.clear();
  }

  /** Stops taking work, waits for what was under way to publish or be handed back, stores pending acknowledgements. */
  async stop() {
    this.stopTakingWork();
    await Promise.allSettled([...this.background]);
    await this.acks.flush();
  }

  /** Records one command per target, then publishes to the targets that listen now. */
  async create(
    orgId: number,
    userId: number | null,
    targets: Target[],
    order: device.Order,
    value: unknown,
    ttlMs = this.timings.ttlMs,
  ): Promise<string[]> {
    const rows = this.prepare(orgId, userId, targets, order, value, ttlMs);
    await this.commands.insertMany(rows);
    this.release(rows, targets);
    return rows.map((r) => r.id);
  }

  /**
   * One command row per target, not yet recorded: the caller inserts them (CommandRepository.insertMany,
   * possibly inside its own transaction) and, once committed, hands them to `release`.
   */
  prepare(
    orgId: number,
    userId: number | null,
    targets: Target[],
    order: device.Order,
    value: unknown,
    ttlMs = this.timings.ttlMs,
  ): CommandRecord[] {
    const now = this.clock.now();
    // A panel listening now is recorded as sent in the same insert (the publish follows at once),
    // which spares a second write of every row; if the publish is lost, the retry repeats it.
    const publishesNow = (t: Target) => order !== 'POWERUP' && this.gateway.isReady(t.deviceKey);
    return targets.map((t) => ({
      id: commandId(now),
      org_id: orgId,
      device_id: t.id,
      order_code: order,
      value: JSON.stringify(value ?? null),
      ...(publishesNow(t) ? { status: 'sent', attempts: 1 } : { status: 'queued', attempts: 0 }),
      detail: '',
      expires_at: now + ttlMs,
      created_by: userId,
      relay_for: null,
      created_at: now,
      updated_at: now,
    }));
  }

  /** Publishes recorded (committed) rows of `prepare` to the targets that listen now, in the background. */
  release(rows: CommandRecord[], targets: Target[]) {
    const keys = new Map(targets.map((t) => [t.id, t.deviceKey]));
    this.inBackground(this.dispatch(rows, keys, true));
  }

  /** Publishes a committed matching batch to its listening panels a part at a time, after the reply. */
  releaseBatch(batch: MatchingBatch, listening?: (deviceIds: number[]) => Promise<unknown>) {
    const release = async () => {
      for (let after = batch.prefix; !this.stopping;) {
        await new Promise((resolve) => setImmediate(resolve));
        const keys = await this.commands.batchKeys(batch, after);
        if (!keys.length) return;
        after = keys.at(-1)!.id;
        const ready = keys.filter((k) => this.gateway.isReady(k.device_key));
        if (!ready.length) continue;
        await listening?.(ready.map((k) => k.device_id)); // heard before they are sent it
        const ids = ready.map((k) => k.id);
        const rows = await this.commands.batchRowsByIds(batch.orgId, ids);
        await this.dispatch(rows, new Map(ready.map((k) => [k.device_id, k.device_key])));
      }
    };
    this.inBackground(release());
  }

  /**
   * Sends an OTA update of a registered file (DownloadService.register) to these panels; each
   * panel gets its own signed URL whenever the command is published.
   */
  sendOta(
    orgId: number,
    userId: number | null,
    targets: Target[],
    file: RegisteredFile,
    version: string,
    signed: SignedManifest,
    ttlMs = OTA_TTL_MS,
  ): Promise<string[]> {
    if (!this.envelopeValues.OTA) throw new Error('OTA needs the download service');
    return this.create(orgId, userId, targets, 'OTA', storedOta(file, version, signed), ttlMs);
  }

  private readonly ackListeners: Array<(known: KnownDevice, ack: device.CommandAck) => void> = [];
  private readonly readyListeners: Array<(known: KnownDevice) => void> = [];

  /** Hears every acknowledgement as it arrives (rollouts follow their panels' phases). */
  onAck(listener: (known: KnownDevice, ack: device.CommandAck) => void) {
    this.ackListeners.push(listener);
  }

  /** Hears every panel that starts listening for commands. */
  onReady(listener: (known: KnownDevice) => void) {
    this.readyListeners.push(listener);
  }

  deviceReady(known: KnownDevice) {
    for (const listener of this.readyListeners) listener(known);
    // Another instance, which heard the panel too, sends its commands.
    if (this.stopping) return;
    this.readyQueue.set(known.id, known);
    // Many panels come back together after a restart: collect them and read their commands at once.
    this.readyTimer ??= setTimeout(() => {
      this.readyTimer = undefined;
      const batch = [...this.readyQueue.values()];
      this.readyQueue.clear();
      this.inBackground(this.deliverPending(batch));
    }, 20);
  }

  acknowledge(known: KnownDevice, ack: device.CommandAck) {
    this.acks.add(known, ack);
    for (const listener of this.ackListeners) listener(known, ack);
  }

  /** Expires what is past its time and publishes again what was not acknowledged. */
  async tick() {
    if (this.ticking || this.stopping) return;
    this.ticking = true;
    try {
      const now = this.clock.now();
      const expired = await this.commands.expireForPanels(now);
      if (expired.length) {
        this.log.info({ expired: expired.length }, 'commands expired');
        this.settledListener(expired);
      }
      const due = await this.commands.dueForRetryForPanels(now, this.timings.retryMs, 5000);
      const listening = due.filter(
        (c) => c.order_code === 'POWERUP' || this.readyKey(c.device_id) !== undefined,
      );
      // Every instance finds the same rows due: each publishes only those it claims.
      const claimed = listening.length
        ? await this.commands.claimForRetryForPanels(
            listening.map((c) => c.id),
            now,
            this.timings.retryMs,
          )
        : [];
      if (claimed.length)
        await this.dispatch(
          claimed,
          await this.devices.keysByIdsForPanels([...new Set(claimed.map((c) => c.device_id))]),
        );
      this.tickOutage = false;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) this.log.error({ err }, 'command tick failed');
      else if (!this.tickOutage) this.log.warn({ err }, 'database unavailable: command retries wait');
      this.tickOutage = isDatabaseUnavailable(err);
    } finally {
      this.ticking = false;
    }
  }

  /** Waits for background publishing and pending acknowledgements (tests and shutdown). */
  async settle() {
    await Promise.allSettled([...this.background]);
    await this.acks.flush();
  }

  private readyKeys = new Map<number, string>();
  private readyKey(deviceId: number) {
    const key = this.readyKeys.get(deviceId);
    return key !== undefined && this.gateway.isReady(key) ? key : undefined;
  }

  private async deliverPending(batch: KnownDevice[]) {
    const now = this.clock.now();
    for (const known of batch) this.readyKeys.set(known.id, known.deviceKey);
    await this.commands.succeedPowerUpsForPanels(
      batch.map((k) => k.id),
      now,
    );
    // A panel that left again before its lookup answered (a slow database) is not claimed for: a
    // claim it cannot use would hold its commands back from its real return.
    const listening = batch.filter((k) => this.gateway.isReady(k.deviceKey));
    if (!listening.length) return;
    const pending = await this.commands.claimPendingForPanels(
      listening.map((k) => k.id),
      now,
      RECLAIM_ON_READY_MS,
    );
    await this.dispatch(pending, new Map(listening.map((k) => [k.id, k.deviceKey])));
  }

  /**
   * Publishes the rows to the panels that listen, a batch at a time. `inserted`: the rows were just
   * inserted, those marked sent there need no second write. Once the service stops taking work,
   * the rows not yet published are handed back for another instance to publish at once.
   */
  private async dispatch(rows: CommandRecord[], keys: Map<number, string>, inserted = false) {
    const sendable: CommandRecord[] = [];
    for (const [index, row] of rows.entries()) {
      if (this.stopping) return this.handBack([...sendable, ...rows.slice(index)]);
      const key = keys.get(row.device_id);
      if (key === undefined) continue;
      this.readyKeys.set(row.device_id, key);
      if (row.order_code === 'POWERUP') await this.powerUp(row, key);
      else if (this.gateway.isReady(key)) sendable.push(row);
    }
    for (let i = 0; i < sendable.length; i += this.timings.publishBatch) {
      if (this.stopping) return this.handBack(sendable.slice(i));
      const part = sendable.slice(i, i + this.timings.publishBatch);
      await Promise.all(
        part.map((row) => {
          const key = keys.get(row.device_id)!;
          return this.gateway.sendCommand(key, this.envelope(row, key));
        }),
      );
      const toMark = inserted ? part.filter((r) => r.status !== 'sent') : part;
      if (toMark.length)
        await this.commands.markSentForPanels(
          toMark.map((r) => r.id),
          this.clock.now(),
        );
      // Publishing may complete synchronously: let acknowledgements and HTTP in between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async handBack(rows: CommandRecord[]) {
    if (!rows.length) return;
    const ids = rows.map((r) => r.id);
    await this.commands.handBackForPanels(ids, this.clock.now(), this.timings.retryMs);
    this.log.info(
      { commands: rows.length },
      'shutting down: unpublished commands handed to the other instances',
    );
  }

  /**
   * A panel that is connected in standby gets POWERUP directly; one that is off is woken by up
   * to two online panels of its LAN (Wake-on-LAN). POWERUP succeeds when the panel connects.
   */
  private async powerUp(row: CommandRecord, deviceKey: string) {
    const now = this.clock.now();
    if (this.gateway.isReady(deviceKey)) {
      const target = await this.devices.findById(row.org_id, row.device_id);
      if (target?.power === 'standby') {
        await this.gateway.sendCommand(deviceKey, this.envelope(row, deviceKey));
        await this.commands.markSentForPanels([row.id], now);
      } else await this.commands.setStatusForPanels([row.id], 'succeeded', 'alreadyOn', now);
      return;
    }
    if (row.status !== 'queued') return;
    const target = await this.devices.findById(row.org_id, row.device_id);
    const broadcast = target
      ? broadcastAddress({ localIp: target.local_ip, netmask: target.netmask })
      : undefined;
    if (!target || !broadcast || !target.mac) {
      await this.commands.setStatusForPanels([row.id], 'failed', 'noLanAddress', now);
      return;
    }
    const place = { localIp: target.local_ip, netmask: target.netmask };
    const relays = (await this.devices.lanCandidates(row.org_id))
      .filter(
        (c) =>
          c.id !== target.id && this.gateway.isReady(c.device_key) && sameLan(place, { localIp: c.local_ip }),
      )
      .slice(0, MAX_WAKE_RELAYS);
    if (!relays.length) return; // stays queued: retried each tick until a relay is online or it expires
    const wakes: CommandRecord[] = relays.map((relay) => ({
      id: commandId(now),
      org_id: row.org_id,
      device_id: relay.id,
      order_code: 'WAKE',
      value: JSON.stringify({ mac: target.mac, broadcast }),
      status: 'queued',
      detail: '',
      attempts: 0,
      expires_at: row.expires_at,
      created_by: row.created_by,
      relay_for: row.id,
      created_at: now,
      updated_at: now,
    }));
    await this.commands.insertMany(wakes);
    await this.commands.markSentForPanels([row.id], now);
    await this.dispatch(wakes, new Map(relays.map((r) => [r.id, r.device_key])));
  }

  /** The envelope as this panel receives it: an OTA's file, a notification's audio, becomes a URL signed for it now. */
  private envelope(row: CommandRecord, deviceKey: string): device.CommandEnvelope {
    const envelope = envelopeOf(row);
    const valueFor = this.envelopeValues[envelope.order];
    return valueFor ? { ...envelope, value: valueFor(envelope.value, deviceKey) } : envelope;
  }

  private inBackground(work: Promise<unknown>) {
    const tracked = work.catch((err: unknown) => this.log.error({ err }, 'command delivery failed'));
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
  }
}
