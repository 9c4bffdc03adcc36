import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestClient, type TestServer } from '../../server/test/harness.js';
import { enrollmentSecretOf, operatorClient, waitFor } from '../../server/test/device-helpers.js';
import { startFleet, type Fleet } from './fleet.js';
import { magicPacket, parseMagicPacket } from './wake-on-lan.js';

describe('simulated fleet', () => {
  let server: TestServer;
  let operator: TestClient;
  let fleet: Fleet;
  const row = async (key: string) => {
    const list = device.listDevices.reply.parse(
      (await operator.get(`/platform/device/list?start=1&size=10&deviceName=${key}`)).body,
    );
    return list.listObject.find((d) => d.deviceKey === key)!;
  };
  const send = (deviceId: number, order: string, value?: string) =>
    operator.post('/sendData/sendCommandByDeviceId', {
      deviceId: String(deviceId),
      order,
      ...(value !== undefined ? { value } : {}),
    });

  beforeAll(async () => {
    server = await startServer('sqlite');
    operator = await operatorClient(server);
    fleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(operator),
      count: 3,
      telemetryMs: 200,
      restartDelayMs: 300,
      abnormalLogChance: 1,
      log: () => undefined,
    });
  });
  afterAll(async () => {
    await fleet.stop();
    await server.stop();
  });

  it('builds and reads magic packets', () => {
    expect(parseMagicPacket(magicPacket('02:50:46:00:00:2a'))).toBe('02:50:46:00:00:2a');
    expect(parseMagicPacket(Buffer.alloc(102))).toBeUndefined();
  });

  it('reports state, apps, usage and logs, and obeys brightness, volume, mute, source and keys', async () => {
    const first = await waitFor('the first panel online', async () =>
      (await row('SIM-00001'))?.isOnline === '1' ? row('SIM-00001') : undefined,
    );
    await send(first.deviceId, '00', '35');
    await send(first.deviceId, '01', '20');
    await send(first.deviceId, '07', '1');
    await send(first.deviceId, '04', 'hdmi2');
    await send(first.deviceId, '08', 'volumeUp');
    await waitFor('the reported state', async () => {
      const r = await row('SIM-00001');
      return r.brightness === 35 && r.volume === 25 && r.mute === true && r.source === 'hdmi2';
    });
    const db = server.app.db.kysely;
    await waitFor('apps, usage and abnormal logs', async () => {
      const apps = await db
        .selectFrom('device_apps')
        .select('package_name')
        .where('device_id', '=', first.deviceId)
        .execute();
      const usage = await db
        .selectFrom('screen_time')
        .select('id')
        .where('device_id', '=', first.deviceId)
        .execute();
      const logs = await db
        .selectFrom('abnormal_logs')
        .select('id')
        .where('device_id', '=', first.deviceId)
        .execute();
      return apps.length > 4 && usage.length > 0 && logs.length > 0;
    });
  });

  it('uninstalls a user app; a system app is refused before anything is sent', async () => {
    const r = await row('SIM-00002');
    const okCmd = device.sendCommandByDeviceId.reply.parse(
      (await send(r.deviceId, 'UNINSTALL', JSON.stringify({ packageNames: ['com.panel.whiteboard'] }))).body,
    );
    const commandsBefore = await server.app.db.kysely
      .selectFrom('commands')
      .select('id')
      .where('device_id', '=', r.deviceId)
      .execute();
    const refused = await send(
      r.deviceId,
      'UNINSTALL',
      JSON.stringify({ packageNames: ['com.android.settings'] }),
    );
    expect(refused.body).toMatchObject({ hhtStatus: 'fail' });
    const commandsAfter = await server.app.db.kysely
      .selectFrom('commands')
      .select('id')
      .where('device_id', '=', r.deviceId)
      .execute();
    expect(commandsAfter.length).toBe(commandsBefore.length);
    const status = async (id: string) =>
      (
        await server.app.db.kysely
          .selectFrom('commands')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirst()
      )?.status;
    await waitFor('uninstall result', async () => (await status(okCmd.dataObject.commandId)) === 'succeeded');
    expect(fleet.panels[1]!.apps.some((a) => a.packageName === 'com.panel.whiteboard')).toBe(false);
    expect(fleet.panels[1]!.apps.some((a) => a.packageName === 'com.android.settings')).toBe(true);
  });

  it('restarts and comes back; powers off and is woken through a relay on its LAN', async () => {
    const r = await row('SIM-00003');
    await send(r.deviceId, '03');
    await waitFor('offline after restart', () => !server.app.devices.gateway.isOnline('SIM-00003'));
    await waitFor('back after restart', () => server.app.devices.gateway.isReady('SIM-00003'));

    await send(r.deviceId, '02');
    await waitFor('offline after power off', async () => (await row('SIM-00003')).isOnline === '0');
    const up = device.sendPowerUpByDeviceId.reply.parse(
      (await operator.post('/sendData/sendPowerUpByDeviceId', { deviceId: String(r.deviceId) })).body,
    );
    await waitFor('online after Wake-on-LAN', async () => (await row('SIM-00003')).isOnline === '1');
    const powerUp = async () =>
      (
        await server.app.db.kysely
          .selectFrom('commands')
          .select('status')
          .where('id', '=', up.dataObject.commandId)
          .executeTakeFirst()
      )?.status;
    await waitFor('POWERUP succeeded', async () => (await powerUp()) === 'succeeded');
    const relays = await server.app.db.kysely
      .selectFrom('commands')
      .select('status')
      .where('relay_for', '=', up.dataObject.commandId)
      .execute();
    expect(relays.length).toBeGreaterThan(0);
  });
});
