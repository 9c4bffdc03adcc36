import type { Db } from '../db/database.js';
import { CaptchaRepository } from '../modules/captcha/repository.js';
import { md5Hex } from '../security/passwords.js';
import { tokenHash } from '../security/tokens.js';

export type DemoRequest = (
  method: 'GET' | 'POST',
  path: string,
  form?: Record<string, string>,
) => Promise<Record<string, unknown>>;

export interface DemoSession {
  request: DemoRequest;
  /** The session cookie, for the requests that are not form posts (multipart, resumable uploads). */
  cookie(): string;
}

/**
 * A console-like HTTP client of the demo, signed in as `userName` through the captcha (whose
 * answer is read from the demo's own database) and the password, as the console would. Every
 * refusal throws with the server's message.
 */
export async function demoClient(
  baseUrl: string,
  db: Db,
  userName: string,
  password: string,
  what: string,
): Promise<DemoRequest> {
  return (await demoSession(baseUrl, db, userName, password, what)).request;
}

/** demoClient with its session cookie. */
export async function demoSession(
  baseUrl: string,
  db: Db,
  userName: string,
  password: string,
  what: string,
): Promise<DemoSession> {
  const cookies = new Map<string, string>();
  const request: DemoRequest = async (method, path, form) => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: {
        accept: 'application/json',
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      cookies.set(name!.trim(), value.join('='));
    }
    // The captcha answers an image; everything else the envelope.
    if (!(response.headers.get('content-type') ?? '').includes('json')) return {};
    const body = (await response.json()) as { hhtStatus?: string; hhtMsg?: string };
    if (body.hhtStatus !== 'success') throw new Error(`${what}: ${path} refused: ${body.hhtMsg}`);
    return body;
  };
  await request('GET', '/kaptcha/defaultKaptcha');
  const captcha = await new CaptchaRepository(db.kysely).peekForSeeding(
    tokenHash(cookies.get('pf_captcha') ?? ''),
  );
  if (!captcha) throw new Error(`${what}: no captcha to sign in with`);
  await request('POST', '/platform/login', {
    username: userName,
    password: md5Hex(password),
    tryCode: captcha,
  });
  return { request, cookie: () => `pf_session=${cookies.get('pf_session') ?? ''}` };
}
