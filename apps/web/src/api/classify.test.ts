import { describe, expect, it } from 'vitest';
import { classifyReply } from './classify';

const expired = { hhtStatus: 'fail', status: 518, hhtMsg: 'Login timeout' };

describe('classifyReply', () => {
  it('treats the 518 body marker as an expired session under 401 and the legacy 500', () => {
    expect(classifyReply(401, expired)).toEqual({ kind: 'sessionExpired', message: 'Login timeout' });
    expect(classifyReply(500, expired)).toEqual({ kind: 'sessionExpired', message: 'Login timeout' });
  });

  it('shows a fail envelope whatever the non-5xx status', () => {
    for (const status of [200, 400, 403, 404, 429]) {
      expect(classifyReply(status, { hhtStatus: 'fail', hhtMsg: 'nope', hhtErrorCode: '3004' })).toEqual({
        kind: 'fail',
        message: 'nope',
        code: '3004',
      });
    }
  });

  it('keeps the message key and variables of a fail envelope, so the message can follow a language switch', () => {
    const body = {
      hhtStatus: 'fail',
      hhtMsg: 'Too many failed sign-ins; try again in 3 minutes',
      hhtMsgKey: 'login.throttled',
      hhtMsgVars: { minutes: 3 },
    };
    expect(classifyReply(429, body)).toEqual({
      kind: 'fail',
      message: body.hhtMsg,
      code: undefined,
      key: 'login.throttled',
      vars: { minutes: 3 },
    });
    expect(classifyReply(200, { ...body, hhtMsgVars: { minutes: { nested: 1 } } })).toEqual({
      kind: 'fail',
      message: body.hhtMsg,
      code: undefined,
      key: 'login.throttled',
    });
  });

  it('sends any other 5xx to the server error page, even with a fail envelope', () => {
    expect(classifyReply(500, { hhtStatus: 'fail', hhtMsg: 'boom' })).toEqual({ kind: 'serverError' });
    expect(classifyReply(502, undefined)).toEqual({ kind: 'serverError' });
  });

  it('maps a bare 404 to page lost and status 0 to a network failure', () => {
    expect(classifyReply(404, undefined)).toEqual({ kind: 'notFound' });
    expect(classifyReply(0, undefined)).toEqual({ kind: 'network' });
  });

  it('accepts only a 2xx success envelope as ok', () => {
    const body = { hhtStatus: 'success', dataObject: {} };
    expect(classifyReply(200, body)).toEqual({ kind: 'ok', body });
    expect(classifyReply(200, '<html>')).toEqual({ kind: 'serverError' });
    expect(classifyReply(302, body)).toEqual({ kind: 'serverError' });
  });
});
