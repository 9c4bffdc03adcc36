import { failReply } from '@panelfleet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { md5Hex, PasswordHasher } from '../src/security/passwords.js';
import { backends, startServer, TestClient, type TestServer } from './harness.js';

/** A browser at `address` (the proxy in front of the server reports it in X-Forwarded-For). */
function browserAt(server: TestServer, address: string) {
  const client = new TestClient(server.url);
  const headers = { 'x-forwarded-for': address };
  return {
    client,
    async captcha() {
      await client.get('/kaptcha/defaultKaptcha', headers);
      return server.captchaAnswer(client);
    },
    post(userName: string, password: string, tryCode: string) {
      return client.post(
        '/platform/login',
        { username: userName, password: md5Hex(password), tryCode },
        headers,
      );
    },
    async signIn(userName: string, password: string) {
      return this.post(userName, password, await this.captcha());
    },
  };
}

const message = (response: { body: Record<string, unknown> }) => failReply.parse(response.body).hhtMsg;

describe.each(backends)('sign-in throttle on %s', (backend) => {
  let server: TestServer;
  const LIMITS = { perAccount: 5, perAddress: 100, perAccountAllAddresses: 12, windowMs: 15 * 60_000 };

  beforeAll(async () => {
    // The test client plays a proxy on 127.0.0.1 that reports each browser's address.
    server = await startServer(backend, { TRUST_PROXY: '127.0.0.1' }, { throttle: LIMITS });
  });
  afterAll(() => server.stop());
  afterEach(() => {
    vi.restoreAllMocks();
    // Each case starts with a fresh window.
    server.clock.advance(LIMITS.windowMs + 1);
  });

  it('checks at most the limit of 30 simultaneous wrong guesses against one account', async () => {
    const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
    const burn = vi.spyOn(PasswordHasher.prototype, 'burn');
    const guesser = Array.from({ length: 30 }, () => browserAt(server, '198.51.100.30'));
    const answers: string[] = [];
    for (const browser of guesser) answers.push(await browser.captcha());
    const replies = await Promise.all(
      guesser.map((browser, i) => browser.post('operator1', `guess${i}x`, answers[i]!)),
    );

    expect(verify.mock.calls.length + burn.mock.calls.length).toBeLessThanOrEqual(LIMITS.perAccount);
    const wrong = replies.filter((r) => r.status === 200 && /Wrong user name or password/.test(message(r)));
    const throttled = replies.filter((r) => r.status === 429);
    expect(wrong.length).toBeLessThanOrEqual(LIMITS.perAccount);
    expect(wrong.length + throttled.length).toBe(30);
    // The owner, elsewhere, is not locked out by it.
    expect((await browserAt(server, '203.0.113.5').signIn('operator1', 'operator123')).body.hhtStatus).toBe(
      'success',
    );
  });

  it('does not count a wrong captcha against the account', async () => {
    const browser = browserAt(server, '198.51.100.40');
    for (let i = 0; i < LIMITS.perAccount + 3; i++) {
      await browser.captcha();
      const reply = await browser.post('manager1', 'manager123', 'zzzz');
      expect(message(reply)).toMatch(/code is wrong/);
    }
    const reply = await browser.signIn('manager1', 'manager123');
    expect(reply.body.hhtStatus).toBe('success');
  });

  it('does not let failures from one address lock the owner out at another', async () => {
    const stranger = browserAt(server, '198.51.100.50');
    for (let i = 0; i < LIMITS.perAccount; i++)
      expect(message(await stranger.signIn('admin', 'guess1234'))).toMatch(/Wrong/);
    const blocked = await stranger.signIn('admin', 'guess1234');
    expect(blocked.status).toBe(429);
    // Even the right password from the stranger's address waits out the window.
    expect((await stranger.signIn('admin', 'admin123')).status).toBe(429);

    const owner = browserAt(server, '203.0.113.50');
    expect((await owner.signIn('admin', 'admin123')).body.hhtStatus).toBe('success');
  });

  it('still limits a guesser spread over many addresses, and lets the owner in after a short wait', async () => {
    const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
    for (let i = 0; i < LIMITS.perAccountAllAddresses; i++) {
      expect(
        message(await browserAt(server, `198.51.100.${100 + i}`).signIn('customer1', 'guess1234')),
      ).toMatch(/Wrong/);
    }
    expect(verify).toHaveBeenCalledTimes(LIMITS.perAccountAllAddresses);
    // Past the account's ceiling, checks are rationed to one per slot, whatever the address.
    const first = await browserAt(server, '198.51.100.200').signIn('customer1', 'guess1234');
    const second = await browserAt(server, '198.51.100.201').signIn('customer1', 'guess1234');
    const third = await browserAt(server, '203.0.113.60').signIn('customer1', 'customer123');
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(third.status).toBe(429);
    expect(verify).toHaveBeenCalledTimes(LIMITS.perAccountAllAddresses + 1);
    // Slots are windowMs / perAccountAllAddresses long: the owner waits seconds, not the window.
    server.clock.advance(LIMITS.windowMs / LIMITS.perAccountAllAddresses);
    expect((await browserAt(server, '203.0.113.60').signIn('customer1', 'customer123')).body.hhtStatus).toBe(
      'success',
    );
  });

  it('forgives the owner’s own typos from an address once the owner signs in from it', async () => {
    const owner = browserAt(server, '203.0.113.70');
    for (let i = 0; i < LIMITS.perAccount - 1; i++)
      expect(message(await owner.signIn('sales1', 'typo12345'))).toMatch(/Wrong/);
    expect((await owner.signIn('sales1', 'sales123')).body.hhtStatus).toBe('success');
    // The count started again: another perAccount - 1 typos are still answered, not throttled.
    for (let i = 0; i < LIMITS.perAccount - 1; i++)
      expect(message(await owner.signIn('sales1', 'typo12345'))).toMatch(/Wrong/);
    expect((await owner.signIn('sales1', 'sales123')).body.hhtStatus).toBe('success');
  });
});
