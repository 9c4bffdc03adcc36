import crypto from 'node:crypto';
import { device } from '@panelfleet/contract';

/** A signed-in console user (cookie session) talking to the HTTP API like the console does. */
export class Operator {
  private cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  async request(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { 'accept-language': 'en-US' };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form).toString();
    }
    const response = await fetch(this.base + url, { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      this.cookies.set(name!.trim(), rest.join('='));
    }
    return (await response.json()) as Record<string, unknown>;
  }

  /** The session cookie as a request header (for streams opened outside `request`). */
  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Signs in (CAPTCHA=off on benchmark servers); the sample customer administrator is type 4. */
  static async signIn(base: string, userName = 'operator1', password = 'operator123') {
    const operator = new Operator(base);
    const md5 = crypto.createHash('md5').update(password).digest('hex');
    const reply = await operator.request('POST', '/platform/login', {
      username: userName,
      password: md5,
      tryCode: 'none',
    });
    if (reply.hhtStatus !== 'success') throw new Error(`sign-in failed: ${JSON.stringify(reply)}`);
    return operator;
  }

  async enrollmentSecret() {
    return device.getEnrollmentSecret.reply.parse(
      await this.request('GET', '/platform/device/enrollmentSecret'),
    ).dataObject.enrollmentSecret;
  }

  async deviceIds(): Promise<number[]> {
    const ids: number[] = [];
    let cursor: string | undefined;
    for (let page = 1; ; page++) {
      // The previous page's cursor makes the next page a keyset read.
      const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const reply = await this.request('GET', `/platform/device/list?start=${page}&size=100${after}`);
      const parsed = device.listDevices.reply.safeParse(reply);
      if (!parsed.success) throw new Error(`device list page ${page} refused: ${JSON.stringify(reply)}`);
      const list = parsed.data;
      if (!list.listObject.length || ids.length >= list.totalRecords) break;
      ids.push(...list.listObject.map((d) => d.deviceId));
      cursor = list.cursor;
      if (ids.length >= list.totalRecords) break;
    }
    return ids;
  }

  /** Creates a label holding these devices; returns its id. */
  async label(name: string, deviceIds: number[]) {
    const label = device.insertGroup.reply.parse(
      await this.request('POST', '/platform/group/insert', { groupName: name }),
    ).dataObject;
    for (let i = 0; i < deviceIds.length; i += 10_000) {
      const save = () =>
        this.request('POST', '/platform/group/saveGroupsAndDevices', {
          deviceIds: deviceIds.slice(i, i + 10_000).join(','),
          groupIds: String(label.groupId),
        });
      let saved = await save();
      // "Briefly unavailable" (the save met a deadlock and wrote nothing): sent again, as a user would.
      for (let again = 0; again < 3 && saved.hhtMsgKey === 'common.serviceUnavailable'; again++)
        saved = await save();
      if (saved.hhtStatus !== 'success') throw new Error(`label save failed: ${JSON.stringify(saved)}`);
    }
    return label.groupId;
  }
}
