import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { device, panelHistory, screenshots } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { ScreenshotRepository } from '../src/modules/screenshots/repository.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  fullState,
  operatorClient,
  waitFor,
  type BareDevice,
} from './device-helpers.js';
import { backends, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

const jpeg = (width: number, height: number, colour = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

describe.each(backends)('screenshots on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let otherOperator: TestClient;
  const panels: Record<string, BareDevice & { password: string }> = {};
  const ids: Record<string, number> = {};
  const db = () => server.app.db.kysely;

  /** Files under the store's screenshots area. */
  const storedFiles = () => {
    const root = path.join(server.dataDir, 'screenshots');
    return fs.existsSync(root)
      ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => /\./.test(f))
      : [];
  };

  async function startPanel(secret: string, key: string) {
    const creds = await enroll(server.url, key, secret);
    const panel = await connectBare(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, creds, {
      autoAck: false,
    });
    await panel.client.publishAsync(`pf/v1/d/${key}/state`, JSON.stringify(fullState({})), { qos: 1 });
    panels[key] = { ...panel, password: creds.password };
    const row = await db()
      .selectFrom('devices')
      .select('id')
      .where('device_key', '=', key)
      .executeTakeFirstOrThrow();
    ids[key] = row.id;
  }

  const take = (key: string, client = operator) =>
    client.post(screenshots.takeScreenshot.path, { deviceId: String(ids[key]) });
  const statusOf = async (id: number, client = operator) =>
    (await client.get(`${screenshots.screenshotStatus.path}?screenshotId=${id}`)).body;

  /** Asks for a screenshot of `key` (a little later than the last, past the panel's gap) and returns the order the panel got. */
  async function ask(key: string) {
    server.clock.advance(screenshots.SCREENSHOT_PANEL_GAP_MS);
    const before = panels[key]!.commands.length;
    const reply = screenshots.takeScreenshot.reply.parse((await take(key)).body);
    expect(reply.dataObject.status).toBe('pending');
    const cmd = await waitFor(
      'the SCREENSHOT order',
      () => panels[key]!.commands.length > before && panels[key]!.commands.at(-1),
    );
    expect(cmd.order).toBe('SCREENSHOT');
    return { id: reply.dataObject.screenshotId, cmd, value: device.screenshotValue.parse(cmd.value) };
  }

  async function upload(url: string, key: string, bytes: Buffer, type = 'image/jpeg') {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(bytes)], { type }), 'screen.jpg');
    // The test server's BASE_URL names no real host: the same path and token on its own address.
    const local = new URL(url);
    const response = await fetch(`${server.url}${local.pathname}${local.search}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${key}:${panels[key]!.password}`).toString('base64')}`,
      },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    operator = await operatorClient(server);
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    otherOperator = await operatorClient(server, 'b-operator', 'boperator123');
    const secret = await enrollmentSecretOf(operator);
    await startPanel(secret, 'SHOT-A');
    await startPanel(secret, 'SHOT-B');
    await startPanel(await enrollmentSecretOf(otherOperator), 'OTHER-SHOT');
    // An enrolled panel that never connects: offline.
    await enroll(server.url, 'SHOT-OFF', secret);
    ids['SHOT-OFF'] = (
      await db()
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', 'SHOT-OFF')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await Promise.all(Object.values(panels).map((p) => p.close()));
    await server.stop();
  });

  it('sends an order with a signed URL, stores the upload with a thumbnail and serves both', async () => {
    const { id, value } = await ask('SHOT-A');
    expect(value.maxBytes).toBe(device.SCREENSHOT_MAX_BYTES);
    const sent = await upload(value.url, 'SHOT-A', await jpeg(1280, 720));
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ hhtStatus: 'success', dataObject: { width: 1280, height: 720 } });
    const record = screenshots.screenshotStatus.reply.parse(await statusOf(id)).dataObject;
    expect(record).toMatchObject({ status: 'stored', failure: null, width: 1280, height: 720 });
    expect(record.takenAt).toBe(server.clock.now());

    const full = await operator.get(`${screenshots.screenshotImage.path}?screenshotId=${id}`);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('image/jpeg');
    const thumbResponse = await fetch(
      `${server.url}${screenshots.screenshotImage.path}?screenshotId=${id}&size=thumb`,
      {
        headers: { cookie: `pf_session=${operator.cookie('pf_session')}` },
      },
    );
    expect(thumbResponse.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumbResponse.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: screenshots.SCREENSHOT_THUMB_WIDTH, height: 180 });
    const latest = screenshots.latestScreenshot.reply.parse(
      (await operator.get(`${screenshots.latestScreenshot.path}?deviceId=${ids['SHOT-A']}`)).body,
    );
    expect(latest.dataObject?.screenshotId).toBe(id);
    expect(storedFiles().filter((f) => f.includes(String(id)))).toHaveLength(2);
    const inRange = await new ScreenshotRepository(db()).storedInRange(
      server.accounts.customerId,
      ids['SHOT-A']!,
      record.takenAt! - 1,
      record.takenAt! + 1,
    );
    expect(inRange.map((r) => r.id)).toEqual([id]);
    // The panel's history lists it, with who asked; its id opens the picture above.
    const history = panelHistory.panelHistory.parse(
      (
        await operator.get(
          `${panelHistory.selectPanelHistory.path}?deviceId=${ids['SHOT-A']}&from=${record.takenAt! - 60_000}&to=${record.takenAt! + 1}`,
        )
      ).body.dataObject,
    );
    expect(history.screenshots).toEqual([{ screenshotId: id, at: record.takenAt, requestedBy: 'operator1' }]);
    const before = panelHistory.panelHistory.parse(
      (
        await operator.get(
          `${panelHistory.selectPanelHistory.path}?deviceId=${ids['SHOT-A']}&from=${record.takenAt! - 60_000}&to=${record.takenAt!}`,
        )
      ).body.dataObject,
    );
    expect(before.screenshots).toEqual([]);

    // Single use: the same URL again is refused and changes nothing.
    const replay = await upload(value.url, 'SHOT-A', await jpeg(1280, 720, '#ff0000'));
    expect(replay.status).toBe(409);
    expect(replay.body.hhtMsgKey).toBe('screenshot.linkUsed');
  });

  it('refuses another panel, an altered token, no image, too big and expired, storing nothing', async () => {
    const files = storedFiles().length;
    const other = await ask('SHOT-A');
    // Another panel of the same company with A's URL.
    const foreign = await upload(other.value.url, 'SHOT-B', await jpeg(640, 360));
    expect(foreign.status).toBe(403);
    expect(foreign.body.hhtMsgKey).toBe('screenshot.otherPanel');
    // The token's first character (its last one may differ in bits base64url drops).
    const altered = await upload(
      other.value.url.replace(/t=(.)/, (_, c: string) => `t=${c === 'A' ? 'B' : 'A'}`),
      'SHOT-A',
      await jpeg(640, 360),
    );
    expect(altered.status).toBe(403);
    // Without credentials at all.
    const anonymous = await fetch(`${server.url}/device/screenshot${new URL(other.value.url).search}`, {
      method: 'POST',
      body: new FormData(),
    });
    expect(anonymous.status).toBe(401);
    expect(screenshots.screenshotStatus.reply.parse(await statusOf(other.id)).dataObject.status).toBe(
      'pending',
    );

    const text = await upload(
      other.value.url,
      'SHOT-A',
      Buffer.from('not a picture at all'.repeat(100)),
      'image/jpeg',
    );
    expect(text.status).toBe(400);
    expect(text.body.hhtMsgKey).toBe('screenshot.notImage');
    expect(screenshots.screenshotStatus.reply.parse(await statusOf(other.id)).dataObject).toMatchObject({
      status: 'failed',
      failure: 'refused',
    });

    const big = await ask('SHOT-A');
    const tooBig = await upload(big.value.url, 'SHOT-A', Buffer.alloc(device.SCREENSHOT_MAX_BYTES + 1, 7));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.hhtMsgKey).toBe('screenshot.tooLarge');

    const huge = await ask('SHOT-A');
    const oversize = await upload(huge.value.url, 'SHOT-A', await jpeg(1920, 1080));
    expect(oversize.status).toBe(400);

    const late = await ask('SHOT-A');
    server.clock.advance(screenshots.SCREENSHOT_TTL_MS + 1);
    const expired = await upload(late.value.url, 'SHOT-A', await jpeg(640, 360));
    expect(expired.status).toBe(410);
    expect(expired.body.hhtMsgKey).toBe('screenshot.linkExpired');
    expect(screenshots.screenshotStatus.reply.parse(await statusOf(late.id)).dataObject.failure).toBe(
      'timeout',
    );
    expect(storedFiles().length).toBe(files);
  });

  it('says why in words: offline, the panel could not capture, no answer in time', async () => {
    server.clock.advance(screenshots.SCREENSHOT_PANEL_GAP_MS);
    const offline = screenshots.takeScreenshot.reply.parse((await take('SHOT-OFF')).body).dataObject;
    expect(offline).toMatchObject({ status: 'failed', failure: 'offline' });

    const capture = await ask('SHOT-B');
    await panels['SHOT-B']!.client.publishAsync(
      'pf/v1/d/SHOT-B/ack',
      JSON.stringify({ v: 1, id: capture.cmd.id, result: 'failed', detail: 'capture' }),
      { qos: 1 },
    );
    await waitFor('the failed acknowledgement', async () => {
      const r = screenshots.screenshotStatus.reply.parse(await statusOf(capture.id)).dataObject;
      return r.failure === 'capture';
    });

    const silent = await ask('SHOT-B');
    server.clock.advance(screenshots.SCREENSHOT_TTL_MS + 6_000);
    expect(screenshots.screenshotStatus.reply.parse(await statusOf(silent.id)).dataObject).toMatchObject({
      status: 'failed',
      failure: 'timeout',
    });
  });

  it('limits one request per panel at a time, also when they arrive in parallel', async () => {
    server.clock.advance(screenshots.SCREENSHOT_PANEL_GAP_MS);
    const replies = await Promise.all(Array.from({ length: 6 }, () => take('SHOT-B')));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 429, 429, 429, 429, 429]);
    const refused = replies.find((r) => r.status === 429)!;
    expect(refused.body.hhtMsgKey).toBe('screenshot.panelBusy');
    operator.language = 'zh-CN';
    const zh = await take('SHOT-B');
    operator.language = 'en-US';
    expect(zh.body.hhtMsg).toBe('刚刚已请求过该设备的截图，请几秒后再试');
  });

  it('shows a label’s wall and keeps every screenshot within its company', async () => {
    const orgId = server.accounts.customerId;
    const label = await db()
      .insertInto('labels')
      .values({ org_id: orgId, name: 'Lobby', created_at: server.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('label_devices')
      .values(
        ['SHOT-A', 'SHOT-B', 'SHOT-OFF'].map((k) => ({
          label_id: label.id,
          device_id: ids[k]!,
          org_id: orgId,
        })),
      )
      .execute();
    const wall = screenshots.wallOfLabel.reply.parse(
      (await operator.get(`${screenshots.wallOfLabel.path}?labelId=${label.id}`)).body,
    );
    expect(wall.labelName).toBe('Lobby');
    expect(wall.listObject.map((t) => [t.deviceKey, t.online, t.screenshot?.status ?? null])).toEqual([
      ['SHOT-A', true, 'stored'],
      ['SHOT-B', true, null],
      ['SHOT-OFF', false, null],
    ]);

    // Another company's user: the same not-found as an unknown id, for every call.
    const shotOfA = wall.listObject[0]!.screenshot!.screenshotId;
    const probes = [
      await otherOperator.get(`${screenshots.wallOfLabel.path}?labelId=${label.id}`),
      await otherOperator.get(`${screenshots.screenshotStatus.path}?screenshotId=${shotOfA}`),
      await otherOperator.get(`${screenshots.screenshotImage.path}?screenshotId=${shotOfA}`),
      await otherOperator.get(`${screenshots.latestScreenshot.path}?deviceId=${ids['SHOT-A']}`),
      await take('SHOT-A', otherOperator),
    ];
    expect(probes.map((p) => p.status)).toEqual([404, 404, 404, 404, 404]);
    // And the other company's panel cannot use A's URL either.
    const mine = await ask('SHOT-A');
    const stolen = await upload(mine.value.url, 'OTHER-SHOT', await jpeg(640, 360));
    expect(stolen.status).toBe(403);
  });
});
