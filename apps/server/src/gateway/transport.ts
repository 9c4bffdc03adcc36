import type { device } from '@panelfleet/contract';
import type { PresenceReason } from './report-groups.js';

/** What a broker connection tells the gateway. */
export interface TransportHandlers {
  message(deviceKey: string, kind: device.DevicePublishKind, payload: Buffer): void;
  /** The panel connected or went away; why, when the broker knows (else connected / disconnected). */
  presence(deviceKey: string, online: boolean, reason?: PresenceReason): void;
  /** The panel has subscribed to its command topic: commands published now reach it. */
  ready(deviceKey: string): void;
  /**
   * The broker connection was lost: which panels are online is unknown until presence is learnt
   * again (retained presence and the panels' own announcements after the reconnect).
   */
  presenceLost(): void;
}

/** The embedded Aedes broker or an external broker reached as a privileged client. */
export interface DeviceTransport {
  readonly description: string;
  start(handlers: TransportHandlers): Promise<void>;
  /** At the protocol's command QoS, never retained: the command service publishes again until acknowledged. */
  publishCommand(deviceKey: string, payload: string): Promise<void>;
  /**
   * A receipt (protocol 5.9) at QoS 0, never retained, to a panel that subscribed to its receipt
   * topic; nothing for one that did not (it was built before receipts, or its broker refused it).
   */
  publishReceipt(deviceKey: string, payload: string): Promise<void>;
  /**
   * Ends the panel's connection now (it was disabled, deleted or re-enrolled), where the broker
   * lets the server do so: the embedded one does; an external one is told through provisioning.
   */
  disconnect(deviceKey: string): void;
  /** Whether panels can reach the server now (GET /healthz): the broker runs, or we are connected to it. */
  healthy(): boolean;
  close(): Promise<void>;
}

/** Logger shape shared with Fastify's pino logger. */
export interface GatewayLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * The broker could not take a change now (not connected, or no answer in time): the change may
 * succeed when tried again, so a panel's enrollment is answered 503 and the panel enrolls again.
 */
export class BrokerUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrokerUnavailable';
  }
}
