import crypto from 'node:crypto';
import type { DeviceCredentials, DeviceRepository } from '../modules/devices/repository.js';
import { tokenHash } from '../security/tokens.js';

export interface KnownDevice {
  id: number;
  orgId: number;
  deviceKey: string;
}

/**
 * Device credentials by key, cached so that thousands of (re)connects and messages do not each
 * read the database. Enrollment, re-enrollment, disabling and deletion call `forget`. Only an
 * enabled panel is known: a disabled one may not connect and its messages are not stored.
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

  private async read(deviceKey: string): Promise<DeviceCredentials | null> {
    const generation = this.generation;
    const found = (await this.devices.credentialsForPanel(deviceKey)) ?? null;
    if (generation !== this.generation) return found;
    if (this.cache.size > 200_000) this.cache.clear();
    this.cache.set(deviceKey, found);
    return found;
  }

  /** True when the password is this enabled panel's own secret. */
  async verify(deviceKey: string, password: string): Promise<boolean> {
    const found = await this.credentials(deviceKey);
    if (!found || found.state !== 1) return false;
    const given = Buffer.from(tokenHash(password), 'hex');
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
}

function knownOf(deviceKey: string, found: DeviceCredentials | null | undefined): KnownDevice | undefined {
  return found && found.state === 1 ? { id: found.id, orgId: found.org_id, deviceKey } : undefined;
}
