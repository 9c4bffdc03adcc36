import type { TestClient } from './harness.js';

export interface StreamEvent {
  event: string;
  data: unknown;
}

export interface OpenStream {
  status: number;
  contentType: string;
  /** Every event received so far (data parsed as JSON). */
  events: StreamEvent[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens the live console's event stream as `client` (its cookies), parsing events as they come. */
export async function openStream(baseUrl: string, client: TestClient | undefined): Promise<OpenStream> {
  const controller = new AbortController();
  const token = client?.cookie('pf_session');
  const response = await fetch(`${baseUrl}/platform/live/events`, {
    headers: { accept: 'text/event-stream', ...(token ? { cookie: `pf_session=${token}` } : {}) },
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const contentType = response.headers.get('content-type') ?? '';
  let ended: Promise<void> = Promise.resolve();
  if (contentType.includes('text/event-stream') && response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    ended = (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let event = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            if (data.length) events.push({ event, data: JSON.parse(data.join('\n')) as unknown });
          }
        }
      } catch (err) {
        if (!controller.signal.aborted) throw err;
      }
    })();
  } else await response.text();
  return { status: response.status, contentType, events, ended, close: () => controller.abort() };
}
