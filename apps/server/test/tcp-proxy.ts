import net from 'node:net';

interface Pair {
  client: net.Socket;
  upstream: net.Socket | undefined;
}

/**
 * A TCP proxy in front of a server (PostgreSQL) that can cut its connections silently, as a
 * network cut or a dropped NAT entry does: `blackhole()` stops carrying bytes on every connection
 * open now, without closing any, while connections made later pass. It can also play the server
 * stopped (`refuse()`: every connection closed, new ones refused) and frozen (`freeze()`: nothing
 * carried either way and new connections accepted but never answered, as a SIGSTOPped server
 * whose kernel still completes handshakes), until `pass()`.
 */
export class TcpProxy {
  private readonly open = new Set<Pair>();
  private mode: 'pass' | 'refuse' | 'freeze' = 'pass';
  private port_ = 0;

  private constructor(
    private server: net.Server,
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  static async start(host: string, port: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(net.createServer(), host, port);
    await proxy.listen(0);
    return proxy;
  }

  get port() {
    return this.port_;
  }

  private async listen(port: number) {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port_ = (this.server.address() as net.AddressInfo).port;
  }

  private accept(client: net.Socket) {
    const pair: Pair = { client, upstream: undefined };
    this.open.add(pair);
    const end = () => {
      this.open.delete(pair);
      client.destroy();
      pair.upstream?.destroy();
    };
    client.on('error', end).on('close', end);
    if (this.mode === 'freeze') client.pause();
    else this.connect(pair, end);
  }

  private connect(pair: Pair, end: () => void) {
    const upstream = net.connect(this.targetPort, this.host);
    pair.upstream = upstream;
    pair.client.pipe(upstream);
    upstream.pipe(pair.client);
    pair.client.resume();
    upstream.on('error', end).on('close', end);
  }

  /** The connections open now carry nothing more, in either direction, and stay open. */
  blackhole() {
    for (const { client, upstream } of this.open) {
      if (upstream) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        upstream.pause();
      }
      client.pause();
    }
  }

  /** The server stopped: every connection ends now and new ones are refused (the port closed). */
  async refuse() {
    this.mode = 'refuse';
    for (const { client, upstream } of this.open) {
      client.destroy();
      upstream?.destroy();
    }
    this.open.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The server frozen: connections stay open and carry nothing; new ones are accepted and wait. */
  freeze() {
    this.mode = 'freeze';
    this.blackhole();
  }

  /** Back to carrying bytes: after `refuse()` on the same port, after `freeze()` on every held connection. */
  async pass() {
    const was = this.mode;
    this.mode = 'pass';
    if (was === 'refuse') await this.listen(this.port_);
    if (was !== 'freeze') return;
    for (const pair of this.open) {
      const end = () => {
        this.open.delete(pair);
        pair.client.destroy();
        pair.upstream?.destroy();
      };
      if (!pair.upstream) this.connect(pair, end);
      else {
        pair.client.pipe(pair.upstream);
        pair.upstream.pipe(pair.client);
        pair.client.resume();
        pair.upstream.resume();
      }
    }
  }

  async stop() {
    for (const { client, upstream } of this.open) {
      client.destroy();
      upstream?.destroy();
    }
    if (this.mode !== 'refuse') await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
