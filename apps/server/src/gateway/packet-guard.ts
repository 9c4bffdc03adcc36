import type { Duplex } from 'node:stream';

export interface PacketLimits {
  /** Largest remaining length of the CONNECT and of anything sent before the connection is accepted. */
  connect: number;
  /** Largest remaining length of any packet once the connection is accepted. */
  packet: number;
}

/**
 * Follows the MQTT framing (fixed header, remaining length) of the bytes a connection sends, so a
 * packet's size is known from its first bytes: a connection announcing too large a packet is
 * closed before anything of it is buffered, whatever the parser behind would do.
 */
export class FrameScanner {
  private state: 'type' | 'length' | 'body' = 'type';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private remaining = 0;
  private packets = 0;
  private accepted = false;

  constructor(private readonly limits: PacketLimits) {}

  /** The broker accepted the connection (CONNACK sent): the larger limit applies from now on. */
  accept() {
    this.accepted = true;
  }

  /** Reads the framing of the next bytes; a reason when they break the protocol or a limit. */
  feed(chunk: Buffer): string | undefined {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'body') {
        const take = Math.min(this.remaining, chunk.length - i);
        i += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'type';
        continue;
      }
      const byte = chunk[i++]!;
      if (this.state === 'type') {
        if (this.packets === 0 && byte >> 4 !== 1) return 'the first packet is not CONNECT';
        this.state = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
        continue;
      }
      this.length += (byte & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      this.lengthBytes++;
      // Checked on every length byte: the value read so far is already a lower bound.
      const limit = this.accepted ? this.limits.packet : this.limits.connect;
      if (this.length > limit) return `a packet of at least ${this.length} bytes (limit ${limit})`;
      if (byte & 0x80) {
        if (this.lengthBytes === 4) return 'malformed remaining length';
        continue;
      }
      this.packets++;
      this.remaining = this.length;
      this.state = this.remaining > 0 ? 'body' : 'type';
    }
    return undefined;
  }
}

/**
 * Puts a scanner in front of a connection's reads (Aedes reads with `read()`, TCP and WebSocket
 * streams alike): bytes that break a limit destroy the connection and never reach the parser.
 */
export function guardConnection(
  conn: Duplex,
  limits: PacketLimits,
  refused: (reason: string) => void,
): FrameScanner {
  const scanner = new FrameScanner(limits);
  const read = conn.read.bind(conn);
  conn.read = (size?: number): unknown => {
    const chunk: unknown = read(size);
    if (Buffer.isBuffer(chunk) && !conn.destroyed) {
      const reason = scanner.feed(chunk);
      if (reason !== undefined) {
        refused(reason);
        conn.destroy();
        return null;
      }
    }
    return chunk;
  };
  return scanner;
}
