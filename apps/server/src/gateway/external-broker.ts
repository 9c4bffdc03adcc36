import { device } from '@panelfleet/contract';
import mqtt, { type MqttClient } from 'mqtt';
import {
  DYNSEC_CONTROL_TOPIC,
  DYNSEC_RESPONSE_TOPIC,
  enableCommands,
  provisionCommands,
  removeCommands,
  unexpectedErrors,
  type DynsecCommand,
  type DynsecResponse,
} from './dynsec.js';
import { bounded } from './bounded.js';
import {
  BrokerUnavailable,
  type DeviceTransport,
  type GatewayLog,
  type TransportHandlers,
} from './transport.js';

/** Keeps a broker's own user database in step with the panels' credentials (enrollment, disabling). */
export interface CredentialSync {
  credentialsChanged(deviceKey: string, password: string): Promise<void>;
  enabledChanged(deviceKey: string, enabled: boolean): Promise<void>;
  removed(deviceKey: string): Promise<void>;
}

const CONTROL_TIMEOUT_MS = 10_000;

/**
 * An external broker (Mosquitto, EMQX) reached as a privileged client. Data topics come through a
 * shared subscription so several server instances split the traffic; presence (retained, with the
 * panels' last wills) is read by every instance. The broker enforces the device ACL itself
 * (docs/device-protocol.md, "External broker").
 */
export class ExternalBroker implements DeviceTransport, CredentialSync {
  readonly description: string;
  private client: MqttClient | undefined;
  /** Dynsec requests go one at a time, in the order they were made (a re-enrollment after an enrollment). */
  private control: Promise<unknown> = Promise.resolve();
  /**
   * The request waiting for its answer, known by the correlation data its commands carry: every
   * instance reads the one response topic, and an answer that comes after its request gave up must
   * not be taken for the next request's.
   */
  private pendingResponse:
    { correlation: string; resolve: (responses: DynsecResponse[]) => void } | undefined;
  private requests = 0;

  constructor(
    private readonly url: string,
    private readonly log: GatewayLog,
    /** 'dynsec': provision panel credentials into Mosquitto's dynamic-security plugin. */
    private readonly provisioning: 'none' | 'dynsec' = 'none',
    private readonly clientId = `panelfleet-server-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
  ) {
    this.description = `external broker ${new URL(url).host}${provisioning === 'dynsec' ? ' (dynamic-security provisioning)' : ''}`;
  }

  healthy(): boolean {
    return this.client?.connected === true;
  }

  async start(handlers: TransportHandlers): Promise<void> {
    // Credentials may come in the URL (mqtt://user:password@host:port); passed explicitly.
    const parsed = new URL(this.url);
    const credentials = parsed.username
      ? { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) }
      : {};
    const client = await mqtt.connectAsync(this.url, {
      clientId: this.clientId,
      clean: true,
      reconnectPeriod: 1000,
      protocolVersion: 5,
      ...credentials,
    });
    this.client = client;
    client.on('error', (err) => this.log.error({ err }, 'external broker error'));
    // A broker that restarts keeps no sessions (and may keep no retained messages): panels that
    // never come back would stay online for good. Presence is forgotten when the connection drops
    // and learnt again after the reconnect from retained presence and the panels' announcements
    // (mqtt.js subscribes again on its own).
    client.on('close', () => handlers.presenceLost());
    client.on('message', (topicName, payload) => {
      if (topicName === DYNSEC_RESPONSE_TOPIC) return this.controlResponse(payload);
      const topic = device.parseDeviceTopic(topicName);
      if (!topic || !device.isDevicePublishKind(topic.kind)) return;
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
    await client.subscribeAsync(
      [
        ...dataKinds.map((kind) => `$share/${device.SERVER_SHARE_GROUP}/${device.TOPIC_ROOT}/+/${kind}`),
        `${device.TOPIC_ROOT}/+/presence`,
        ...(this.provisioning === 'dynsec' ? [DYNSEC_RESPONSE_TOPIC] : []),
      ],
      { qos: 1 },
    );
  }

  async credentialsChanged(deviceKey: string, password: string) {
    if (this.provisioning === 'dynsec') await this.dynsec(provisionCommands(deviceKey, password));
  }

  async enabledChanged(deviceKey: string, enabled: boolean) {
    if (this.provisioning === 'dynsec') await this.dynsec(enableCommands(deviceKey, enabled));
  }

  async removed(deviceKey: string) {
    if (this.provisioning === 'dynsec') await this.dynsec(removeCommands(deviceKey));
  }

  /**
   * Nothing to do here: the broker holds the connection. With dynamic-security provisioning,
   * disabling, deleting or re-enrolling a panel changes its client there, and Mosquitto ends its
   * connection itself; without provisioning the gateway only stops storing what it sends.
   */
  disconnect() {}

  /** Sends dynsec commands and fails unless every one succeeded (a delete of nothing is fine). */
  private dynsec(commands: DynsecCommand[]): Promise<void> {
    const run = async () => {
      const client = this.client;
      if (!client?.connected) throw new BrokerUnavailable('external broker not connected');
      const correlation = `${this.clientId}-${++this.requests}`;
      const answered = new Promise<DynsecResponse[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          if (this.pendingResponse?.correlation === correlation) this.pendingResponse = undefined;
          reject(
            new BrokerUnavailable(`no answer from the dynamic-security plugin in ${CONTROL_TIMEOUT_MS} ms`),
          );
        }, CONTROL_TIMEOUT_MS);
        this.pendingResponse = {
          correlation,
          resolve: (responses) => {
            clearTimeout(timer);
            resolve(responses);
          },
        };
      });
      const tagged = commands.map((c) => ({ ...c, correlationData: correlation }));
      await client.publishAsync(DYNSEC_CONTROL_TOPIC, JSON.stringify({ commands: tagged }), { qos: 1 });
      const errors = unexpectedErrors(commands, await answered);
      if (errors.length) throw new Error(`dynamic-security refused: ${errors.join('; ')}`);
    };
    const next = this.control.then(run, run);
    this.control = next.catch(() => undefined);
    return next;
  }

  /** Answers to another instance's requests, or to one of ours that gave up waiting, are not ours to take. */
  private controlResponse(payload: Buffer) {
    const parsed = safeJson(payload) as { responses?: DynsecResponse[] } | undefined;
    if (!Array.isArray(parsed?.responses))
      return this.log.warn(
        { payload: payload.toString('utf8', 0, 200) },
        'malformed dynamic-security response',
      );
    const pending = this.pendingResponse;
    if (!pending) return;
    if (!parsed.responses.some((r) => r.correlationData === pending.correlation)) return;
    this.pendingResponse = undefined;
    pending.resolve(parsed.responses);
  }

  async publishCommand(deviceKey: string, payload: string): Promise<void> {
    // Not queued while disconnected (mqtt.js would hold it, and its promise, until a reconnect that
    // may never come): the command stays unacknowledged and is published again once the panel is back.
    if (!this.client?.connected) throw new Error('external broker not connected');
    await this.client.publishAsync(device.commandTopic(deviceKey), payload, {
      qos: device.COMMAND_QOS,
      retain: false,
    });
  }

  async publishReceipt(deviceKey: string, payload: string): Promise<void> {
    // Not queued while disconnected either: a panel sends again what no receipt named.
    if (!this.client?.connected) return;
    await this.client.publishAsync(device.receiptTopic(deviceKey), payload, {
      qos: device.RECEIPT_QOS,
      retain: false,
    });
  }

  async close(): Promise<void> {
    const client = this.client;
    if (!client) return;
    // A clean end waits for every message in flight, which never completes without a broker.
    if (client.connected)
      await bounded('external broker disconnect', 2000, this.log, () => client.endAsync());
    await client.endAsync(true);
  }
}

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}
