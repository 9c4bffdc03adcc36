import { describe, expect, it } from 'vitest';
import { addressRefusal, checkTarget, OutboundRefused, postChecked } from '../src/security/outbound.js';
import { startReceiver } from './webhook-receiver.js';

// The outbound guard (issue 26): where the server's own requests may go. Names are resolved by a
// stand-in resolver here, so "a name that resolves to a link-local address" needs no DNS server.

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };
const resolver = (table: Record<string, string[]>) => async (host: string) => {
  const addresses = table[host];
  if (!addresses) throw new Error(`ENOTFOUND ${host}`);
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('the outbound guard', () => {
  it('refuses link-local and metadata addresses always, private ones unless allowed', () => {
    for (const address of [
      '169.254.169.254',
      '169.254.0.1',
      'fe80::1',
      'fd00:ec2::254',
      '0.0.0.0',
      '::',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
    ]) {
      expect(addressRefusal(address, strict), address).not.toBeNull();
      expect(addressRefusal(address, lenient), address).not.toBeNull();
    }
    for (const address of [
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.0.1',
      '127.0.0.1',
      '100.64.0.1',
      '::1',
      'fc00::1',
      'fd12::3',
    ]) {
      expect(addressRefusal(address, strict), address).toMatch(/OUTBOUND_ALLOW_PRIVATE/);
      expect(addressRefusal(address, lenient), address).toBeNull();
    }
    for (const address of ['93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700::1111'])
      expect(addressRefusal(address, strict), address).toBeNull();
  });

  it('refuses a name that resolves to a link-local or private address, and metadata names', async () => {
    const resolve = resolver({
      'evil.example': ['169.254.10.10'],
      'mixed.example': ['93.184.216.34', '10.0.0.7'],
      'fine.example': ['93.184.216.34'],
    });
    await expect(checkTarget('http://evil.example/hook', lenient, resolve)).rejects.toThrow(/link-local/);
    await expect(checkTarget('http://mixed.example/hook', strict, resolve)).rejects.toThrow(/10\.0\.0\.7/);
    await expect(checkTarget('http://metadata.google.internal/', lenient, resolve)).rejects.toThrow(
      OutboundRefused,
    );
    await expect(checkTarget('http://nowhere.example/', lenient, resolve)).rejects.toThrow(
      /does not resolve/,
    );
    await expect(checkTarget('http://user:pw@fine.example/', lenient, resolve)).rejects.toThrow(
      OutboundRefused,
    );
    await expect(checkTarget('file:///etc/passwd', lenient, resolve)).rejects.toThrow(OutboundRefused);
    expect(await checkTarget('https://fine.example/hook', strict, resolve)).toMatchObject({
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('connects to the address it checked, whatever the name resolves to later, and follows no redirect', async () => {
    const receiver = await startReceiver((n) => (n === 0 ? { status: 302 } : { status: 200 }));
    try {
      const port = new URL(receiver.url).port;
      // This name resolves nowhere in real DNS: the request can only reach the checked address.
      const target = await checkTarget(
        `http://rebind.example:${port}/hook`,
        lenient,
        resolver({ 'rebind.example': ['127.0.0.1'] }),
      );
      const answer = await postChecked(target, '{"a":1}', { 'x-test': '1' }, 5_000);
      expect(answer.status).toBe(302);
      expect(receiver.calls).toHaveLength(1);
      expect(receiver.calls[0]!.headers.host).toBe(`rebind.example:${port}`);
      expect(receiver.calls[0]!.body).toBe('{"a":1}');
    } finally {
      await receiver.close();
    }
  });

  it('gives up on a receiver that never answers after its timeout', async () => {
    const receiver = await startReceiver(() => 'hang');
    try {
      const target = await checkTarget(receiver.url, lenient);
      await expect(postChecked(target, '{}', {}, 200)).rejects.toThrow(/no answer within 200 ms \(timeout\)/);
      expect(receiver.calls).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
