import { device, deviceDetail } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  fullState,
  operatorClient,
  waitFor,
  x9Settings,
  type BareDevice,
} from './device-helpers.js';
import { backends, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

const oemSettings: device.SettingsReport = {
  v: 1,
  platform: 'oem',
  platformMsg: {
    language: 'de_de',
    powerOnOffSetting: {
      ...x9Settings.platformMsg.powerOnOffSetting,
      cecAutoPowerOn: true,
      cecAutoPowerOff: true,
    },
    inputOutputSetting: {
      hdmiOutputResolution: '3840*2160',
      startingSource: 'favoriteSource',
      newInputSource: false,
      favoriteSource: 'hdmi2',
    },
  },
};

describe.each(backends)('device detail, settings and bad commands on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let otherOperator: TestClient;
  let mqttUrl: string;
  const panels: Record<string, BareDevice> = {};
  const ids: Record<string, number> = {};

  const db = () => server.app.db.kysely;
  const commandCount = async (deviceId: number) =>
    Number(
      (
        await db()
          .selectFrom('commands')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('device_id', '=', deviceId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const detail = (client: TestClient, deviceId: number | string) =>
    client.get(`/platform/device/selectByDeviceId?deviceId=${deviceId}`);
  const change = (deviceId: number, platformMsg: unknown, client = operator) =>
    client.post('/deviceSetting/updateDeviceSetting', {
      deviceId: String(deviceId),
      jsonData: typeof platformMsg === 'string' ? platformMsg : JSON.stringify(platformMsg),
    });
  const settingsOf = async (deviceId: number) =>
    deviceDetail.listDeviceSetting.reply.parse(
      (await operator.get(`/deviceSetting/listDeviceSetting?deviceId=${deviceId}`)).body,
    );

  /** Enrolls and connects a bare panel that reports its state, and its settings when given. */
  async function startPanel(
    secret: string,
    key: string,
    state: Partial<device.DeviceStateFields>,
    settings?: device.SettingsReport,
  ) {
    const creds = await enroll(server.url, key, secret);
    const panel = await connectBare(mqttUrl, creds);
    await panel.client.publishAsync(`pf/v1/d/${key}/state`, JSON.stringify(fullState(state)), { qos: 1 });
    if (settings)
      await panel.client.publishAsync(`pf/v1/d/${key}/settings`, JSON.stringify(settings), { qos: 1 });
    panels[key] = panel;
    const row = await db()
      .selectFrom('devices')
      .select('id')
      .where('device_key', '=', key)
      .executeTakeFirstOrThrow();
    ids[key] = row.id;
    return panel;
  }

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    mqttUrl = `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
    operator = await operatorClient(server);
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    otherOperator = await operatorClient(server, 'b-operator', 'boperator123');
    const secret = await enrollmentSecretOf(operator);
    await startPanel(
      secret,
      'DET-X9-1',
      { machineType: 'x9_vn', brightness: 35, cpuTemperature: 51.5, utcOffset: 330 },
      x9Settings,
    );
    await startPanel(
      secret,
      'DET-X9-2',
      { machineType: 'x9_vn' },
      { ...x9Settings, platformMsg: { ...x9Settings.platformMsg, language: 'fr_fr' } },
    );
    await startPanel(secret, 'DET-OEM-1', { machineType: 'oem' }, oemSettings);
    await startPanel(secret, 'DET-QUIET', { machineType: 'x9_vn' });
    await startPanel(
      await enrollmentSecretOf(otherOperator),
      'OTHER-X9-1',
      { machineType: 'x9_vn' },
      x9Settings,
    );
    await waitFor('every settings report stored', async () => {
      const rows = await db().selectFrom('device_settings').select('device_id').distinct().execute();
      return rows.length === 4;
    });
  });
  afterAll(async () => {
    await Promise.all(Object.values(panels).map((p) => p.close()));
    await server.stop();
  });

  it('answers selectByDeviceId with every reported field, online state and tags, only within the caller’s company', async () => {
    const id = ids['DET-X9-1']!;
    const reply = await waitFor('the state report', async () => {
      const r = deviceDetail.selectByDeviceId.reply.parse((await detail(operator, id)).body);
      return r.dataObject.cpuTemperature === 51.5 ? r : undefined;
    });
    expect(reply.dataObject).toMatchObject({
      deviceId: id,
      deviceKey: 'DET-X9-1',
      deviceName: 'DET-X9-1',
      isOnline: '1',
      state: 1,
      machineType: 'x9_vn',
      brightness: 35,
      publicIp: '203.0.113.7',
      localIp: '192.168.10.21',
      latitude: 31.23,
      longitude: 121.47,
      ramTotal: 4_294_967_296,
      ramUsed: 1_073_741_824,
      netWorkState: 'ethernet',
      netWorkIntensity: 100,
      // What the panel reports beyond the list's columns: its network card and its time zone.
      mac: '02:00:00:aa:bb:01',
      netmask: '255.255.255.0',
      utcOffset: 330,
    });
    expect(reply.dataObject.machineTypeId).toEqual(expect.any(Number));

    for (const foreign of [ids['OTHER-X9-1']!, 999_999]) {
      const refused = await detail(operator, foreign);
      expect(refused.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: 'No such device' });
    }
    expect((await detail(operator, 'abc')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'No such device',
    });
    expect((await detail(otherOperator, id)).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'No such device',
    });

    const quiet = ids['DET-QUIET']!;
    await panels['DET-QUIET']!.close();
    delete panels['DET-QUIET'];
    await waitFor(
      'offline in the detail',
      async () =>
        deviceDetail.selectByDeviceId.reply.parse((await detail(operator, quiet)).body).dataObject
          .isOnline === '0',
    );
  });

  it('lists the settings a panel reports, one row per section, keeping ids across reports', async () => {
    const first = await settingsOf(ids['DET-X9-1']!);
    expect(first.platform).toBe('x9_vn');
    expect(first.listObject.map((r) => r.section)).toEqual(device.sectionsOf('x9_vn'));
    expect(first.listObject.find((r) => r.section === 'language')?.value).toBe('en_us');

    const panel = panels['DET-X9-2']!;
    await panel.client.publishAsync(
      'pf/v1/d/DET-X9-2/settings',
      JSON.stringify({ ...x9Settings, platformMsg: { ...x9Settings.platformMsg, language: 'ja_jp' } }),
      { qos: 1 },
    );
    const before = await settingsOf(ids['DET-X9-2']!);
    const after = await waitFor('the second report', async () => {
      const s = await settingsOf(ids['DET-X9-2']!);
      return s.listObject.find((r) => r.section === 'language')?.value === 'ja_jp' ? s : undefined;
    });
    expect(after.listObject.map((r) => r.deviceSettingId)).toEqual(
      before.listObject.map((r) => r.deviceSettingId),
    );

    // A report that does not fit its series is dropped; the stored settings stay.
    await panel.client.publishAsync(
      'pf/v1/d/DET-X9-2/settings',
      JSON.stringify({ ...oemSettings, platform: 'x9_vn' }),
      { qos: 1 },
    );
    await panel.client.publishAsync('pf/v1/d/DET-X9-2/state', JSON.stringify({ v: 1, cpuTemperature: 60 }), {
      qos: 1,
    });
    await waitFor(
      'the later state report',
      async () =>
        deviceDetail.selectByDeviceId.reply.parse((await detail(operator, ids['DET-X9-2']!)).body).dataObject
          .cpuTemperature === 60,
    );
    expect((await settingsOf(ids['DET-X9-2']!)).listObject.find((r) => r.section === 'language')?.value).toBe(
      'ja_jp',
    );
    expect(
      (await operator.get(`/deviceSetting/listDeviceSetting?deviceId=${ids['OTHER-X9-1']}`)).body,
    ).toMatchObject({ hhtStatus: 'fail', hhtMsg: 'No such device' });
  });

  it('sends only the changed settings to the panel, as SETTINGS of its series', async () => {
    const id = ids['DET-X9-2']!;
    const power = {
      autoPowerOn: true,
      powerOnTime: '07:30',
      powerOnWeek: 'mon_tue_wed_thu_fri',
      energySaving: 'never',
    };
    const reply = deviceDetail.updateDeviceSetting.reply.parse(
      (await change(id, { powerOnOffSetting: power })).body,
    );
    expect(reply.hhtMsg).toBe('Settings sent to the panel');
    const command = await waitFor('SETTINGS at the panel', () =>
      panels['DET-X9-2']!.commands.find((c) => c.id === reply.dataObject.commandId),
    );
    expect(command).toMatchObject({
      order: 'SETTINGS',
      value: { platform: 'x9_vn', platformMsg: { powerOnOffSetting: power } },
    });
    const custom = deviceDetail.updateDeviceSetting.reply.parse(
      (await change(id, { powerOnOffSetting: { energySaving: 3 } })).body,
    );
    expect(custom.hhtStatus).toBe('success');
    // Published in the background: it arrives before the next test counts the panel's commands.
    await waitFor('the custom value at the panel', () =>
      panels['DET-X9-2']!.commands.find((c) => c.id === custom.dataObject.commandId),
    );
  });

  it('refuses bad settings with the spec’s messages and sends nothing', async () => {
    const id = ids['DET-X9-2']!;
    const before = await commandCount(id);
    const refusals: Array<[unknown, string]> = [
      [
        { powerOnOffSetting: { energySaving: 2 } },
        'Energy saving must be at least 3 minutes (a whole number)',
      ],
      [
        { powerOnOffSetting: { energySaving: 2.5 } },
        'Energy saving must be at least 3 minutes (a whole number)',
      ],
      [
        { powerOnOffSetting: { energySaving: 'sometimes' } },
        'Energy saving must be at least 3 minutes (a whole number)',
      ],
      [{ powerOnOffSetting: { energySaving: 2000 } }, 'Energy saving is at most 1440 minutes'],
      [{ powerOnOffSetting: { powerOnTime: '25:00' } }, 'Times are HH:mm'],
      [{ powerOnOffSetting: { powerOffTime: '' } }, 'Times are HH:mm'],
      [
        { powerOnOffSetting: { powerOnWeek: 'mon_mon' } },
        "Weekdays are mon, tue, wed, thu, fri, sat, sun joined by '_'",
      ],
      [
        { powerOnOffSetting: { cecAutoPowerOn: true } },
        'This setting does not exist on panels of this series',
      ],
      [{ favoriteSource: 'hdmi1' }, 'This setting does not exist on panels of this series'],
      [
        { newlineExtension: { x10d: true, x10dSource: 'front' } },
        'A source can serve only one enabled extension feature',
      ],
      [{ bluelightFilter: { filterLevel: 101 } }, 'A setting value is not valid'],
      [{ language: 'xx_yy' }, 'A setting value is not valid'],
      ['{not json', 'A setting value is not valid'],
      [{}, 'Please choose at least one setting to push'],
    ];
    for (const [msg, text] of refusals) {
      const reply = await change(id, msg);
      expect(reply.body, JSON.stringify(msg)).toMatchObject({ hhtStatus: 'fail', hhtMsg: text });
    }
    operator.language = 'zh-CN';
    expect((await change(id, { powerOnOffSetting: { energySaving: 1 } })).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: '节能时间不能少于3分钟（整数）',
    });
    operator.language = 'en-US';

    const oem = ids['DET-OEM-1']!;
    expect((await change(oem, { toolBar: { left: false } })).body).toMatchObject({
      hhtMsg: 'This setting does not exist on panels of this series',
    });
    expect((await change(oem, { inputOutputSetting: { startingSource: 'windows' } })).body).toMatchObject({
      hhtMsg: 'A setting value is not valid',
    });
    expect((await change(ids['DET-QUIET']!, { language: 'de_de' })).body).toMatchObject({
      hhtMsg: 'The panel has not reported its settings yet; wait until it is online',
    });
    expect((await change(ids['OTHER-X9-1']!, { language: 'de_de' })).body).toMatchObject({
      hhtMsg: 'No such device',
    });
    expect(await commandCount(id)).toBe(before);
    expect(await commandCount(ids['OTHER-X9-1']!)).toBe(0);
  });

  it('clones chosen sections of one panel to panels of the same series only', async () => {
    const source = await settingsOf(ids['DET-X9-1']!);
    const chosen = source.listObject.filter((r) => r.section === 'language' || r.section === 'toolBar');
    const clone = (deviceSettingIds: string, deviceIds: string, client = operator) =>
      client.post('/sendData/sendDeviceSettings', { deviceSettingIds, deviceIds });
    const settingIds = chosen.map((r) => r.deviceSettingId).join(',');

    expect((await clone('', String(ids['DET-X9-2']))).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Please choose at least one setting to push',
    });
    expect((await clone(settingIds, '')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Please choose at least one device',
    });
    expect((await clone(settingIds, `${ids['DET-X9-2']},${ids['DET-OEM-1']}`)).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Settings can only be copied to panels of the same series (x9_vn): DET-OEM-1',
    });
    expect((await clone(settingIds, String(ids['OTHER-X9-1']))).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'No such device',
    });
    const foreignSettings = await db()
      .selectFrom('device_settings')
      .select('id')
      .where('device_id', '=', ids['OTHER-X9-1']!)
      .execute();
    expect((await clone(String(foreignSettings[0]!.id), String(ids['DET-X9-2']))).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Please choose at least one setting to push',
    });
    expect((await clone(settingIds, String(ids['DET-X9-2']), otherOperator)).body).toMatchObject({
      hhtStatus: 'fail',
    });

    const before = panels['DET-X9-2']!.commands.length;
    const reply = deviceDetail.sendDeviceSettings.reply.parse(
      (await clone(settingIds, String(ids['DET-X9-2']))).body,
    );
    expect(reply).toMatchObject({ hhtMsg: 'Settings sent to panels: 1', dataObject: { count: 1 } });
    const sent = await waitFor('the clone at the target', () =>
      panels['DET-X9-2']!.commands.slice(before).find((c) => c.order === 'SETTINGS'),
    );
    expect(sent.value).toEqual({
      platform: 'x9_vn',
      platformMsg: { language: 'en_us', toolBar: x9Settings.platformMsg.toolBar },
    });
    const log = await db()
      .selectFrom('operation_logs')
      .select(['action', 'content'])
      .where('action', '=', 'deviceSetting.clone')
      .execute();
    expect(log[0]?.content).toContain('DET-X9-2');
  });

  it('refuses commands with an unknown order, an out-of-range value, for a disabled device or another company’s device, and sends nothing', async () => {
    const id = ids['DET-X9-2']!;
    const send = (deviceId: number, order: string, value?: string, client = operator) =>
      client.post('/sendData/sendCommandByDeviceId', {
        deviceId: String(deviceId),
        order,
        ...(value !== undefined ? { value } : {}),
      });
    const before = await commandCount(id);
    expect((await send(id, '05', '1')).body).toMatchObject({ hhtStatus: 'fail', hhtMsg: 'Unknown order' });
    expect((await send(id, '00', '101')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The value does not fit this order',
    });
    expect((await send(id, '01', '-1')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The value does not fit this order',
    });
    expect((await send(id, '08', 'launch')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The value does not fit this order',
    });
    expect((await send(id, '04', 'hdmi 1')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The value does not fit this order',
    });
    expect(
      (
        await send(
          id,
          'SETTINGS',
          JSON.stringify({ platform: 'x9_vn', platformMsg: { powerOnOffSetting: { energySaving: 1 } } }),
        )
      ).body,
    ).toMatchObject({ hhtStatus: 'fail' });
    expect((await send(ids['OTHER-X9-1']!, '00', '50')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'No such device',
    });
    expect(
      (await otherOperator.post('/sendData/sendPowerUpByDeviceId', { deviceId: String(id) })).body,
    ).toMatchObject({ hhtStatus: 'fail', hhtMsg: 'No such device' });
    expect(await commandCount(id)).toBe(before);

    await db().updateTable('devices').set({ state: 0 }).where('id', '=', id).execute();
    try {
      const disabled = 'This device is disabled; enable it before sending it anything';
      expect((await send(id, '00', '50')).body).toMatchObject({ hhtStatus: 'fail', hhtMsg: disabled });
      expect(
        (await operator.post('/sendData/sendPowerUpByDeviceId', { deviceId: String(id) })).body,
      ).toMatchObject({ hhtStatus: 'fail', hhtMsg: disabled });
      expect((await change(id, { language: 'de_de' })).body).toMatchObject({
        hhtStatus: 'fail',
        hhtMsg: disabled,
      });
      const settingIds = (await settingsOf(ids['DET-X9-1']!)).listObject
        .map((r) => r.deviceSettingId)
        .join(',');
      expect(
        (
          await operator.post('/sendData/sendDeviceSettings', {
            deviceSettingIds: settingIds,
            deviceIds: String(id),
          })
        ).body,
      ).toMatchObject({ hhtMsg: disabled });
      expect(await commandCount(id)).toBe(before);
    } finally {
      await db().updateTable('devices').set({ state: 1 }).where('id', '=', id).execute();
    }
  });
});
