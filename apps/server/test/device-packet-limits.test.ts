import net from 'node:net';
import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectBare, enroll, enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import { backends, startServer, type TestServer } from './harness.js';

const MiB = 1024 * 1024;

/** An MQTT fixed header: packet type and flags, then the remaining length as a variable byte integer. */
function fixedHeader(firstByte: number, remainingLength: number) {
  const bytes = [firstByte];
  let n = remainingLength;
  do {
    let digit = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) digit |= 0x80;
    bytes.push(digit);
  } while (n > 0);
  return Buffer.from(bytes);
}

/**
 * Announces a CONNECT of 200 MB without credentials and streams zeros after it (up to `flood`
 * bytes, honouring back-pressure) until the server closes the connection.
 */
async function floodConnect(port: number, flood: number) {
  const socket = net.connect(port, '127.0.0.1');
  let closed = false;
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  await new Promise<void>(
    (resolve, reject) => (socket.once('connect', resolve), socket.once('error', reject)),
  );
  socket.write(fixedHeader(0x10, 200_000_000));
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  while (written < flood && !closed) {
    written += chunk.length;
    if (!socket.write(chunk))
      await new Promise<void>((resolve) => (socket.once('drain', resolve), socket.once('close', resolve)));
  }
  await waitFor('the server to close the connection', () => closed);
  return { written };
}

describe.each(backends)('MQTT packet size limits of the embedded broker on %s', (backend) => {
  let server: TestServer;
  let port: number;
  let secret: string;
  const httpAnswers = async () => (await fetch(`${server.url}/platform/config/runtime`)).status === 200;

  beforeAll(async () => {
    server = await startServer(backend);
    port = server.app.devices.mqttPort!;
    secret = await enrollmentSecretOf(await operatorClient(server));
  });
  afterAll(() => server.stop());

  it('closes a connection that announces a huge CONNECT before buffering it, and keeps serving', async () => {
    const rssBefore = process.memoryUsage().rss;
    const { written } = await floodConnect(port, 64 * MiB);
    // Closed long before the flood was through: nothing close to it was taken in.
    expect(written).toBeLessThan(64 * MiB);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(32 * MiB);
    expect(await httpAnswers()).toBe(true);
  });

  it('closes a connection whose CONNECT is larger than any panel sends, and one that starts with another packet', async () => {
    const closes = (bytes: Buffer) =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
        socket.on('error', () => undefined);
        socket.once('close', () => resolve(true));
      });
    // A CONNECT of 8 KiB (a panel's is a few hundred bytes): closed after its header, its body never sent.
    expect(await closes(fixedHeader(0x10, 8 * 1024))).toBe(true);
    // A PUBLISH as the first packet.
    expect(await closes(Buffer.concat([fixedHeader(0x30, 10), Buffer.alloc(10)]))).toBe(true);
    expect(await httpAnswers()).toBe(true);
  });

  it('closes a WebSocket connection that announces a huge CONNECT, or sends an oversized message', async () => {
    const wsUrl = `${server.url.replace('http', 'ws')}/mqtt`;
    const closedAfter = (message: Buffer) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(wsUrl, 'mqtt');
        ws.on('error', () => undefined);
        ws.once('open', () => ws.send(message));
        ws.once('close', (code) => resolve(code));
        ws.once('unexpected-response', () => reject(new Error('no WebSocket upgrade')));
      });
    expect(
      await closedAfter(Buffer.concat([fixedHeader(0x10, 200_000_000), Buffer.alloc(1000)])),
    ).toBeGreaterThan(0);
    expect(await closedAfter(Buffer.alloc(4 * MiB))).toBeGreaterThan(0);
    expect(await httpAnswers()).toBe(true);
  });

  it('disconnects an authenticated panel whose PUBLISH is over the limit and stores nothing of it', async () => {
    const creds = await enroll(server.url, 'BIGPUB-01', secret);
    const panel = await connectBare(`mqtt://127.0.0.1:${port}`, creds);
    const db = server.app.db.kysely;
    // 200,000 characters of 3 bytes each in UTF-8: ~600 KB, over the 256 KiB an MQTT log may have (such a log is uploaded over HTTP).
    const huge = {
      v: 1,
      id: 'anr-big-report-1',
      fileName: 'anr-big.txt',
      appName: 'Whiteboard',
      occurredAt: 1000,
      text: '日'.repeat(200_000),
    };
    let closed = false;
    panel.client.on('close', () => (closed = true));
    panel.client.publish('pf/v1/d/BIGPUB-01/log', JSON.stringify(huge), { qos: 0 });
    await waitFor('the panel disconnected', () => closed);
    await waitFor('the panel offline', () => !server.app.devices.gateway.isOnline('BIGPUB-01'));
    const rows = await db
      .selectFrom('abnormal_logs')
      .select('file_name')
      .where('device_key', '=', 'BIGPUB-01')
      .execute();
    expect(rows).toEqual([]);
    await panel.close();

    // A log within the limits still gets through on a new connection, which stays up.
    const again = await connectBare(`mqtt://127.0.0.1:${port}`, creds);
    const fine = { ...huge, id: 'anr-ok-report-1', fileName: 'anr-ok.txt', text: 'x'.repeat(200_000) };
    expect(JSON.stringify(fine).length).toBeLessThan(device.MAX_LOG_PAYLOAD_BYTES);
    await again.client.publishAsync('pf/v1/d/BIGPUB-01/log', JSON.stringify(fine), { qos: 1 });
    await waitFor(
      'the log within limits stored',
      async () =>
        (
          await db
            .selectFrom('abnormal_logs')
            .select('file_name')
            .where('device_key', '=', 'BIGPUB-01')
            .execute()
        ).length === 1,
    );
    expect(again.client.connected).toBe(true);
    await again.close();
  });
});
