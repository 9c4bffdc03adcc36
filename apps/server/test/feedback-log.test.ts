import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enroll, enrollmentSecretOf } from './device-helpers.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';

describe.each(backends)('feedback log filters on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let deviceId: number;

  const feedback = async (client: TestClient, query: string) =>
    device.listFeedback.reply.parse(
      (await client.get(`/platform/feedback/listFeedbackInfo?start=1&size=50${query}`)).body,
    );

  beforeAll(async () => {
    // Commands here are dated in the past on purpose; the expiry tick must not end them mid-test.
    server = await startServer(backend, {}, { commandTimings: { tickMs: 3_600_000 } });
    operator = await signedIn(server, 'operator1', 'operator123');
    await enroll(server.url, 'FEED-0001', await enrollmentSecretOf(operator));
    deviceId = device.listDevices.reply.parse(
      (await operator.get('/platform/device/list?start=1&size=5&deviceName=FEED-0001')).body,
    ).listObject[0]!.deviceId;
  });
  afterAll(() => server.stop());

  it('reads createDate as the operator’s day, given the console’s offset from UTC', async () => {
    const now = server.clock.time;
    // 20:00 UTC on 20 November is 04:00 on 21 November in Beijing (UTC+8).
    server.clock.time = Date.UTC(2026, 10, 20, 20, 0);
    const sent = device.sendCommandByDeviceId.reply.parse(
      (await operator.post('/sendData/sendCommandByDeviceId', { deviceId: String(deviceId), order: '03' }))
        .body,
    );
    server.clock.time = now;
    const ids = async (query: string) => (await feedback(operator, query)).listObject.map((r) => r.uuid);
    const id = sent.dataObject.commandId;
    expect(await ids('&createDate=2026-11-21&utcOffset=480')).toContain(id);
    expect(await ids('&createDate=2026-11-20&utcOffset=480')).not.toContain(id);
    expect(await ids('&createDate=2026-11-20')).toContain(id);
    expect(await ids('&createDate=2026-11-21')).not.toContain(id);
    expect(await ids('&createDate=2026-11-20&utcOffset=-300')).toContain(id);
    expect(await ids('&createDate=&deviceName=FEED')).toContain(id);
    const row = (
      await feedback(operator, '&deviceName=FEED-0001&createDate=2026-11-21&utcOffset=480')
    ).listObject.find((r) => r.uuid === id);
    expect(row).toMatchObject({
      deviceName: 'FEED-0001',
      type: '03',
      status: 'sent',
      userName: 'operator1',
      createDate: Date.UTC(2026, 10, 20, 20, 0),
    });
  });

  it('finds devices by any part of their name, in any case, taking _ and % literally', async () => {
    await enroll(server.url, 'FEED_0002', await enrollmentSecretOf(operator));
    const second = device.listDevices.reply.parse(
      (await operator.get('/platform/device/list?start=1&size=5&deviceName=FEED_0002')).body,
    ).listObject[0]!;
    const sent = device.sendCommandByDeviceId.reply.parse(
      (
        await operator.post('/sendData/sendCommandByDeviceId', {
          deviceId: String(second.deviceId),
          order: '01',
          value: '20',
        })
      ).body,
    );
    const names = async (deviceName: string) =>
      (await feedback(operator, `&deviceName=${encodeURIComponent(deviceName)}`)).listObject.map(
        (r) => r.deviceName,
      );
    expect(await names('feed_0')).toEqual(['FEED_0002']);
    expect(await names('D_00')).toEqual(['FEED_0002']);
    expect(new Set(await names('feed'))).toEqual(new Set(['FEED-0001', 'FEED_0002']));
    expect(await names('%')).toEqual([]);
    expect((await feedback(operator, '&deviceName=0002')).listObject[0]).toMatchObject({
      uuid: sent.dataObject.commandId,
      type: '01',
    });
  });

  it('refuses days that do not exist and impossible offsets in the caller’s language, never with a server error', async () => {
    const zh = await signedIn(server, 'operator1', 'operator123', 'zh-CN');
    const cases: Array<[TestClient, string, string]> = [
      [operator, 'createDate=2024-13-45', 'The date must be written yyyy-MM-dd'],
      [operator, 'createDate=2023-02-29', 'The date must be written yyyy-MM-dd'],
      [zh, 'createDate=2024-13-45', '日期格式应为 yyyy-MM-dd'],
      [zh, 'createDate=yesterday', '日期格式应为 yyyy-MM-dd'],
      [operator, 'createDate=2026-11-21&utcOffset=9999', 'The time zone offset is not valid'],
      [zh, 'createDate=2026-11-21&utcOffset=east', '时区偏移无效'],
    ];
    for (const [client, query, message] of cases) {
      const reply = await client.get(`/platform/feedback/listFeedbackInfo?start=1&size=5&${query}`);
      expect.soft(reply.body, query).toMatchObject({ hhtStatus: 'fail', hhtMsg: message });
      expect.soft(reply.status, query).toBeLessThan(500);
    }
  });
});
