import type { ServerResponse } from 'node:http';
import { failWithKey, translate, type Language } from '@panelfleet/contract';

export const TUS_VERSION = '1.0.0';

/** A refusal of a tus request, with tus's own status (412, 415, ... which the Refusal kinds do not name). */
export class TusFail extends Error {
  constructor(
    readonly status: number,
    readonly key: string,
    readonly vars: Record<string, string | number> = {},
  ) {
    super(key);
    this.name = 'TusFail';
  }
}

/** The message key of each status tus answers by itself. */
const KEY_OF_TUS_STATUS: Record<number, string> = {
  404: 'upload.notFound',
  409: 'upload.offsetConflict',
  410: 'upload.notFound',
  412: 'upload.versionRequired',
  413: 'upload.beyondLength',
  415: 'upload.contentType',
};

export function failBody(language: Language, key: string, vars: Record<string, string | number> = {}) {
  return JSON.stringify(failWithKey(translate(language, key, vars), key, vars));
}

/** Answers a refusal in the envelope, as JSON, with tus's version header. */
export function sendFail(res: ServerResponse, language: Language, fail: TusFail) {
  sendEnvelope(res, fail.status, failBody(language, fail.key, fail.vars), fail.status === 412);
}

function sendEnvelope(res: ServerResponse, status: number, body: string, withVersions = false) {
  if (res.headersSent) return void res.destroy();
  res
    .writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      'Tus-Resumable': TUS_VERSION,
      ...(withVersions ? { 'Tus-Version': TUS_VERSION } : {}),
    })
    .end(body);
}

const isEnvelope = (text: string) => {
  try {
    return (JSON.parse(text) as { hhtStatus?: unknown }).hhtStatus === 'fail';
  } catch {
    return false;
  }
};

/**
 * Writes tus's answer (a fetch Response) to Node's response. A refusal becomes the envelope in the
 * caller's language (our own hooks' refusals already are one); a server error is reported to `logError`.
 */
export async function sendTusResponse(
  res: ServerResponse,
  response: Response,
  language: Language,
  logError: (message: string) => void,
) {
  if (response.status < 400) {
    const body = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    res.writeHead(response.status, headers);
    res.end(body.length ? body : undefined);
    return;
  }
  const text = await response.text();
  if (isEnvelope(text)) return sendEnvelope(res, response.status, text);
  if (response.status >= 500) {
    logError(`upload request failed in tus: ${response.status} ${text.trim()}`);
    return sendEnvelope(res, 500, failBody(language, 'common.serverError'));
  }
  const key = KEY_OF_TUS_STATUS[response.status] ?? 'upload.requestInvalid';
  sendEnvelope(res, response.status, failBody(language, key), response.status === 412);
}
