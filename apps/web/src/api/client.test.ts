import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { accounts, alerts, auth } from '@panelfleet/contract';
import {
  alreadyReported,
  ApiError,
  call,
  configureClient,
  RequestAborted,
  upload,
  type ReplyEffects,
} from './client';

const reply = (status: number, body: unknown) =>
  new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

let effects: { [K in keyof ReplyEffects]: Mock<ReplyEffects[K]> };
let fetchMock: Mock<typeof fetch>;

beforeEach(() => {
  effects = { sessionExpired: vi.fn(), fail: vi.fn(), navigate: vi.fn() };
  configureClient({ effects, language: () => 'en-US' });
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const config = { serverLevel: 2, roleFlag: 0, title: 'T', netSpeedUrl: '', captcha: true };

describe('call', () => {
  it('sends GET params as a query with cookies and the console language', async () => {
    fetchMock.mockResolvedValue(reply(200, { hhtStatus: 'success', dataObject: config }));
    const result = await call(auth.getRuntimeConfig, {});
    expect(result.dataObject.serverLevel).toBe(2);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/platform/config/runtime');
    expect(init.credentials).toBe('same-origin');
    expect((init.headers as Record<string, string>)['Accept-Language']).toBe('en-US');
  });

  it('form-encodes POST bodies', async () => {
    fetchMock.mockResolvedValue(reply(200, { hhtStatus: 'success', program_role: '1', nextStep: 'done' }));
    await call(auth.login, { username: 'a b', password: 'x', tryCode: '12&4' });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe(
      'application/x-www-form-urlencoded',
    );
    expect(new URLSearchParams(init.body as string).get('tryCode')).toBe('12&4');
    expect(init.body).toContain('username=a+b');
  });

  it('sends a POST as JSON when asked: lists and objects arrive whole', async () => {
    fetchMock.mockResolvedValue(reply(200, { hhtStatus: 'success', dataObject: { changed: 2 } }));
    await call(alerts.acknowledgeAlerts, { ids: [3, 4], note: 'a&b' }, { json: true });
    const init = fetchMock.mock.calls[0]![1]!;
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(JSON.parse(init.body as string)).toEqual({ ids: [3, 4], note: 'a&b' });
  });

  it('notifies a fail reply and rejects with its message and code', async () => {
    fetchMock.mockResolvedValue(reply(429, { hhtStatus: 'fail', hhtMsg: 'Too many', hhtErrorCode: 'x' }));
    const error = await call(auth.login, { username: 'a', password: 'b', tryCode: 'c' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'fail', hhtMsg: 'Too many', hhtErrorCode: 'x', httpStatus: 429 });
    expect(effects.fail).toHaveBeenCalledWith('Too many');
    expect(effects.navigate).not.toHaveBeenCalled();
  });

  it('leaves a fail reply to the caller when asked', async () => {
    fetchMock.mockResolvedValue(reply(200, { hhtStatus: 'fail', hhtMsg: 'no', hhtErrorCode: '3004' }));
    await expect(call(auth.logout, {}, { quietFail: true })).rejects.toMatchObject({ hhtErrorCode: '3004' });
    expect(effects.fail).not.toHaveBeenCalled();
  });

  it('opens the session modal on 518, not a notice', async () => {
    fetchMock.mockResolvedValue(reply(401, { hhtStatus: 'fail', status: 518, hhtMsg: 'timeout' }));
    await expect(call(auth.userType, {})).rejects.toMatchObject({ kind: 'sessionExpired' });
    expect(effects.sessionExpired).toHaveBeenCalledTimes(1);
    expect(effects.fail).not.toHaveBeenCalled();
  });

  it.each([
    [500, undefined, '/errorService'],
    [404, undefined, '/errorPage'],
  ])('navigates on HTTP %i to %s', async (status, body, path) => {
    fetchMock.mockResolvedValue(reply(status, body));
    await expect(call(auth.userType, {})).rejects.toBeInstanceOf(ApiError);
    expect(effects.navigate).toHaveBeenCalledWith(path);
  });

  it('navigates to the network error page when fetch throws', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(call(auth.userType, {})).rejects.toMatchObject({ kind: 'network', httpStatus: 0 });
    expect(effects.navigate).toHaveBeenCalledWith('/errorNet');
  });

  it('rejects a cancelled request quietly: no notice, no error page', async () => {
    const controller = new AbortController();
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = call(auth.userType, {}, { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAborted);
    expect(() => alreadyReported(error)).not.toThrow();
    expect((fetchMock.mock.calls[0]![1] as RequestInit).signal).toBe(controller.signal);
    expect(effects.navigate).not.toHaveBeenCalled();
    expect(effects.fail).not.toHaveBeenCalled();
  });

  it('treats a success reply that breaks the contract as a server fault', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fetchMock.mockResolvedValue(reply(200, { hhtStatus: 'success', userType: '9', userName: 'x', state: 1 }));
    await expect(call(auth.userType, {})).rejects.toMatchObject({ kind: 'serverError' });
    expect(effects.navigate).toHaveBeenCalledWith('/errorService');
  });
});

describe('upload', () => {
  it('posts the multipart body without overriding its content type', async () => {
    fetchMock.mockResolvedValue(reply(200, { hhtStatus: 'success', dataObject: { avatar: 'a.jpg' } }));
    const body = new FormData();
    body.append('file', new Blob(['x'], { type: 'image/jpeg' }), 'avatar.jpg');
    const result = await upload(accounts.uploadAvatar, body);
    expect(result.dataObject.avatar).toBe('a.jpg');
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/platform/user/uploadAvatar');
    expect(init.body).toBe(body);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });
});
