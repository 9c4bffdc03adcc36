/** Version of the device protocol carried in every payload as `v`; bump on a breaking change. */
export const PROTOCOL_VERSION = 1;

/** Every device topic lives under this prefix (the version is part of it, so v2 can run alongside). */
export const TOPIC_ROOT = 'pf/v1/d';

/** Messages a panel publishes, each on `pf/v1/d/{deviceKey}/{kind}`. */
export const DEVICE_PUBLISH_KINDS = [
  'presence',
  'state',
  'apps',
  'usage',
  'ack',
  'log',
  'settings',
  'play',
] as const;
export type DevicePublishKind = (typeof DEVICE_PUBLISH_KINDS)[number];
export const isDevicePublishKind = (kind: string): kind is DevicePublishKind =>
  (DEVICE_PUBLISH_KINDS as readonly string[]).includes(kind);

/**
 * QoS of each message. Sessions are clean, so QoS 1 only guards a live TCP connection, which
 * loses nothing anyway; where a later message makes up for a lost one, QoS 0 saves a PUBACK per
 * message: commands are published again until acknowledged (and acknowledged again when repeated),
 * and state is reported periodically. What nothing would repeat stays QoS 1.
 */
export const PUBLISH_QOS: Record<DevicePublishKind, 0 | 1> = {
  presence: 1,
  state: 0,
  apps: 1,
  usage: 1,
  ack: 0,
  log: 1,
  settings: 1,
  play: 1,
};
export const COMMAND_QOS = 0 as const;

/** The topic a panel subscribes to for its commands. */
export const COMMAND_KIND = 'cmd';
/**
 * The topic a panel subscribes to for receipts: the server names there what it has stored of the
 * panel's final acknowledgements, usage reports and logs (protocol 5.9). Optional: a panel that does
 * not subscribe gets none and works as before.
 */
export const RECEIPT_KIND = 'receipt';
/** Server to panel, never retained; a lost receipt only makes the panel send the report again. */
export const RECEIPT_QOS = 0 as const;
/** Topics the server publishes on and panels only subscribe to. */
export type ServerPublishKind = typeof COMMAND_KIND | typeof RECEIPT_KIND;

/** A device key (serial number) is also its MQTT user name, client id and topic segment. */
export const DEVICE_KEY_PATTERN = /^[A-Za-z0-9_-]{4,64}$/;

export const deviceTopic = (deviceKey: string, kind: DevicePublishKind | ServerPublishKind) =>
  `${TOPIC_ROOT}/${deviceKey}/${kind}`;

export const commandTopic = (deviceKey: string) => deviceTopic(deviceKey, COMMAND_KIND);
export const receiptTopic = (deviceKey: string) => deviceTopic(deviceKey, RECEIPT_KIND);

/** What the server subscribes to (on an external broker, data topics through a shared subscription). */
export const SERVER_DATA_FILTER = `${TOPIC_ROOT}/+/+`;
export const SERVER_SHARE_GROUP = 'panelfleet';

export interface ParsedTopic {
  deviceKey: string;
  kind: DevicePublishKind | ServerPublishKind;
}

/** Splits a device topic; undefined for anything that is not exactly `pf/v1/d/{key}/{kind}`. */
export function parseDeviceTopic(topic: string): ParsedTopic | undefined {
  const parts = topic.split('/');
  if (parts.length !== 5 || `${parts[0]}/${parts[1]}/${parts[2]}` !== TOPIC_ROOT) return undefined;
  const deviceKey = parts[3]!;
  const kind = parts[4]!;
  if (!DEVICE_KEY_PATTERN.test(deviceKey)) return undefined;
  if (kind !== COMMAND_KIND && kind !== RECEIPT_KIND && !isDevicePublishKind(kind)) return undefined;
  return { deviceKey, kind: kind as ParsedTopic['kind'] };
}

/** Largest payload the server accepts on any device topic; larger ones are dropped and logged. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
/** Abnormal logs may be bigger than other messages. */
export const MAX_LOG_PAYLOAD_BYTES = 256 * 1024;
/**
 * Largest MQTT packet (its remaining length) a broker of this server reads: the largest payload
 * (a log) plus room for the topic and header. A larger packet closes the connection before the
 * broker buffers it; payloads between their kind's limit and this one are dropped and logged.
 */
export const MAX_PACKET_BYTES = MAX_LOG_PAYLOAD_BYTES + 1024;
/**
 * Largest packet before the broker has accepted the connection (CONNECT and anything sent before
 * its CONNACK). A panel's CONNECT (ids, password, presence will) is a few hundred bytes.
 */
export const MAX_CONNECT_BYTES = 4 * 1024;
