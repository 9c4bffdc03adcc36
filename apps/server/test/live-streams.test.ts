import { live } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './device-helpers.js';
import { backends, signedIn, startServer, type TestServer } from './harness.js';
import { openStream, type OpenStream } from './live-helpers.js';

const ready = (stream: OpenStream) => stream.events.some((e) => e.event === live.STREAM_READY);

/**
 * A session holds at most MAX_STREAMS_PER_SESSION live-event streams: one more (a new tab, a
 * script opening streams in a loop) is served and ends the session's oldest with reason
 * `replaced`, so one session never holds more than a few open connections and their buffers.
 */
describe.each(backends)('live streams of one session on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(backend);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('ends the oldest stream when one more opens, leaving other sessions alone', async () => {
    const user = await signedIn(server, 'operator1', 'operator123');
    const otherSession = await signedIn(server, 'operator1', 'operator123');
    const bystander = await openStream(server.url, otherSession);
    const streams: OpenStream[] = [];
    try {
      await waitFor('bystander ready', () => ready(bystander));
      for (let i = 0; i < live.MAX_STREAMS_PER_SESSION; i++) {
        const stream = await openStream(server.url, user);
        await waitFor(`stream ${i} ready`, () => ready(stream));
        streams.push(stream);
      }
      expect(server.app.live.size).toBe(live.MAX_STREAMS_PER_SESSION + 1);

      const newest = await openStream(server.url, user);
      streams.push(newest);
      expect(newest.status).toBe(200);
      await waitFor('newest ready', () => ready(newest));
      await waitFor('the oldest ended', () => streams[0]!.events.some((e) => e.event === live.STREAM_END));
      expect(streams[0]!.events.at(-1)).toEqual({
        event: live.STREAM_END,
        data: { reason: live.STREAM_REPLACED },
      });
      expect(server.app.live.size).toBe(live.MAX_STREAMS_PER_SESSION + 1);
      for (const stream of streams.slice(1))
        expect(stream.events.some((e) => e.event === live.STREAM_END)).toBe(false);
      expect(bystander.events.some((e) => e.event === live.STREAM_END)).toBe(false);

      // Opened in a loop, a session still holds only its newest few.
      const burst = await Promise.all(Array.from({ length: 12 }, () => openStream(server.url, user)));
      streams.push(...burst);
      await waitFor('the burst settled', () => server.app.live.size === live.MAX_STREAMS_PER_SESSION + 1);
      expect(bystander.events.some((e) => e.event === live.STREAM_END)).toBe(false);
    } finally {
      for (const stream of streams) stream.close();
      bystander.close();
    }
  });
});
