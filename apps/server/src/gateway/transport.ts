import type { device } from '@panelfleet/contract';

/** What a broker connection tells the gateway. */
export interface TransportHandlers {
  message(deviceKey: string, kind: device.DevicePublishKind, payload: Buffer): void;
  presence(deviceKey: string, online: boolean): void;
  /** The panel has subscribed to its command topic: commands published now reach it. */
  ready(deviceKey: string): void;
}

/** The embedded Aedes broker or an external broker reached as a privileged client. */
export interface DeviceTransport {
  readonly description: string;
  start(handlers: TransportHandlers): Promise<void>;
  /** At the protocol's command QoS, never retained: the command service publishes again until acknowledged. */
  publishCommand(deviceKey: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/** Logger shape shared with Fastify's pino logger. */
export interface GatewayLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
