/**
 * The guard's raw peers that serve sockets, run in this process like the server itself, so both
 * sides pay the same for sharing a loaded machine (a C peer in its own process does not: measured
 * against Mosquitto, the connect ratio went from 18x to 31x as the load average went from 8 to 20,
 * with the same code; docs/benchmarks.md, "The guard"):
 * - a bare Aedes broker (the library PanelFleet embeds, with nothing of PanelFleet: no
 *   credentials check, no presence, no database);
 * - the plainest Node file server: the file read into one reused 256 KiB buffer and written to the
 *   response, refilled when the socket took it (a file stream piped to the response allocates a
 *   buffer per chunk, and its CPU swung by 3x between rounds of the same run).
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { onCleanup } from '../lib/harness.js';

async function listen(server: net.Server | http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Stops listening at once; the connections still open end with their clients (or the broker).
  onCleanup(() => void server.close());
  return (server.address() as net.AddressInfo).port;
}

/** A bare Aedes broker on a free port; returns its URL. */
export async function startBareBroker(): Promise<string> {
  const { Aedes } = await import('aedes');
  const broker = await Aedes.createBroker();
  onCleanup(() => new Promise<void>((resolve) => broker.close(() => resolve())));
  const port = await listen(net.createServer((socket) => broker.handle(socket)));
  return `mqtt://127.0.0.1:${port}`;
}

async function sendWhole(file: string, size: number, response: http.ServerResponse) {
  response.writeHead(200, { 'content-length': size, 'content-type': 'application/octet-stream' });
  const handle = await fs.promises.open(file);
  const buffer = Buffer.allocUnsafe(256 * 1024);
  try {
    for (let at = 0; at < size;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      if (bytesRead === 0) throw new Error(`${file} ended at ${at} of ${size} bytes`);
      at += bytesRead;
      await new Promise<void>((resolve, reject) =>
        response.write(buffer.subarray(0, bytesRead), (err) => (err ? reject(err) : resolve())),
      );
    }
    response.end();
  } finally {
    await handle.close();
  }
}

/** Serves `file` to every GET; returns its URL. */
export async function startBareFileServer(file: string): Promise<string> {
  const size = fs.statSync(file).size;
  const server = http.createServer((_request, response) => {
    sendWhole(file, size, response).catch(() => response.destroy());
  });
  return `http://127.0.0.1:${await listen(server)}/`;
}
