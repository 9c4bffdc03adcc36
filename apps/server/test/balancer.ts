import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A round-robin HTTP load balancer in front of several server instances (what nginx does in
 * docs/operations.md): each request goes to the next instance, and to the one after it when that
 * one refuses the connection (a dead instance). Request bodies are read whole first, so a request
 * can be sent again; that is only for tests with small bodies. `hold` keeps matching requests
 * waiting until `release()` (a test freezes panels' downloads with it).
 */
export class TestBalancer {
  private next = 0;
  private held: Array<() => void> = [];
  private holding: ((url: string) => boolean) | undefined;
  /** Requests answered, by instance. */
  readonly served = new Map<string, number>();

  private constructor(
    private readonly server: http.Server,
    private backends: string[],
  ) {}

  static async start(backends: string[] = []): Promise<TestBalancer> {
    // Longer than any client's idle keep-alive: the balancer never closes a socket a client reuses.
    const server = http.createServer({ keepAliveTimeout: 120_000 });
    const balancer = new TestBalancer(server, backends);
    server.on('request', (req, res) => void balancer.forward(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return balancer;
  }

  get url() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  setBackends(backends: string[]) {
    this.backends = backends;
  }

  /** Requests whose URL matches wait until `release()`. */
  hold(matches: (url: string) => boolean) {
    this.holding = matches;
  }

  release() {
    this.holding = undefined;
    for (const go of this.held.splice(0)) go();
  }

  get waiting() {
    return this.held.length;
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (this.holding?.(req.url ?? '')) await new Promise<void>((resolve) => this.held.push(resolve));
    const start = this.next++;
    for (let i = 0; i < this.backends.length; i++) {
      const backend = this.backends[(start + i) % this.backends.length]!;
      const answered = await this.try(backend, req, body, res);
      if (answered) {
        this.served.set(backend, (this.served.get(backend) ?? 0) + 1);
        return;
      }
    }
    res.writeHead(502).end('no instance answers');
  }

  /** Sends the request to one instance; false when it refused the connection (nothing was answered). */
  private try(
    backend: string,
    req: http.IncomingMessage,
    body: Buffer,
    res: http.ServerResponse,
  ): Promise<boolean> {
    return new Promise((resolve) => {
      const target = new URL(req.url ?? '/', backend);
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host };
      delete headers['transfer-encoding'];
      if (body.length || req.method !== 'GET') headers['content-length'] = String(body.length);
      const outgoing = http.request(target, { method: req.method, headers, agent: false }, (incoming) => {
        res.writeHead(incoming.statusCode ?? 502, incoming.headers);
        incoming.pipe(res);
        incoming.once('end', () => resolve(true));
        incoming.once('error', () => (res.destroy(), resolve(true)));
      });
      outgoing.once('error', (err: NodeJS.ErrnoException) => {
        if (!res.headersSent && err.code === 'ECONNREFUSED') resolve(false);
        else {
          res.destroy();
          resolve(true);
        }
      });
      outgoing.end(body);
    });
  }

  async stop() {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
