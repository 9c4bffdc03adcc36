import { MAX_RECORD_ID } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';

/**
 * An id above the integer range is a typing mistake, answered 400 in the envelope before any
 * query: on PostgreSQL the query itself would fail ("out of range for type integer") and the
 * caller got a 500. packages/contract/src/id-bounds.test.ts checks every id parameter of the
 * contract; these are the calls as an operator makes them.
 */
describe.each(backends)('ids above the integer range on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let platform: TestClient;
  const above = String(MAX_RECORD_ID + 1);

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await signedIn(server, 'operator1', 'operator123');
    platform = await signedIn(server, 'admin', 'admin123');
  });
  afterAll(async () => {
    await server.stop();
  });

  const refusal = (response: { status: number; body: Record<string, unknown> }) => ({
    status: response.status,
    hhtStatus: response.body.hhtStatus,
    hasMessage: typeof response.body.hhtMsg === 'string' && response.body.hhtMsg !== '',
  });
  const refused = { status: 400, hhtStatus: 'fail', hasMessage: true };

  it('a settings push to such a device, and of such a setting', async () => {
    const template = await operator.post('/deviceSetting/addSetting', { type: '0', series: 'x9_vn' });
    const id = String(template.body.id);
    expect(refusal(await operator.post('/sendData/sendSetting', { id, deviceIds: above }))).toEqual(refused);
    expect(refusal(await operator.post('/sendData/sendSetting', { id, deviceIds: `1,${above}` }))).toEqual(
      refused,
    );
    expect(refusal(await operator.post('/sendData/sendSetting', { id: above, deviceIds: '1' }))).toEqual(
      refused,
    );
    expect(
      refusal(
        await operator.post('/sendData/sendSettingsToDevice', { deviceId: '1', ids: `${id},${above}` }),
      ),
    ).toEqual(refused);
    const pushes = await server.app.db.kysely.selectFrom('setting_pushes').select('id').execute();
    expect(pushes).toEqual([]);
  });

  it('the device detail, a command, a label command and a notification', async () => {
    expect(refusal(await operator.get(`/platform/device/selectByDeviceId?deviceId=${above}`))).toEqual(
      refused,
    );
    expect(
      refusal(
        await operator.post('/sendData/sendCommandByDeviceId', { deviceId: above, order: '01', value: '5' }),
      ),
    ).toEqual(refused);
    expect(
      refusal(
        await operator.post('/sendData/sendCommandByTagIds', { tagIds: above, order: '01', value: '5' }),
      ),
    ).toEqual(refused);
    expect(
      refusal(
        await operator.post('/sendMessage/insert', {
          title: 'Fire drill',
          text: 'At ten',
          level: '1',
          position: 'top',
          deviceId: above,
        }),
      ),
    ).toEqual(refused);
  });

  it("a dashboard narrowed to such a customer, and a licence's salesperson", async () => {
    expect(
      refusal(await platform.get(`/platform/dashboard/previewCustomerDevice?customerId=${above}`)),
    ).toEqual(refused);
    expect(refusal(await platform.post('/platform/license/delete', { id: above }))).toEqual(refused);
  });
});
