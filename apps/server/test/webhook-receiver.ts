import http from 'node:http';
import type net from 'node:net';

export interface ReceivedCall {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the receiver does with the n-th request (0-based; the call itself beside it): answer a status (after a wait), or never answer. */
export type Answer = { status: number; afterMs?: number } | 'hang';

/**
 * A local webhook receiver: records every request and answers as the test says (fail then
 * succeed, slow, never). Requests still waiting for their answer are counted.
 */
export async function startReceiver(
  answer: (n: number, call: ReceivedCall) => Answer = () => ({ status: 200 }),
) {
  const calls: ReceivedCall[] = [];
  let waiting = 0;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const n = calls.length;
      const call = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      calls.push(call);
      const what = answer(n, call);
      if (what === 'hang') return;
      waiting++;
      setTimeout(() => {
        waiting--;
        response.writeHead(what.status, { 'content-type': 'text/plain' }).end(`answer ${what.status}`);
      }, what.afterMs ?? 0);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    calls,
    /** Requests that came in and have not been answered yet (slow answers under way). */
    get waiting() {
      return waiting;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
