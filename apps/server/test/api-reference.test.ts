import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, TestClient, type TestServer } from './harness.js';

/** The browsable API reference is served by the product itself: its page, renderer and document. */
describe.each(backends)('the API reference on %s', (backend) => {
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await startServer(backend);
    client = new TestClient(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves its page with scripts from the server only, its renderer and the document it reads', async () => {
    const page = await client.request('GET', '/api-reference', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/api-reference\//);
      expect(body!.trim()).toBe('');
    }
    expect(page.text).not.toMatch(/https?:\/\//);
    const bundle = await client.get('/api-reference/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(bundle.text.length).toBeGreaterThan(500_000);
    expect((await client.get('/api-reference/swagger-ui.css')).status).toBe(200);
    const start = await client.get('/api-reference/start.js');
    expect(start.text).toContain("url: '/api-docs'");
    const document = await client.get('/api-docs');
    expect(document.body).toMatchObject({ openapi: '3.1.0' });
  });
});
