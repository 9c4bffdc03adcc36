import { device, deviceDetail, settings, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  operatorClient,
  waitFor,
  x9Settings,
} from './device-helpers.js';
import { contentOf } from '../src/modules/operation-log/repository.js';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';

/**
 * Pushing saved settings to simulated panels (spec 2 section 4, issue 14): a push is a SETTINGS
 * command per panel with a life; per-panel results (applied, refused, offline then applied,
 * expired) read back; panels of another series or system refused before anything is sent.
 * The fleet: SP-00001 oem, 00002 rs, 00003 x9_vn, 00004 oem, 00005 rs, 00006 x9_vn.
 */
describe.each(backends)('pushing settings to panels on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let fleet: Fleet;
  const ids: Record<string, number> = {};
  const panel = (key: string) => fleet.panels.find((p) => p.serial === key)!;

  const db = () => server.app.db.kysely;
  const counts = async () => ({
    commands: Number(
      (
        await db()
          .selectFrom('commands')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    pushes: Number(
      (
        await db()
          .selectFrom('setting_pushes')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });
  const added = async (form: Record<string, string>) =>
    settings.addSetting.reply.parse((await operator.post('/deviceSetting/addSetting', form)).body).dataObject;
  const saved = async (id: number, json: unknown) => {
    const reply = await operator.post('/deviceSetting/updateSetting', {
      id: String(id),
      jsonData: JSON.stringify(json),
    });
    expect(reply.body.hhtStatus, reply.text).toBe('success');
  };
  const pushOf = (reply: { body: Record<string, unknown>; text: string }) => {
    expect(reply.body.hhtStatus, reply.text).toBe('success');
    return settings.sendSetting.reply.parse(reply.body).dataObject;
  };
  const send = (path: string, id: number, keys: string[]) =>
    operator.post(path, { id: String(id), deviceIds: keys.map((k) => ids[k]).join(',') });
  const results = async (pushId: number) =>
    settings.selectSettingPush.reply.parse(
      (await operator.get(`/sendData/selectSettingPush?pushId=${pushId}&start=1&size=50`)).body,
    );
  const settled = (pushId: number, expected: Partial<Record<settings.PushResult, number>>) =>
    waitFor(`push ${pushId} at ${JSON.stringify(expected)}`, async () => {
      const r = await results(pushId);
      return Object.entries(expected).every(([k, n]) => r.counts[k as settings.PushResult] === n)
        ? r
        : undefined;
    });
  const reportedSections = async (key: string) =>
    Object.fromEntries(
      deviceDetail.listDeviceSetting.reply
        .parse((await operator.get(`/deviceSetting/listDeviceSetting?deviceId=${ids[key]}`)).body)
        .listObject.map((r) => [r.section, r.value]),
    );
  const reportedPictures = async (key: string) =>
    settings.listDeviceSourceSetting.reply.parse(
      (await operator.get(`/deviceSetting/listDeviceSourceSetting?deviceId=${ids[key]}`)).body,
    );
  async function refusedWith(send: () => Promise<{ body: Record<string, unknown> }>, key: string, vars = {}) {
    const before = await counts();
    const reply = await send();
    expect(reply.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', key, vars) });
    expect(await counts()).toEqual(before);
  }

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      {
        throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
        commandTimings: { retryMs: 1000, tickMs: 100 },
      },
    );
    operator = await operatorClient(server);
    fleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(operator),
      count: 6,
      prefix: 'SP',
      telemetryMs: 600_000,
      abnormalLogChance: 0,
      log: () => undefined,
    });
    for (const row of await db().selectFrom('devices').select(['id', 'device_key']).execute())
      ids[row.device_key] = row.id;
    await waitFor('every picture report', async () => {
      const rows = await db().selectFrom('device_pictures').select('device_id').execute();
      return rows.length === 6;
    });
  });
  afterAll(async () => {
    await fleet?.stop();
    await server?.stop();
  });

  it('pushes an x9_vn template changed in three sections to its panels, which apply and report it', async () => {
    const template = await added({ type: '0', series: 'x9_vn' });
    const json = device.templateJson.parse(JSON.parse(template.jsonData)) as {
      platform: 'x9_vn';
      platformMsg: device.X9Settings;
    };
    const msg = {
      ...json.platformMsg,
      language: 'fr_fr' as const,
      powerOnOffSetting: {
        ...json.platformMsg.powerOnOffSetting,
        autoPowerOff: true,
        powerOffTime: '22:15',
        powerOffWeek: 'sat_sun',
        energySaving: 'never' as const,
      },
      toolBar: { ...json.platformMsg.toolBar, right: false, customizedIcon: 'gadget' as const },
    };
    await saved(template.id, { platform: 'x9_vn', platformMsg: msg });
    const push = pushOf(await send('/sendData/sendSetting', template.id, ['SP-00003', 'SP-00006']));
    expect(push.count).toBe(2);
    const done = await settled(push.pushId, { applied: 2 });
    expect(done.listObject.map((r) => [r.deviceKey, r.result, r.what, r.settingId])).toEqual([
      ['SP-00003', 'applied', 'x9_vn', template.id],
      ['SP-00006', 'applied', 'x9_vn', template.id],
    ]);
    expect(done.expiresAt).toBeGreaterThan(server.clock.now() + settings.SETTING_PUSH_TTL_MS - 60_000);
    for (const key of ['SP-00003', 'SP-00006']) {
      expect(panel(key).settings.platformMsg).toEqual(msg);
      await waitFor(`${key} reported`, async () => (await reportedSections(key)).language === 'fr_fr');
      expect(await reportedSections(key)).toMatchObject({
        powerOnOffSetting: msg.powerOnOffSetting,
        toolBar: msg.toolBar,
      });
    }
    // The feedback log lists them, and the push left one operation-log row.
    const log = await operator.get('/platform/feedback/listFeedbackInfo?start=1&size=50');
    const rows = (log.body.listObject as Array<{ type: string; status: string; deviceName: string }>).filter(
      (r) => r.type === 'SETTINGS',
    );
    expect(rows.filter((r) => r.status === 'success').length).toBeGreaterThanOrEqual(2);
    const logged = await db()
      .selectFrom('operation_logs')
      .select(['action', 'content'])
      .where('action', '=', 'settingTemplate.push.template')
      .execute();
    expect(logged).toHaveLength(1);
    expect(logged[0]!.content).toContain('SP-00003');
  });

  it('refuses a template for panels of another series, naming them, before anything is sent', async () => {
    const template = await added({ type: '0', series: 'x9_vn' });
    const before = panel('SP-00001').executed.length;
    await refusedWith(
      () => send('/sendData/sendSetting', template.id, ['SP-00003', 'SP-00001']),
      'settingTemplate.seriesMismatch',
      {
        series: 'x9_vn',
        names: 'SP-00001 (oem)',
      },
    );
    operator.language = 'zh-CN';
    const zh = await send('/sendData/sendSetting', template.id, ['SP-00001']);
    operator.language = 'en-US';
    expect(zh.body.hhtMsg).toBe(
      translate('zh-CN', 'settingTemplate.seriesMismatch', { series: 'x9_vn', names: 'SP-00001 (oem)' }),
    );
    expect(panel('SP-00001').executed.length).toBe(before);
    // A source setting is not a template: each call takes its own kind.
    const source = await added({ type: '1', series: 'x9_vn', platform: 'android', sourceType: 'hdmi1' });
    await refusedWith(
      () => send('/sendData/sendSetting', source.id, ['SP-00003']),
      'settingTemplate.notFound',
    );
    await refusedWith(
      () => send('/sendData/sendSourceSetting', template.id, ['SP-00003']),
      'settingTemplate.notFound',
    );
    // No panel, an unknown panel, a disabled one.
    await refusedWith(
      () => operator.post('/sendData/sendSetting', { id: String(template.id), deviceIds: '' }),
      'setting.chooseDevice',
    );
    await refusedWith(
      () => operator.post('/sendData/sendSetting', { id: String(template.id) }),
      'setting.chooseDevice',
    );
    await refusedWith(
      () => operator.post('/sendData/sendSetting', { id: String(template.id), deviceIds: '987654' }),
      'device.notFound',
    );
    await db().updateTable('devices').set({ state: 0 }).where('id', '=', ids['SP-00006']!).execute();
    try {
      await refusedWith(
        () => send('/sendData/sendSetting', template.id, ['SP-00003', 'SP-00006']),
        'device.disabled',
      );
    } finally {
      await db().updateTable('devices').set({ state: 1 }).where('id', '=', ids['SP-00006']!).execute();
    }
  });

  it('pushes a source setting with a custom picture, which the panels apply to that input and report', async () => {
    const source = await added({ type: '1', series: 'x9_vn', platform: 'android', sourceType: 'hdmi2' });
    const json = device.sourceSettingJson.parse(JSON.parse(source.jsonData));
    const custom = {
      ...json,
      pictureModeType: 'custom' as const,
      imageSettings: {
        ...json.imageSettings,
        custom: {
          colorTemp: '0' as const,
          brightness: 77,
          contrast: 33,
          hue: 44,
          saturation: 66,
          sharpness: 11,
        },
      },
      displaySettings: { aspectRatio: 'p2p' as const, colorRange: '16~235' as const },
    };
    await saved(source.id, custom);
    const push = pushOf(await send('/sendData/sendSourceSetting', source.id, ['SP-00003', 'SP-00006']));
    await settled(push.pushId, { applied: 2 });
    const { platform: _system, sourceType: _input, ...picture } = custom;
    for (const key of ['SP-00003', 'SP-00006']) {
      expect(panel(key).settings.pictureSettings?.hdmi2).toEqual(picture);
      // The other inputs keep their pictures.
      expect(panel(key).settings.pictureSettings?.front).toEqual(device.defaultPictureSetting());
      const reported = await waitFor(`${key} picture`, async () => {
        const r = await reportedPictures(key);
        return r.listObject.find((p) => p.sourceType === 'hdmi2')?.picture.pictureModeType === 'custom'
          ? r
          : undefined;
      });
      expect(reported).toMatchObject({ series: 'x9_vn', system: 'android' });
      expect(reported.listObject.find((p) => p.sourceType === 'hdmi2')?.picture).toEqual(picture);
      expect(reported.listObject.map((p) => p.sourceType)).toEqual(device.sourceTypesOf('x9_vn'));
    }
  });

  it('refuses a source setting for panels that report another system', async () => {
    // The simulated oem panels run without Android.
    const source = await added({ type: '1', series: 'oem', platform: 'android', sourceType: 'vga' });
    await refusedWith(
      () => send('/sendData/sendSourceSetting', source.id, ['SP-00001', 'SP-00004']),
      'settingTemplate.systemMismatch',
      {
        system: 'android',
        names: 'SP-00001 (oem), SP-00004 (oem)',
      },
    );
    const right = await added({ type: '1', series: 'oem', platform: 'noAndroid', sourceType: 'vga' });
    const push = pushOf(await send('/sendData/sendSourceSetting', right.id, ['SP-00001']));
    await settled(push.pushId, { applied: 1 });
    expect(panel('SP-00001').settings.pictureSettings?.vga).toBeDefined();
  });

  it('pushes chosen templates and source settings to one panel from its detail, templates first', async () => {
    const rsTemplate = await added({ type: '0', series: 'rs' });
    const rsJson = { platform: 'rs', platformMsg: { ...device.defaultPlatformMsg('rs'), language: 'ja_jp' } };
    await saved(rsTemplate.id, rsJson);
    const rsSource = await added({ type: '1', series: 'rs', platform: 'android', sourceType: 'pc' });
    const reply = await operator.post('/sendData/sendSettingsToDevice', {
      deviceId: String(ids['SP-00002']),
      ids: `${rsSource.id},${rsTemplate.id}`,
    });
    const push = pushOf(reply);
    expect(push.count).toBe(2);
    const done = await settled(push.pushId, { applied: 2 });
    expect(done.listObject.map((r) => r.what).sort()).toEqual(['pc', 'rs']);
    const executed = panel('SP-00002')
      .executed.filter((c) => c.order === 'SETTINGS')
      .slice(-2);
    expect(executed.map((c) => (c.value as device.SettingsChange).platformMsg !== undefined)).toEqual([
      true,
      false,
    ]);
    expect(panel('SP-00002').settings.platformMsg.language).toBe('ja_jp');

    const x9Template = await added({ type: '0', series: 'x9_vn' });
    await refusedWith(
      () =>
        operator.post('/sendData/sendSettingsToDevice', {
          deviceId: String(ids['SP-00002']),
          ids: `${rsTemplate.id},${x9Template.id}`,
        }),
      'settingTemplate.seriesMismatch',
      { series: 'x9_vn', names: 'SP-00002 (rs)' },
    );
    await refusedWith(
      () => operator.post('/sendData/sendSettingsToDevice', { deviceId: String(ids['SP-00002']), ids: '' }),
      'deviceManage.selectSettingToPush',
    );
    await refusedWith(
      () =>
        operator.post('/sendData/sendSettingsToDevice', { deviceId: String(ids['SP-00002']), ids: '987654' }),
      'settingTemplate.notFound',
    );
  });

  it('sends a custom picture of one input from the device detail', async () => {
    const picture = {
      ...device.defaultPictureSetting(),
      pictureModeType: 'vivid' as const,
      imageSettings: { ...device.defaultPictureSetting().imageSettings, vivid: { colorTemp: '2' as const } },
    };
    const send = (sourceType: string, jsonData: string, key = 'SP-00005') =>
      operator.post('/deviceSetting/updateDeviceSourceSetting', {
        deviceId: String(ids[key]),
        sourceType,
        jsonData,
      });
    const push = pushOf(await send('front', JSON.stringify(picture)));
    const done = await settled(push.pushId, { applied: 1 });
    expect(done.listObject[0]).toMatchObject({ deviceKey: 'SP-00005', what: 'front', settingId: null });
    expect(panel('SP-00005').settings.pictureSettings?.front).toEqual(picture);
    await refusedWith(() => send('hdmi3', JSON.stringify(picture)), 'settingTemplate.sourceInvalid');
    await refusedWith(() => send('svideo', JSON.stringify(picture)), 'settingTemplate.sourceInvalid');
    await refusedWith(() => send('front', '{'), 'settingTemplate.jsonInvalid');
    await refusedWith(
      () => send('front', JSON.stringify({ ...picture, pictureModeType: 'hdr' })),
      'setting.valueInvalid',
    );
    await refusedWith(() => send('front', JSON.stringify(picture), 'NOPE'), 'device.notFound');
  });

  it('says when a panel refused, and gives a panel that was off the push when it comes back', async () => {
    // A panel written from the protocol alone that reports no system and refuses what it gets.
    const creds = await enroll(server.url, 'SP-BARE-1', await enrollmentSecretOf(operator));
    const bare = await connectBare(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, creds, {
      autoAck: false,
    });
    await bare.client.publishAsync(
      'pf/v1/d/SP-BARE-1/state',
      JSON.stringify({ v: 1, machineType: 'x9_vn' }),
      { qos: 1 },
    );
    await bare.client.publishAsync('pf/v1/d/SP-BARE-1/settings', JSON.stringify(x9Settings), { qos: 1 });
    const bareRow = await waitFor('bare panel', () =>
      db()
        .selectFrom('devices')
        .select(['id', 'machine_type'])
        .where('device_key', '=', 'SP-BARE-1')
        .executeTakeFirst(),
    );
    ids['SP-BARE-1'] = bareRow.id;
    await waitFor(
      'its series',
      async () =>
        (
          await db()
            .selectFrom('devices')
            .select('machine_type')
            .where('id', '=', bareRow.id)
            .executeTakeFirstOrThrow()
        ).machine_type === 'x9_vn',
    );
    const source = await added({ type: '1', series: 'x9_vn', platform: 'noAndroid', sourceType: 'dp' });
    const refusedPush = pushOf(await send('/sendData/sendSourceSetting', source.id, ['SP-BARE-1']));
    const cmd = await waitFor('the command', () => bare.commands.find((c) => c.order === 'SETTINGS'));
    expect(cmd.value).toMatchObject({ platform: 'x9_vn', system: 'noAndroid', pictureSettings: { dp: {} } });
    await bare.client.publishAsync(
      'pf/v1/d/SP-BARE-1/ack',
      JSON.stringify({ v: 1, id: cmd.id, result: 'failed', detail: 'unsupported' }),
      { qos: 0 },
    );
    const refused = await settled(refusedPush.pushId, { refused: 1 });
    expect(refused.listObject[0]).toMatchObject({
      result: 'refused',
      detail: 'unsupported',
      status: 'failed',
    });
    await bare.close();

    // SP-00006 is off during the push: offline, then applied when it is back.
    const template = await added({ type: '0', series: 'x9_vn' });
    const json = {
      platform: 'x9_vn',
      platformMsg: { ...device.defaultPlatformMsg('x9_vn'), language: 'it_it' },
    };
    await saved(template.id, json);
    await panel('SP-00006').powerOff();
    await waitFor('SP-00006 offline', () => !server.app.devices.gateway.isOnline('SP-00006'));
    const push = pushOf(await send('/sendData/sendSetting', template.id, ['SP-00003', 'SP-00006']));
    const waiting = await settled(push.pushId, { applied: 1, offline: 1 });
    expect(waiting.listObject.find((r) => r.deviceKey === 'SP-00006')).toMatchObject({
      result: 'offline',
      status: 'queued',
    });
    await panel('SP-00006').powerOn();
    await settled(push.pushId, { applied: 1, offlineApplied: 1 });
    expect(panel('SP-00006').settings.platformMsg.language).toBe('it_it');
  });

  it('stops a push for the panels that are still off; those that took it keep it', async () => {
    const template = await added({ type: '0', series: 'rs' });
    await saved(template.id, {
      platform: 'rs',
      platformMsg: { ...device.defaultPlatformMsg('rs'), language: 'nl' },
    });
    await panel('SP-00005').powerOff();
    await waitFor('SP-00005 offline', () => !server.app.devices.gateway.isOnline('SP-00005'));
    const push = pushOf(await send('/sendData/sendSetting', template.id, ['SP-00002', 'SP-00005']));
    await settled(push.pushId, { applied: 1, offline: 1 });
    const reply = await operator.post('/sendData/cancelSettingPush', { pushId: String(push.pushId) });
    expect(reply.body).toMatchObject({
      hhtStatus: 'success',
      hhtMsg: translate('en-US', 'settingTemplate.cancelled', { count: 1 }),
      dataObject: { cancelled: 1 },
    });
    const after = await settled(push.pushId, { applied: 1, cancelled: 1 });
    expect(after.listObject.find((r) => r.deviceKey === 'SP-00005')).toMatchObject({
      result: 'cancelled',
      detail: 'cancelled',
    });
    // Nothing is left to stop; the panel that comes back does not get it.
    expect(
      (await operator.post('/sendData/cancelSettingPush', { pushId: String(push.pushId) })).body,
    ).toMatchObject({
      dataObject: { cancelled: 0 },
    });
    const before = panel('SP-00005').executed.filter((c) => c.order === 'SETTINGS').length;
    await panel('SP-00005').powerOn();
    await waitFor('SP-00005 online', () => server.app.devices.gateway.isReady('SP-00005'));
    await new Promise((r) => setTimeout(r, 300));
    expect(panel('SP-00005').executed.filter((c) => c.order === 'SETTINGS').length).toBe(before);
    expect(panel('SP-00002').settings.platformMsg.language).toBe('nl');
    expect(panel('SP-00005').settings.platformMsg.language).not.toBe('nl');
    const log = await db()
      .selectFrom('operation_logs')
      .select(['content', 'detail'])
      .where('action', '=', 'settingTemplate.push.cancel')
      .orderBy('id')
      .execute();
    expect(log.map((l) => contentOf(l, 'en-US').content)).toEqual([
      `Push ${push.pushId} stopped for the panels it had not reached: 1`,
      `Push ${push.pushId} stopped for the panels it had not reached: 0`,
    ]);
    await refusedWith(
      () => operator.post('/sendData/cancelSettingPush', { pushId: '987654' }),
      'settingTemplate.pushNotFound',
    );
  });

  it('expires a push for a panel that does not come back within 24 hours', async () => {
    const template = await added({ type: '0', series: 'x9_vn' });
    await panel('SP-00003').powerOff();
    await waitFor('SP-00003 offline', () => !server.app.devices.gateway.isOnline('SP-00003'));
    const push = pushOf(await send('/sendData/sendSetting', template.id, ['SP-00003']));
    await settled(push.pushId, { offline: 1 });
    server.clock.advance(settings.SETTING_PUSH_TTL_MS + 1000);
    operator = await operatorClient(server);
    const expired = await settled(push.pushId, { expired: 1 });
    expect(expired.listObject[0]).toMatchObject({ result: 'expired', status: 'expired' });
    await panel('SP-00003').powerOn();
    const before = panel('SP-00003').executed.filter((c) => c.order === 'SETTINGS').length;
    await waitFor('SP-00003 online', () => server.app.devices.gateway.isReady('SP-00003'));
    await new Promise((r) => setTimeout(r, 300));
    expect(panel('SP-00003').executed.filter((c) => c.order === 'SETTINGS').length).toBe(before);
  });

  it('answers another company’s push and unknown ones alike', async () => {
    const reply = await operator.get('/sendData/selectSettingPush?pushId=987654');
    expect(reply.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'settingTemplate.pushNotFound'),
    });
  });
});
