import dgram from 'node:dgram';

/** A Wake-on-LAN magic packet: six 0xFF bytes, then the MAC sixteen times. */
export function magicPacket(mac: string): Buffer {
  const macBytes = Buffer.from(mac.split(':').map((h) => parseInt(h, 16)));
  return Buffer.concat([Buffer.alloc(6, 0xff), ...Array.from({ length: 16 }, () => macBytes)]);
}

/** The MAC a magic packet wakes, or undefined if the packet is not one. */
export function parseMagicPacket(packet: Buffer): string | undefined {
  if (packet.length < 102 || !packet.subarray(0, 6).every((b) => b === 0xff)) return undefined;
  const mac = packet.subarray(6, 12);
  for (let i = 1; i < 16; i++) if (!packet.subarray(6 + i * 6, 12 + i * 6).equals(mac)) return undefined;
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/**
 * The simulated LAN: a UDP socket on loopback that plays the broadcast domain of the fleet.
 * Real firmware sends the packet to the broadcast address it was given, port 9.
 */
export class SimulatedLan {
  private socket = dgram.createSocket('udp4');
  port = 0;

  async start(onWake: (mac: string) => void) {
    this.socket.on('message', (msg) => {
      const mac = parseMagicPacket(msg);
      if (mac) onWake(mac);
    });
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', () => resolve()));
    this.port = this.socket.address().port;
  }

  send(packet: Buffer): Promise<void> {
    return new Promise((resolve, reject) =>
      this.socket.send(packet, this.port, '127.0.0.1', (err) => (err ? reject(err) : resolve())),
    );
  }

  close() {
    this.socket.close();
  }
}
