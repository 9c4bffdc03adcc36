import crypto from 'node:crypto';
import type { DeviceCredentials, DeviceRepository } from '../modules/devices/repository.js';
import { tokenHash } from '../security/tokens.js';

interface Waiting {
  resolve(found: DeviceCredentials | null): void;
  reject(err: unknown): void;
}

export interface KnownDevice {
  id: number;
  orgId: number;
  deviceKey: string;
}

/**
 * Device credentials by key, cached so that thousands of (re)connects and messages do not each
 * read the database. Enrollment, re-enrollment, disabling and deletion call `forget`, on every
 * instance (the event bus's `panelAccess`, gateway/access-sync.ts); `forgetAll` drops everything
 * when this instance may have missed such a change. Only an enabled panel is known: a disabled
 * one may not connect and its messages are not stored.
 */
export class DeviceDirectory {
  private cache = new Map<string, DeviceCredentials | null>();
  /**
   * Reads under way by key: the messages of a panel that arrive meanwhile wait for the same read
   * (one query per panel, not one per message, when many come before the first answer) and are
   * handled in the order they came.
   */
  private reading = new Map<string, Promise<DeviceCredentials | null>>();
  /** Moves at every `forget`: a read that began before it must not cache what it found. */
  private generation = 0;
  /** Keys to read in the next query, with who waits for each. */
  private batch: Map<string, Waiting[]> | undefined;

  constructor(private readonly devices: DeviceRepository) {}

  private async credentials(deviceKey: string): Promise<DeviceCredentials | null> {
    const cached = this.cache.get(deviceKey);
    if (cached !== undefined) return cached;
    const under = this.reading.get(deviceKey);
    if (under) return under;
    const read = this.read(deviceKey).finally(() => {
      if (this.reading.get(deviceKey) === read) this.reading.delete(deviceKey);
    });
    this.reading.set(deviceKey, read);
    return read;
  }

  /**
   * Joins the keys read in this turn of the event loop: one query for all of them. Panels connect
   * in crowds (a restart, a network coming back), and a query per connect was most of the
   * server's own CPU per connect (docs/benchmarks.md, profiles).
   */
  private read(deviceKey: string): Promise<DeviceCredentials | null> {
    return new Promise((resolve, reject) => {
      const batch = (this.batch ??= this.startBatch());
      const waiting = batch.get(deviceKey);
      if (waiting) waiting.push({ resolve, reject });
      else batch.set(deviceKey, [{ resolve, reject }]);
    });
  }

  private startBatch(): Map<string, Waiting[]> {
    const batch = new Map<string, Waiting[]>();
    const generation = this.generation;
    setImmediate(() => {
      this.batch = undefined;
      this.devices.credentialsForPanels([...batch.keys()]).then(
        (rows) => {
          const byKey = new Map(rows.map((row) => [row.device_key, row]));
          const current = generation === this.generation;
          if (current && this.cache.size + batch.size > 200_000) this.cache.clear();
          for (const [key, waiting] of batch) {
            const found = byKey.get(key) ?? null;
            if (current) this.cache.set(key, found);
            for (const { resolve } of waiting) resolve(found);
          }
        },
        (err: unknown) => {
          for (const waiting of batch.values()) for (const { reject } of waiting) reject(err);
        },
      );
    });
    return batch;
  }

  /** True when the password is this enabled panel's own secret. */
  verify(deviceKey: string, password: string): Promise<boolean> {
    return this.admitsSecret(deviceKey, secretHashOf(password));
  }

  /** True when `secretHash` (`secretHashOf` a password) is this enabled panel's secret now. */
  async admitsSecret(deviceKey: string, secretHash: string): Promise<boolean> {
    const found = await this.credentials(deviceKey);
    if (!found || found.state !== 1) return false;
    const given = Buffer.from(secretHash, 'hex');
    const expected = Buffer.from(found.secret_hash, 'hex');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  async resolve(deviceKey: string): Promise<KnownDevice | undefined> {
    return this.cached(deviceKey) ?? knownOf(deviceKey, await this.credentials(deviceKey));
  }

  /** The device when its credentials are cached (every connected panel's are): no promise per message. */
  cached(deviceKey: string): KnownDevice | undefined {
    return knownOf(deviceKey, this.cache.get(deviceKey));
  }

  forget(deviceKey: string) {
    this.generation++;
    this.cache.delete(deviceKey);
    this.reading.delete(deviceKey);
  }

  /** Every panel's credentials are read again when next needed. */
  forgetAll() {
    this.generation++;
    this.cache.clear();
    this.reading.clear();
  }
}

/** What the database keeps of a panel's password, and what a connection is checked against later. */
export const secretHashOf = (password: string) => tokenHash(password);

function knownOf(deviceKey: string, found: DeviceCredentials | null | undefined): KnownDevice | undefined {
  return found && found.state === 1 ? { id: found.id, orgId: found.org_id, deviceKey } : undefined;
}
