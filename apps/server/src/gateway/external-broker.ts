import { device } from '@panelfleet/contract';
import mqtt, { type MqttClient } from 'mqtt';
import type { DeviceTransport, GatewayLog, TransportHandlers } from './transport.js';

/**
 * An external broker (Mosquitto, EMQX) reached as a privileged client. Data topics come through a
 * shared subscription so several server instances split the traffic; presence (retained, with the
 * panels' last wills) is read by every instance. The broker enforces the device ACL itself
 * (docs/device-protocol.md, "External broker").
 */
export class ExternalBroker implements DeviceTransport {
  readonly description: string;
  private client: MqttClient | undefined;

  constructor(
    private readonly url: string,
    private readonly log: GatewayLog,
    private readonly clientId = `panelfleet-server-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
  ) {
    this.description = `external broker ${new URL(url).host}`;
  }

  async start(handlers: TransportHandlers): Promise<void> {
    const client = await mqtt.connectAsync(this.url, { clientId: this.clientId, clean: true, reconnectPeriod: 1000, protocolVersion: 5 });
    this.client = client;
    client.on('error', (err) => this.log.error({ err }, 'external broker error'));
    client.on('message', (topicName, payload) => {
      const topic = device.parseDeviceTopic(topicName);
      if (!topic || topic.kind === device.COMMAND_KIND) return;
      if (topic.kind !== 'presence') return handlers.message(topic.deviceKey, topic.kind, payload);
      const parsed = device.presence.safeParse(safeJson(payload));
      if (!parsed.success) {
        this.log.warn({ deviceKey: topic.deviceKey }, 'malformed presence dropped');
        return;
      }
      handlers.presence(topic.deviceKey, parsed.data.online);
      // Panels publish presence after subscribing to their command topic (protocol, step 4).
      if (parsed.data.online) handlers.ready(topic.deviceKey);
    });
    const dataKinds = device.DEVICE_PUBLISH_KINDS.filter((k) => k !== 'presence');
    await client.subscribeAsync([
      ...dataKinds.map((kind) => `$share/${device.SERVER_SHARE_GROUP}/${device.TOPIC_ROOT}/+/${kind}`),
      `${device.TOPIC_ROOT}/+/presence`,
    ], { qos: 1 });
  }

  async publish(topic: string, payload: string): Promise<void> {
    if (!this.client) throw new Error('external broker not connected');
    await this.client.publishAsync(topic, payload, { qos: 1, retain: false });
  }

  async close(): Promise<void> {
    await this.client?.endAsync();
  }
}

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}
