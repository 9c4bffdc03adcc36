import type { IncomingMessage, Server as HttpServer } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { device } from '@panelfleet/contract';
import type { Aedes, AuthenticateError, Client } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import type { DeviceDirectory } from './device-directory.js';
import { guardConnection, type FrameScanner, type PacketLimits } from './packet-guard.js';
import { qos0PublishPacket } from './publish-packet.js';
import type { DeviceTransport, GatewayLog, TransportHandlers } from './transport.js';

export interface EmbeddedBrokerOptions {
  /** TCP port; 0 picks a free one (see `port` after start); null disables TCP. */
  tcpPort: number | null;
  host: string;
  /** WebSocket endpoint on the HTTP server, or null to disable it. */
  webSocket: { server: HttpServer; path: string } | null;
  directory: Pick<DeviceDirectory, 'verify'>;
  log: GatewayLog;
}

const LIMITS: PacketLimits = { connect: device.MAX_CONNECT_BYTES, packet: device.MAX_PACKET_BYTES };
/** A WebSocket message carries at most one packet, fixed header (≤ 5 bytes) included. */
const MAX_WEBSOCKET_MESSAGE = device.MAX_PACKET_BYTES + 5;

const BAD_CREDENTIALS = 4;
const IDENTIFIER_REJECTED = 2;

function refusal(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * The in-process MQTT broker (Aedes). Its hooks enforce the device ACL: a panel connects with
 * client id = user name = its device key and its own password, publishes only on
 * pf/v1/d/{its key}/{kind}, and subscribes only to pf/v1/d/{its key}/cmd.
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
        directory.verify(key, password.toString('utf8')).then(
          (ok) => {
            if (!ok) log.warn({ deviceKey: key }, 'device refused: wrong credentials');
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
          topic !== undefined && topic.deviceKey === client.id && topic.kind !== device.COMMAND_KIND;
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
        if (subscription.topic === device.commandTopic(client.id)) return done(null, subscription);
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
    broker.on('clientDisconnect', (client) => {
      if (this.current.get(client.id) !== client) return;
      this.current.delete(client.id);
      handlers.presence(client.id, false);
    });
    broker.on('subscribe', (subscriptions, client) => {
      if (client && subscriptions.some((s) => s.topic === device.commandTopic(client.id)))
        handlers.ready(client.id);
    });

    // Presence comes from connections here; the panels' presence messages and wills are for external brokers.
    const kinds = device.DEVICE_PUBLISH_KINDS.filter((k) => k !== 'presence');
    await Promise.all(
      kinds.map(
        (kind) =>
          new Promise<void>((resolve) =>
            broker.subscribe(
              `${device.TOPIC_ROOT}/+/${kind}`,
              (packet, callback) => {
                const topic = device.parseDeviceTopic(packet.topic);
                if (topic)
                  handlers.message(
                    topic.deviceKey,
                    kind,
                    Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
                  );
                // Not synchronously: when thousands of messages queue up in Aedes' emitter, each
                // synchronous completion starts the next message one frame deeper, until the stack
                // overflows (seen with 10,000 panels acknowledging a label command).
                process.nextTick(callback);
              },
              resolve,
            ),
          ),
      ),
    );

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

  disconnect(deviceKey: string) {
    const client = this.current.get(deviceKey);
    if (!client) return;
    this.options.log.info({ deviceKey }, 'device disconnected: it may no longer connect');
    client.close();
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

  async close(): Promise<void> {
    for (const client of this.wss?.clients ?? []) client.terminate();
    await new Promise<void>((resolve) => (this.broker ? this.broker.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => (this.tcp ? this.tcp.close(() => resolve()) : resolve()));
    this.wss?.close();
  }
}
