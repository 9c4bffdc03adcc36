import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { isFail, servers, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { Refusal, RelayedRefusal } from '../../refusal.js';
import type { ServerIdentityRepository } from './repository.js';

const { LICENSE_CODES } = servers;

/** The first non-internal MAC address of this machine, as the platform lists it. */
export function machineMac(): string {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const address of addresses ?? [])
      if (!address.internal && address.mac !== '00:00:00:00:00:00') return address.mac;
  }
  return '00:00:00:00:00:00';
}

export const machineOs = () => `${os.type()} ${os.release()} ${os.arch()}`;

/**
 * A private deployment (PLATFORM_URL set): it must be activated with a server license through the
 * platform (3004 first activation, 3005 re-activation after expiry), then reports itself on a timer.
 * Without PLATFORM_URL this server is the platform and needs no activation.
 */
export class ServerLicense {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      identity: ServerIdentityRepository;
      clock: Clock;
      log: FastifyBaseLogger;
      platformUrl?: string;
      reportIntervalMs: number;
    },
  ) {}

  get isPrivate(): boolean {
    return this.deps.platformUrl !== undefined;
  }

  private identity() {
    return this.deps.identity.get();
  }

  /** Throws the 3004 or 3005 refusal while this private deployment may not be used. */
  async requireActive(): Promise<void> {
    if (!this.isPrivate) return;
    const identity = await this.identity();
    if (!identity.secret)
      throw new Refusal('serverLicense.notActivated', 'declined', {}, LICENSE_CODES.firstActivation);
    if ((identity.valid_end ?? 0) < this.deps.clock.now())
      throw new Refusal('serverLicense.expired', 'declined', {}, LICENSE_CODES.reactivation);
  }

  async activate(license: string, mode: 'first' | 'renew', language: Language): Promise<void> {
    if (!this.isPrivate) throw new Refusal('serverLicense.notPrivate');
    const identity = await this.identity();
    if (mode === 'first' && identity.secret) throw new Refusal('serverLicense.alreadyActivated');
    if (mode === 'renew' && !identity.secret)
      throw new Refusal('serverLicense.notActivated', 'declined', {}, LICENSE_CODES.firstActivation);
    const reply = await this.callPlatform(
      servers.enrollServer.path,
      { serverId: identity.server_id, mac: machineMac(), os: machineOs(), license, mode },
      language,
    );
    const { dataObject } = servers.enrollServer.reply.parse(reply);
    await this.deps.identity.update({
      secret: dataObject.secret,
      company_name: dataObject.companyName,
      valid_begin: dataObject.validBegin,
      valid_end: dataObject.validEnd,
      activated_at: this.deps.clock.now(),
    });
    this.deps.log.info(
      { company: dataObject.companyName, validEnd: dataObject.validEnd, mode },
      'private server activated',
    );
    this.startReporting();
  }

  /** Tells the platform this deployment is alive; the platform's answer refreshes the validity. */
  async reportNow(): Promise<void> {
    const identity = await this.identity();
    if (!identity.secret) return;
    const reply = await this.callPlatform(
      servers.reportServer.path,
      { serverId: identity.server_id, mac: machineMac(), os: machineOs(), secret: identity.secret },
      'en-US',
    );
    const { dataObject } = servers.reportServer.reply.parse(reply);
    await this.deps.identity.update({ valid_end: dataObject.validEnd });
  }

  startReporting(): void {
    if (!this.isPrivate || this.timer) return;
    this.timer = setInterval(() => {
      this.reportNow().catch((err: unknown) =>
        this.deps.log.warn({ err }, 'report to the platform failed; will retry'),
      );
    }, this.deps.reportIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async callPlatform(
    path: string,
    form: Record<string, string>,
    language: Language,
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.deps.platformUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': language },
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      this.deps.log.warn({ err: error, platform: this.deps.platformUrl }, 'platform unreachable');
      throw new Refusal('serverLicense.platformUnreachable', 'upstreamFailed');
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (isFail(body)) throw new RelayedRefusal(body.hhtMsg, body.hhtErrorCode);
    if (!response.ok || body === undefined)
      throw new Refusal('serverLicense.platformUnreachable', 'upstreamFailed');
    return body;
  }
}
