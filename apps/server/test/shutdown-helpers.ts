import http from 'node:http';
import net from 'node:net';

/** Whether a server accepts TCP connections on the port (a server that is shutting down does not). */
export const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** A label command whose request is sent in two parts: it stays in flight until `finish()`. */
export function labelCommandInTwoParts(url: string, cookie: string, labelId: number, value: string) {
  const body = new URLSearchParams({ tagIds: String(labelId), order: '00', value }).toString();
  const agent = new http.Agent({ keepAlive: true });
  let finish: () => void = () => undefined;
  const reply = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    const request = http.request(
      `${url}/sendData/sendCommandByTagIds`,
      {
        method: 'POST',
        agent,
        headers: {
          cookie,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(Buffer.byteLength(body)),
          'accept-language': 'en-US',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }),
        );
      },
    );
    request.on('error', reject);
    request.write(body.slice(0, 10));
    finish = () => request.end(body.slice(10));
  });
  return { reply, finish: () => finish(), close: () => agent.destroy() };
}
