import { device, deviceDetail } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';
import { enroll, enrollmentSecretOf } from './device-helpers.js';

/** A panel's location: given in the device edit (or by an import), shown in its list row and detail. */
describe.each(backends)("a panel's location on %s", (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let deviceId: number;

  const rowOf = async () =>
    device.listDevices.reply
      .parse((await operator.get('/platform/device/list?start=1&size=10&deviceName=LOC-0001')).body)
      .listObject.find((d) => d.deviceKey === 'LOC-0001')!;
  const edit = (extra: Record<string, string>, language = 'en-US') =>
    operator.post(
      '/platform/device/update',
      {
        deviceId: String(deviceId),
        deviceName: 'Lobby',
        deviceKey: 'LOC-0001',
        tag: 'Hall',
        state: '1',
        ...extra,
      },
      { 'accept-language': language },
    );

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await signedIn(server, 'operator1', 'operator123');
    await enroll(server.url, 'LOC-0001', await enrollmentSecretOf(operator));
    deviceId = (await rowOf()).deviceId;
  });
  afterAll(() => server?.stop());

  it('is empty until given, then in the list row, the detail and the operation log', async () => {
    expect((await rowOf()).location).toBe('');
    expect((await edit({ location: '  Building B, floor 2  ' })).body).toMatchObject({
      hhtStatus: 'success',
    });
    expect((await rowOf()).location).toBe('Building B, floor 2');
    const detail = deviceDetail.selectByDeviceId.reply.parse(
      (await operator.get(`/platform/device/selectByDeviceId?deviceId=${deviceId}`)).body,
    );
    expect(detail.dataObject.location).toBe('Building B, floor 2');
    const logged = await server.app.db.kysely
      .selectFrom('operation_logs')
      .select(['content', 'detail'])
      .where('action', '=', 'device.update')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(logged.detail))).toMatchObject({
      k: 'deviceEditPlace',
      v: { location: 'Building B, floor 2' },
    });
    expect(logged.content).toContain('location Building B, floor 2');
    expect(logged.content).toContain('位置 Building B, floor 2');
  });

  it('stays as it is when an edit leaves it out (callers that predate it)', async () => {
    await edit({ location: 'Room 101' });
    expect((await edit({ remark: 'new remark' })).body).toMatchObject({ hhtStatus: 'success' });
    expect(await rowOf()).toMatchObject({ location: 'Room 101', remark: 'new remark' });
  });

  it('refuses one too long in the caller’s language and changes nothing', async () => {
    await edit({ location: 'Room 101' });
    const refused = await edit({ location: '教'.repeat(65) }, 'zh-CN');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: '位置最长 128 个单位（汉字计 2 个）' });
    expect((await rowOf()).location).toBe('Room 101');
  });
});
