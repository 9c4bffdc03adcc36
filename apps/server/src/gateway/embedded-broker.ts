import type { IncomingMessage, Server as HttpServer } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { device } from '@panelfleet/contract';
import type { Aedes, AuthenticateError, Client, PublishPacket } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { secretHashOf, type DeviceDirectory } from './device-directory.js';
import { guardConnection, type FrameScanner, type PacketLimits } from './packet-guard.js';
import { qos0PublishPacket } from './publish-packet.js';
import type { DeviceTransport, GatewayLog, TransportHandlers } from './transport.js';

export interface EmbeddedBrokerOptions {
  /** TCP port; 0 picks a free one (see `port` after start); null disables TCP. */
  tcpPort: number | null;
  host: string;
  /** WebSocket endpoint on the HTTP server, or null to disable it. */
  webSocket: { server: HttpServer; path: string } | null;
  directory: Pick<DeviceDirectory, 'admitsSecret'>;
  log: GatewayLog;
}

const LIMITS: PacketLimits = { connect: device.MAX_CONNECT_BYTES, packet: device.MAX_PACKET_BYTES };
/** A WebSocket message carries at most one packet, fixed header (≤ 5 bytes) included. */
const MAX_WEBSOCKET_MESSAGE = device.MAX_PACKET_BYTES + 5;

const BAD_CREDENTIALS = 4;
/** Connections checked at once after this instance may have missed access changes. */
const RECHECK_AT_ONCE = 50;
const IDENTIFIER_REJECTED = 2;

const noop = () => undefined;

/** The kind of `pf/v1/d/{deviceKey}/{kind}` when the topic is exactly one of this panel's publish topics. */
function kindOf(topic: string, prefix: string, deviceKey: string): device.DevicePublishKind | undefined {
  const kindAt = prefix.length + deviceKey.length + 1;
  if (
    topic.length <= kindAt ||
    !topic.startsWith(prefix) ||
    !topic.startsWith(deviceKey, prefix.length) ||
    topic.charCodeAt(kindAt - 1) !== 47 // '/'
  )
    return undefined;
  const kind = topic.slice(kindAt);
  return device.isDevicePublishKind(kind) ? kind : undefined;
}

function refusal(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * The in-process MQTT broker (Aedes). Its hooks enforce the device ACL: a panel connects with
 * client id = user name = its device key and its own password, publishes only on
 * pf/v1/d/{its key}/{kind}, and subscribes only to pf/v1/d/{its key}/cmd and .../receipt.
 */
export class EmbeddedBroker implements DeviceTransport {
  readonly description = 'embedded broker (Aedes)';
  port: number | undefined;
  private broker: Aedes | undefined;
  private tcp: net.Server | undefined;
  private wss: WebSocketServer | undefined;
  /** The live connection of each panel, so a stale connection's disconnect does not mark it offline. */
  private current = new Map<string, Client>();
  /** The packet-size guard of each connection, told when the broker accepts it. */
  private scanners = new WeakMap<object, FrameScanner>();
  /** The secret each connection was let in with, checked again when the panel's access changes. */
  private secrets = new WeakMap<Client, string>();
  /** Every connection handed to Aedes and not closed yet, and whether the broker is closing. */
  private connections = new Set<Duplex>();
  private closing = false;
  /** Connections subscribed to their receipt topic: only they are sent receipts. */
  private receiptListeners = new WeakSet<Client>();

  constructor(private readonly options: EmbeddedBrokerOptions) {}

  async start(handlers: TransportHandlers): Promise<void> {
    const { Aedes } = await import('aedes');
    const { directory, log } = this.options;
    const broker = await Aedes.createBroker({
      authenticate: (client, username, password, done) => {
        const key = username ?? '';
        if (!device.DEVICE_KEY_PATTERN.test(key) || !password)
          return done(refusal('bad credentials', BAD_CREDENTIALS), false);
        // Checked before Aedes takes over an existing session, so a thief never disconnects the owner.
        if (client.id !== key)
          return done(refusal('client id must equal the device key', IDENTIFIER_REJECTED), false);
        const secret = secretHashOf(password.toString('utf8'));
        directory.admitsSecret(key, secret).then(
          (ok) => {
            if (ok) this.secrets.set(client, secret);
            else log.warn({ deviceKey: key }, 'device refused: wrong credentials');
            done(ok ? null : refusal('bad credentials', BAD_CREDENTIALS), ok);
          },
          (err: unknown) => {
            log.error({ err, deviceKey: key }, 'device authentication failed');
            done(refusal('server unavailable', 3), false);
          },
        );
      },
      authorizePublish: (client, packet, done) => {
        if (!client) return done(null);
        const topic = device.parseDeviceTopic(packet.topic);
        const allowed =
          topic !== undefined && topic.deviceKey === client.id && device.isDevicePublishKind(topic.kind);
        const retainAllowed = !packet.retain || topic?.kind === 'presence';
        if (allowed && retainAllowed) {
          // Presence comes from connections here, so the broker never stores it: a retained
          // message per panel would make every SUBSCRIBE scan all of them (O(N) per connect).
          if (packet.retain) packet.retain = false;
          return done(null);
        }
        log.warn({ deviceKey: client.id, topic: packet.topic }, 'device publish refused; disconnecting it');
        done(new Error('publish not allowed'));
      },
      authorizeSubscribe: (client, subscription, done) => {
        const own = [device.commandTopic(client.id), device.receiptTopic(client.id)];
        if (own.includes(subscription.topic)) return done(null, subscription);
        log.warn({ deviceKey: client.id, topic: subscription.topic }, 'device subscription refused');
        done(null, null);
      },
    });
    this.broker = broker;

    broker.on('clientReady', (client) => {
      this.scanners.get(client.conn)?.accept();
      this.current.set(client.id, client);
      handlers.presence(client.id, true);
    });
    // A connection whose keepalive lapsed went away without a word (power, network): its history says so.
    const lapsed = new WeakSet<object>();
    broker.on('keepaliveTimeout', (client) => lapsed.add(client));
    broker.on('clientDisconnect', (client) => {
      if (this.current.get(client.id) !== client) return;
      this.current.delete(client.id);
      handlers.presence(client.id, false, lapsed.has(client) ? 'keepalive' : 'disconnected');
    });
    broker.on('subscribe', (subscriptions, client) => {
      if (!client) return;
      if (subscriptions.some((s) => s.topic === device.receiptTopic(client.id)))
        this.receiptListeners.add(client);
      if (subscriptions.some((s) => s.topic === device.commandTopic(client.id))) handlers.ready(client.id);
    });
    broker.on('unsubscribe', (topics, client) => {
      if (client && topics.includes(device.receiptTopic(client.id))) this.receiptListeners.delete(client);
    });

    this.deliverToServer(broker, handlers);
    if (this.options.tcpPort !== null) {
      const tcp = net.createServer((socket) => this.accept(broker, socket));
      this.tcp = tcp;
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(this.options.tcpPort ?? 1883, this.options.host, () => resolve());
      });
      const address = tcp.address();
      this.port = typeof address === 'object' && address ? address.port : undefined;
    }
    if (this.options.webSocket)
      this.attachWebSocket(broker, this.options.webSocket.server, this.options.webSocket.path);
  }

  /**
   * What panels publish on the kinds the server reads goes straight to the gateway. Only the
   * panel itself may publish on its topics (authorizePublish, which ran before) and no connection
   * may subscribe to them (authorizeSubscribe), so the server is their only reader: the broker's
   * generic path (a packet copy, the offline-queue lookup in its subscription tree, the emitter's
   * topic match, a dozen callbacks) did nothing for them but cost about a third of the server's CPU
   * per state report (docs/benchmarks.md, profiles). The QoS 1 PUBACK is written before, as ever.
   * Presence (wills) and everything else keep the broker's path. This broker's announcements of
   * each connect and disconnect are not published: they are for a cluster of brokers sharing
   * clients, which embedded brokers never are, and no panel may subscribe to them.
   */
  private deliverToServer(broker: Aedes, handlers: TransportHandlers) {
    // Aedes' typings omit the form its protocol handlers call: publish(packet, client, done).
    const generic = broker.publish.bind(broker) as unknown as (
      packet: PublishPacket,
      client: Client | null,
      done: (error?: Error) => void,
    ) => void;
    const prefix = `${device.TOPIC_ROOT}/`;
    const announcements = new Set([`$SYS/${broker.id}/new/clients`, `$SYS/${broker.id}/disconnect/clients`]);
    const direct: Aedes['publish'] = (packet: PublishPacket, ...rest: unknown[]) => {
      const [client, done] = (typeof rest[0] === 'function' ? [null, rest[0]] : rest) as [
        Client | null,
        ((error?: Error) => void) | undefined,
      ];
      if (!client && announcements.has(packet.topic)) {
        if (done) process.nextTick(done);
        return;
      }
      const kind = client?.id ? kindOf(packet.topic, prefix, client.id) : undefined;
      if (kind === undefined || kind === 'presence') return generic(packet, client, done ?? noop);
      handlers.message(
        client!.id,
        kind,
        Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
      );
      // Not synchronously: a connection's next packet is parsed from this callback, so a long
      // burst would otherwise go one stack frame deeper per message.
      if (done) process.nextTick(done);
    };
    broker.publish = direct;
  }

  healthy(): boolean {
    if (!this.broker || this.broker.closed) return false;
    return this.tcp ? this.tcp.listening : true;
  }

  private attachWebSocket(broker: Aedes, server: HttpServer, path: string) {
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WEBSOCKET_MESSAGE });
    this.wss = wss;
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (new URL(request.url ?? '/', 'http://x').pathname !== path) {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) =>
        this.accept(broker, createWebSocketStream(ws), request),
      );
    });
  }

  /** Hands a connection to Aedes behind the packet-size guard (docs/device-protocol.md section 4). */
  private accept(broker: Aedes, conn: Duplex, request?: IncomingMessage) {
    if (this.closing) {
      conn.destroy();
      return;
    }
    this.connections.add(conn);
    conn.once('close', () => this.connections.delete(conn));
    const remote = request?.socket.remoteAddress ?? (conn as Partial<net.Socket>).remoteAddress;
    const scanner = guardConnection(conn, LIMITS, (reason) =>
      this.options.log.warn({ remote, reason }, 'MQTT connection closed: packet over the limit'),
    );
    this.scanners.set(conn, scanner);
    broker.handle(conn, request);
  }

  publishCommand(deviceKey: string, payload: string): Promise<void> {
    const broker = this.broker;
    if (!broker) return Promise.reject(new Error('broker not started'));
    const topic = device.commandTopic(deviceKey);
    // Only the panel itself may subscribe to its command topic (authorizeSubscribe), so a command
    // is written straight to its connection as one ready-made packet, without the broker's topic
    // matching and per-message objects (a third of the server's time in a 10,000-panel broadcast).
    const client = this.current.get(deviceKey);
    if (device.COMMAND_QOS === 0 && client?.connected && !client.conn.destroyed) {
      client.conn.write(qos0PublishPacket(topic, payload));
      return Promise.resolve();
    }
    return new Promise((resolve, reject) =>
      broker.publish(
        {
          cmd: 'publish',
          topic,
          payload: Buffer.from(payload),
          qos: device.COMMAND_QOS,
          retain: false,
          dup: false,
        },
        (err) => (err ? reject(err) : resolve()),
      ),
    );
  }

  publishReceipt(deviceKey: string, payload: string): Promise<void> {
    // Straight to the connection, as commands: only the panel itself may subscribe to it.
    const client = this.current.get(deviceKey);
    if (client?.connected && !client.conn.destroyed && this.receiptListeners.has(client))
      client.conn.write(qos0PublishPacket(device.receiptTopic(deviceKey), payload));
    return Promise.resolve();
  }

  disconnect(deviceKey: string) {
    const client = this.current.get(deviceKey);
    if (!client) return;
    this.options.log.info({ deviceKey }, 'device disconnected: it may no longer connect');
    client.close();
  }

  /**
   * Ends the panel's connection here unless the secret it was let in with still admits it (another
   * instance re-enrolled, disabled or removed the panel, or this one may have missed that).
   */
  async recheck(deviceKey: string): Promise<void> {
    const client = this.current.get(deviceKey);
    if (!client?.connected) return;
    const secret = this.secrets.get(client);
    if (secret && (await this.options.directory.admitsSecret(deviceKey, secret))) return;
    if (!client.connected) return;
    this.options.log.info({ deviceKey }, 'device disconnected: its access changed');
    client.close();
  }

  /** `recheck` of every panel connected here, a few at a time. */
  async recheckAll(): Promise<void> {
    const keys = [...this.current.keys()];
    for (let i = 0; i < keys.length; i += RECHECK_AT_ONCE)
      await Promise.all(keys.slice(i, i + RECHECK_AT_ONCE).map((key) => this.recheck(key)));
  }

  /** Topics the broker keeps retained messages for (none in normal operation; diagnostics and tests). */
  async retainedTopics(): Promise<string[]> {
    const broker = this.broker;
    if (!broker) return [];
    const topics: string[] = [];
    // Aedes' typings omit its persistence; this is the documented aedes-persistence interface.
    const { persistence } = broker as unknown as {
      persistence: { createRetainedStream(pattern: string): AsyncIterable<{ topic: string }> };
    };
    for await (const packet of persistence.createRetainedStream('#')) topics.push(packet.topic);
    return topics;
  }

  /**
   * Takes no new connection first: panels reconnecting while the broker closes its clients would
   * otherwise keep the TCP server open until they gave up (seen at SIGTERM under load).
   */
  async close(): Promise<void> {
    this.closing = true;
    const tcpClosed = new Promise<void>((resolve) =>
      this.tcp ? this.tcp.close(() => resolve()) : resolve(),
    );
    for (const client of this.wss?.clients ?? []) client.terminate();
    await new Promise<void>((resolve) => (this.broker ? this.broker.close(() => resolve()) : resolve()));
    // Connections the broker did not end (still before their CONNECT) end here.
    for (const conn of this.connections) conn.destroy();
    await tcpClosed;
    this.wss?.close();
  }
}
