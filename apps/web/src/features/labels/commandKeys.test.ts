import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { device } from '@panelfleet/contract';
import { configureClient } from '../../api/client';
import { CommandKeys, newRequestKey } from './commandKeys';

const reply = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let fetchMock: Mock<typeof fetch>;
const sentKeys = () =>
  fetchMock.mock.calls.map(([, init]) => new URLSearchParams(String(init?.body)).get('idempotencyKey'));

beforeEach(() => {
  configureClient({
    effects: { sessionExpired: vi.fn(), fail: vi.fn(), navigate: vi.fn() },
    language: () => 'en-US',
  });
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('label command keys', () => {
  const restart = { tagIds: '3,5', order: '03' } as const;

  it('sends a new UUID with every click that got an answer', async () => {
    const keys = new CommandKeys();
    fetchMock.mockResolvedValueOnce(reply(200, { hhtStatus: 'success', dataObject: { count: 2 } }));
    fetchMock.mockResolvedValueOnce(
      reply(200, { hhtStatus: 'fail', hhtMsg: 'The chosen labels have no devices' }),
    );
    fetchMock.mockResolvedValueOnce(reply(200, { hhtStatus: 'success', dataObject: { count: 2 } }));
    await keys.send(device.sendCommandByTagIds, restart);
    await expect(keys.send(device.sendCommandByTagIds, restart)).rejects.toMatchObject({ kind: 'fail' });
    await keys.send(device.sendCommandByTagIds, restart);
    const [a, b, c] = sentKeys();
    expect([a, b, c].every((k) => UUID.test(k ?? ''))).toBe(true);
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('sends the same key again when the same command is retried after a network error or a server error', async () => {
    const keys = new CommandKeys();
    fetchMock.mockRejectedValueOnce(new TypeError('network down'));
    fetchMock.mockResolvedValueOnce(reply(502, {}));
    fetchMock.mockResolvedValueOnce(reply(200, { hhtStatus: 'success', dataObject: { count: 2 } }));
    fetchMock.mockResolvedValueOnce(reply(200, { hhtStatus: 'success', dataObject: { count: 2 } }));
    await expect(keys.send(device.sendCommandByTagIds, restart)).rejects.toMatchObject({ kind: 'network' });
    await expect(keys.send(device.sendCommandByTagIds, restart)).rejects.toMatchObject({
      kind: 'serverError',
    });
    await keys.send(device.sendCommandByTagIds, restart);
    await keys.send(device.sendCommandByTagIds, restart);
    const [first, second, third, fourth] = sentKeys();
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(fourth).not.toBe(first);
  });

  it('makes a new key for another command after an unanswered one', async () => {
    const keys = new CommandKeys();
    fetchMock.mockRejectedValueOnce(new TypeError('network down'));
    fetchMock.mockImplementation(() =>
      Promise.resolve(reply(200, { hhtStatus: 'success', dataObject: { count: 1 } })),
    );
    await expect(keys.send(device.sendCommandByTagIds, restart)).rejects.toMatchObject({ kind: 'network' });
    await keys.send(device.sendCommandByTagIds, { tagIds: '3', order: '03' });
    await keys.send(device.sendPowerUpByTagIds, { tagIds: '3,5' });
    const [first, otherLabels, powerUp] = sentKeys();
    expect(new Set([first, otherLabels, powerUp]).size).toBe(3);
  });

  it('makes UUIDs without crypto.randomUUID (a console served over plain http)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array) => real.getRandomValues(bytes) });
    const keys = Array.from({ length: 50 }, () => newRequestKey());
    expect(keys.every((k) => UUID.test(k))).toBe(true);
    expect(new Set(keys).size).toBe(50);
  });
});
