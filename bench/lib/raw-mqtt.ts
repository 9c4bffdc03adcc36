/**
 * A lean MQTT 3.1.1 client for load generation: CONNECT (credentials, last will), SUBSCRIBE,
 * QoS 1 PUBLISH with several messages in flight, QoS 0 PUBLISH, PINGREQ, and just enough parsing
 * for CONNACK, SUBACK, PUBACK, PINGRESP and incoming PUBLISH (handed to `onMessage`). Packets are built straight into buffers (the topic part once per
 * connection), so one generator process offers far more reports per second than mqtt.js clients,
 * and the benchmark measures the server instead of its own load generators.
 */
import net from 'node:net';

function remainingLength(n: number): Buffer {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return Buffer.from(out);
}

function str(s: string | Buffer): Buffer {
  const bytes = typeof s === 'string' ? Buffer.from(s) : s;
  const len = Buffer.alloc(2);
  len.writeUInt16BE(bytes.length);
  return Buffer.concat([len, bytes]);
}

function packet(firstByte: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([firstByte]), remainingLength(body.length), body]);
}

export interface RawConnectOptions {
  host: string;
  port: number;
  clientId: string;
  username: string;
  password: string;
  keepaliveSeconds: number;
  /** Panels announce themselves with a last will; a publisher or collector has none. */
  will?: { topic: string; payload: string; qos: 1; retain: boolean };
}

/** One connection; `publish` resolves when the broker acknowledged (PUBACK). */
export class RawMqttClient {
  private socket: net.Socket | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  private nextId = 1;
  private waiting = new Map<number, () => void>();
  private onConnack: ((code: number) => void) | undefined;
  private pinger: NodeJS.Timeout | undefined;
  /** PUBLISH fixed-header-less prefix for a topic: its length-prefixed name. */
  private topicCache = new Map<string, Buffer>();
  closed = false;
  /** Every PUBLISH the broker delivers (QoS 1 ones are acknowledged first). */
  onMessage: ((topic: string, payload: Buffer) => void) | undefined;

  connect(options: RawConnectOptions): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: options.host, port: options.port, noDelay: true });
      this.socket = socket;
      socket.on('data', (chunk: Buffer) => this.read(chunk));
      socket.on('error', (err) => reject(err));
      socket.on('close', () => {
        this.closed = true;
        if (this.pinger) clearInterval(this.pinger);
        reject(new Error('connection closed'));
      });
      this.onConnack = (code) => (code === 0 ? resolve() : reject(new Error(`CONNACK ${code}`)));
      const will = options.will;
      const flags = 0x80 | 0x40 | (will ? (will.retain ? 0x20 : 0) | 0x08 | 0x04 : 0) | 0x02;
      const keepalive = Buffer.alloc(2);
      keepalive.writeUInt16BE(options.keepaliveSeconds);
      const body = Buffer.concat([
        str('MQTT'),
        Buffer.from([4, flags]),
        keepalive,
        str(options.clientId),
        ...(will ? [str(will.topic), str(will.payload)] : []),
        str(options.username),
        str(options.password),
      ]);
      socket.write(packet(0x10, body));
      this.pinger = setInterval(
        () => socket.write(Buffer.from([0xc0, 0])),
        (options.keepaliveSeconds * 1000) / 2,
      );
      this.pinger.unref();
    });
  }

  subscribe(topic: string): Promise<void> {
    const id = this.packetId();
    const idBytes = Buffer.alloc(2);
    idBytes.writeUInt16BE(id);
    this.socket!.write(packet(0x82, Buffer.concat([idBytes, str(topic), Buffer.from([1])])));
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  private topicPrefix(topic: string) {
    let prefix = this.topicCache.get(topic);
    if (!prefix) {
      prefix = str(topic);
      this.topicCache.set(topic, prefix);
    }
    return prefix;
  }

  /** QoS 0 publish: written at once, nothing comes back. */
  publishAtMostOnce(topic: string, payload: string | Buffer) {
    const prefix = this.topicPrefix(topic);
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const rl = remainingLength(prefix.length + body.length);
    this.socket!.write(Buffer.concat([Buffer.from([0x30]), rl, prefix, body]));
  }

  /** Holds writes until `uncork`, so a burst of publishes leaves in few system calls. */
  cork() {
    this.socket!.cork();
  }

  uncork() {
    this.socket!.uncork();
  }

  /** QoS 1 publish; resolves on PUBACK. */
  publish(topic: string, payload: string, retain = false): Promise<void> {
    const prefix = this.topicPrefix(topic);
    const body = Buffer.from(payload);
    const id = this.packetId();
    const header = Buffer.allocUnsafe(1 + 4 + prefix.length + 2);
    const rl = remainingLength(prefix.length + 2 + body.length);
    header[0] = 0x32 | (retain ? 1 : 0);
    rl.copy(header, 1);
    let at = 1 + rl.length;
    prefix.copy(header, at);
    at += prefix.length;
    header.writeUInt16BE(id, at);
    at += 2;
    const done = new Promise<void>((resolve) => this.waiting.set(id, resolve));
    this.socket!.write(Buffer.concat([header.subarray(0, at), body]));
    return done;
  }

  get inFlight() {
    return this.waiting.size;
  }

  end() {
    if (this.pinger) clearInterval(this.pinger);
    if (!this.socket || this.closed) return;
    this.socket.end(Buffer.from([0xe0, 0]));
  }

  private packetId() {
    const id = this.nextId;
    this.nextId = id === 0xffff ? 1 : id + 1;
    return id;
  }

  private read(chunk: Buffer) {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    for (;;) {
      if (this.buffered.length < 2) return;
      let length = 0;
      let multiplier = 1;
      let at = 1;
      for (;;) {
        if (at >= this.buffered.length) return;
        const byte = this.buffered[at++]!;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if (!(byte & 0x80)) break;
      }
      if (this.buffered.length < at + length) return;
      const first = this.buffered[0]!;
      const type = first >> 4;
      const body = this.buffered.subarray(at, at + length);
      this.buffered = this.buffered.subarray(at + length);
      if (type === 2) this.onConnack?.(body[1]!);
      else if (type === 4 || type === 9) {
        const id = body.readUInt16BE(0);
        const resolve = this.waiting.get(id);
        this.waiting.delete(id);
        resolve?.();
      } else if (type === 3) {
        const qos = (first >> 1) & 3;
        const topicLength = body.readUInt16BE(0);
        let at = 2 + topicLength;
        if (qos > 0) {
          // Acknowledged at once so the broker does not send it again.
          const id = body.readUInt16BE(at);
          at += 2;
          this.socket!.write(Buffer.from([0x40, 2, id >> 8, id & 0xff]));
        }
        this.onMessage?.(body.toString('utf8', 2, 2 + topicLength), body.subarray(at));
      }
    }
  }
}
