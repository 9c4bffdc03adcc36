import { device, settings, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { operatorClient } from './device-helpers.js';
import { backends, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

/**
 * The setting page's saved settings (spec 2 sections 3-5, 7 and 9): templates per series and
 * source settings per system, series and input; every rule of their content and every bad input
 * refused with its message in both languages, with nothing stored.
 */
describe.each(backends)('setting templates and source settings on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let customer: TestClient;
  let other: TestClient;

  const db = () => server.app.db.kysely;
  const snapshot = async () => ({
    settings: await db().selectFrom('setting_templates').selectAll().orderBy('id').execute(),
    logs: Number(
      (
        await db()
          .selectFrom('operation_logs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });
  const add = (client: TestClient, form: Record<string, string>) =>
    client.post('/deviceSetting/addSetting', form);
  const added = async (client: TestClient, form: Record<string, string>) => {
    const reply = await add(client, form);
    expect(reply.body.hhtStatus, reply.text).toBe('success');
    return settings.addSetting.reply.parse(reply.body);
  };
  const update = (client: TestClient, id: number, json: unknown) =>
    client.post('/deviceSetting/updateSetting', {
      id: String(id),
      jsonData: typeof json === 'string' ? json : JSON.stringify(json),
    });
  const list = async (client: TestClient, query: string) =>
    settings.listSetting.reply.parse((await client.get(`/deviceSetting/listSetting?${query}`)).body);

  /** Refused with `key` in English and Chinese, and nothing stored or logged. */
  async function refused(
    send: (client: TestClient) => Promise<{ status: number; body: Record<string, unknown> }>,
    key: string,
    vars: Record<string, string> = {},
  ) {
    const before = await snapshot();
    const reply = await send(operator);
    expect(reply.body, key).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', key, vars) });
    expect(reply.status).toBeLessThan(500);
    operator.language = 'zh-CN';
    try {
      const zh = await send(operator);
      expect(zh.body.hhtMsg, key).toBe(translate('zh-CN', key, vars));
    } finally {
      operator.language = 'en-US';
    }
    expect(await snapshot()).toEqual(before);
  }

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    operator = await operatorClient(server);
    customer = await operatorClient(server, 'customer1', 'customer123');
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    other = await operatorClient(server, 'b-operator', 'boperator123');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('adds a template of each series saved at once with that series’ defaults, and lists them by type and series', async () => {
    for (const series of device.SERIES) {
      const reply = await added(operator, { type: '0', series });
      expect(reply.id).toBe(reply.dataObject.id);
      expect(reply.hhtMsg).toBe(translate('en-US', 'settingTemplate.added'));
      expect(reply.dataObject).toMatchObject({ type: '0', series, platform: null, sourceType: null });
      const json = device.templateJson.parse(JSON.parse(reply.dataObject.jsonData));
      expect(json).toEqual({ platform: series, platformMsg: device.defaultPlatformMsg(series) });
      // Spec 2 section 9: energy saving 30, power times 00:00, resolution 1920*1080.
      expect(json.platformMsg.powerOnOffSetting).toMatchObject({
        energySaving: 30,
        powerOnTime: '00:00',
        powerOffTime: '00:00',
      });
      expect(json.platformMsg.inputOutputSetting.hdmiOutputResolution).toBe('1920*1080');
      expect(Object.keys(json.platformMsg)).toEqual(device.sectionsOf(series));
    }
    const x9 = JSON.parse(
      (await list(operator, 'type=0&series=x9_vn&start=1&size=10')).listObject[0]!.jsonData,
    );
    expect(x9.platformMsg.bluelightFilter.filterLevel).toBe(12);
    // A second template of a series is another entry of the library.
    await added(customer, { type: '0', series: 'x9_vn' });
    const templates = await list(operator, 'type=0&start=1&size=10');
    expect(templates.totalRecords).toBe(4);
    expect(templates.listObject.map((r) => r.series)).toEqual(['x9_vn', 'oem', 'rs', 'x9_vn']);
    const paged = await list(operator, 'type=0&start=2&size=3');
    expect(paged.listObject.map((r) => r.series)).toEqual(['x9_vn']);
    expect((await list(operator, 'type=0&series=rs')).totalRecords).toBe(1);
    expect((await list(operator, 'type=1')).totalRecords).toBe(0);
    expect((await list(other, 'type=0')).totalRecords).toBe(0);
  });

  it('adds source settings only for inputs the series has, one per system, series and input', async () => {
    const reply = await added(operator, {
      type: '1',
      series: 'x9_vn',
      platform: 'android',
      sourceType: 'hdmi3',
    });
    expect(reply.dataObject).toMatchObject({
      type: '1',
      series: 'x9_vn',
      platform: 'android',
      sourceType: 'hdmi3',
    });
    const json = device.sourceSettingJson.parse(JSON.parse(reply.dataObject.jsonData));
    expect(json.imageSettings.custom).toMatchObject(device.CUSTOM_PICTURE_DEFAULTS);
    expect(device.CUSTOM_PICTURE_DEFAULTS).toEqual({
      brightness: 60,
      contrast: 20,
      hue: 89,
      saturation: 60,
      sharpness: 30,
    });
    await added(operator, { type: '1', series: 'oem', platform: 'noAndroid', sourceType: 'vga' });
    await added(operator, { type: '1', series: 'rs', platform: 'android', sourceType: 'hdmi1' });
    // The same input of another system or series is another setting.
    await added(operator, { type: '1', series: 'x9_vn', platform: 'noAndroid', sourceType: 'hdmi3' });
    const sources = await list(operator, 'type=1&size=50');
    expect(sources.listObject.map((r) => `${r.platform}/${r.series}/${r.sourceType}`)).toEqual([
      'android/x9_vn/hdmi3',
      'noAndroid/oem/vga',
      'android/rs/hdmi1',
      'noAndroid/x9_vn/hdmi3',
    ]);
    await refused(
      (c) => add(c, { type: '1', series: 'x9_vn', platform: 'android', sourceType: 'hdmi3' }),
      'settingTemplate.sourceExists',
    );
  });

  it('refuses an unknown type, series, system or source, and VGA on x9_vn or HDMI3 elsewhere', async () => {
    await refused((c) => add(c, { type: '2', series: 'x9_vn' }), 'settingTemplate.typeInvalid');
    await refused((c) => add(c, { type: '0', series: 'x10' }), 'settingTemplate.seriesInvalid');
    await refused((c) => add(c, { type: '0' }), 'settingTemplate.seriesInvalid');
    await refused(
      (c) => add(c, { type: '1', series: 'oem', sourceType: 'vga' }),
      'settingTemplate.systemInvalid',
    );
    await refused(
      (c) => add(c, { type: '1', series: 'oem', platform: 'windows', sourceType: 'vga' }),
      'settingTemplate.systemInvalid',
    );
    await refused(
      (c) => add(c, { type: '1', series: 'oem', platform: 'android', sourceType: 'svideo' }),
      'settingTemplate.sourceInvalid',
    );
    await refused(
      (c) => add(c, { type: '1', series: 'x9_vn', platform: 'android', sourceType: 'vga' }),
      'settingTemplate.sourceInvalid',
    );
    await refused(
      (c) => add(c, { type: '1', series: 'rs', platform: 'android', sourceType: 'hdmi3' }),
      'settingTemplate.sourceInvalid',
    );
    await refused(
      (c) => add(c, { type: '1', series: 'rs', platform: 'android' }),
      'settingTemplate.sourceInvalid',
    );
  });

  it('adds one source setting when the same one is asked for in parallel', async () => {
    const form = { type: '1', series: 'rs', platform: 'noAndroid', sourceType: 'dp' };
    const replies = await Promise.all(Array.from({ length: 6 }, () => add(operator, form)));
    expect(replies.filter((r) => r.body.hhtStatus === 'success')).toHaveLength(1);
    for (const r of replies.filter((r) => r.body.hhtStatus !== 'success'))
      expect(r.body.hhtMsg).toBe(translate('en-US', 'settingTemplate.sourceExists'));
    const rows = await db()
      .selectFrom('setting_templates')
      .select('id')
      .where('system', '=', 'noAndroid')
      .where('source_type', '=', 'dp')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('saves a template changed in three sections, and the rules of each series', async () => {
    const { id } = await added(operator, { type: '0', series: 'x9_vn' });
    const base = { platform: 'x9_vn', platformMsg: device.defaultPlatformMsg('x9_vn') };
    const changed = {
      platform: 'x9_vn',
      platformMsg: {
        ...base.platformMsg,
        language: 'de_de',
        powerOnOffSetting: {
          ...base.platformMsg.powerOnOffSetting,
          autoPowerOn: true,
          powerOnTime: '07:30',
          powerOnWeek: 'mon_wed_fri',
          energySaving: 3,
        },
        bluelightFilter: { bluelightFilter: true, filterLevel: 40 },
      },
    };
    const reply = await update(operator, id, changed);
    expect(reply.body.hhtStatus, reply.text).toBe('success');
    const stored = settings.updateSetting.reply.parse(reply.body).dataObject;
    expect(JSON.parse(stored.jsonData)).toEqual(changed);
    expect(
      (await list(operator, 'type=0&series=x9_vn&size=50')).listObject.find((r) => r.id === id)?.jsonData,
    ).toBe(stored.jsonData);

    const withPower = (power: object) => ({
      ...changed,
      platformMsg: {
        ...changed.platformMsg,
        powerOnOffSetting: { ...changed.platformMsg.powerOnOffSetting, ...power },
      },
    });
    // Energy saving: at least 3 minutes, a whole number (setting.threeMin); "never" is fine.
    await refused((c) => update(c, id, withPower({ energySaving: 2 })), 'setting.threeMin');
    await refused((c) => update(c, id, withPower({ energySaving: 4.5 })), 'setting.threeMin');
    await refused((c) => update(c, id, withPower({ energySaving: '10' })), 'setting.threeMin');
    expect((await update(operator, id, withPower({ energySaving: 'never' }))).body.hhtStatus).toBe('success');
    await refused((c) => update(c, id, withPower({ powerOnTime: '24:00' })), 'setting.timeInvalid');
    await refused((c) => update(c, id, withPower({ powerOnWeek: 'mon_mon' })), 'setting.weekInvalid');
    // Newline extension: a source serves one enabled feature.
    await refused(
      (c) =>
        update(c, id, {
          ...changed,
          platformMsg: {
            ...changed.platformMsg,
            newlineExtension: {
              ...changed.platformMsg.newlineExtension,
              trucast: true,
              x10d: true,
              x10dSource: 'front',
            },
          },
        }),
      'setting.sourceTaken',
    );
    // Not JSON, not this series, a changed series, a missing section, an extra one.
    await refused((c) => update(c, id, '{"platform":'), 'settingTemplate.jsonInvalid');
    await refused((c) => update(c, id, '[1,2]'), 'settingTemplate.jsonInvalid');
    await refused(
      (c) => update(c, id, { platform: 'oem', platformMsg: device.defaultPlatformMsg('oem') }),
      'settingTemplate.identityChanged',
    );
    await refused(
      (c) => update(c, id, { platform: 'x9_vn', platformMsg: device.defaultPlatformMsg('oem') }),
      'setting.notForSeries',
    );
    const { cameraSetting: _camera, ...withoutCamera } = changed.platformMsg;
    await refused(
      (c) => update(c, id, { platform: 'x9_vn', platformMsg: withoutCamera }),
      'setting.valueInvalid',
    );
    await refused((c) => update(c, id, { ...changed, extra: 1 }), 'setting.notForSeries');

    const oem = await added(operator, { type: '0', series: 'oem' });
    const oemJson = { platform: 'oem', platformMsg: device.defaultPlatformMsg('oem') };
    await refused(
      (c) =>
        update(c, oem.id, {
          ...oemJson,
          platformMsg: { ...oemJson.platformMsg, toolBar: base.platformMsg.toolBar },
        }),
      'setting.notForSeries',
    );
    // Starting source windows is hidden for oem; the gadget icon does not exist on rs.
    await refused(
      (c) =>
        update(c, oem.id, {
          ...oemJson,
          platformMsg: {
            ...oemJson.platformMsg,
            inputOutputSetting: { ...oemJson.platformMsg.inputOutputSetting, startingSource: 'windows' },
          },
        }),
      'setting.valueInvalid',
    );
    const rs = await added(operator, { type: '0', series: 'rs' });
    const rsJson = { platform: 'rs', platformMsg: device.defaultPlatformMsg('rs') };
    await refused(
      (c) =>
        update(c, rs.id, {
          ...rsJson,
          platformMsg: {
            ...rsJson.platformMsg,
            toolBar: { ...rsJson.platformMsg.toolBar, customizedIcon: 'gadget' },
          },
        }),
      'setting.valueInvalid',
    );
    expect(
      (
        await update(operator, rs.id, {
          ...rsJson,
          platformMsg: {
            ...rsJson.platformMsg,
            inputOutputSetting: { ...rsJson.platformMsg.inputOutputSetting, startingSource: 'windows' },
          },
        })
      ).body.hhtStatus,
    ).toBe('success');
  });

  it('saves a custom picture of a source setting; values out of range or another input are refused', async () => {
    const { id, dataObject } = await added(operator, {
      type: '1',
      series: 'x9_vn',
      platform: 'android',
      sourceType: 'front',
    });
    const json = device.sourceSettingJson.parse(JSON.parse(dataObject.jsonData));
    const custom: device.SourceSettingJson = {
      ...json,
      pictureModeType: 'custom',
      imageSettings: {
        ...json.imageSettings,
        custom: { colorTemp: '2', brightness: 70, contrast: 35, hue: 45, saturation: 55, sharpness: 10 },
      },
      displaySettings: { aspectRatio: '4:3', colorRange: '0~255' },
    };
    const reply = await update(operator, id, custom);
    expect(reply.body.hhtStatus, reply.text).toBe('success');
    expect(JSON.parse(settings.updateSetting.reply.parse(reply.body).dataObject.jsonData)).toEqual(custom);

    const withCustom = (levels: object) => ({
      ...custom,
      imageSettings: { ...custom.imageSettings, custom: { ...custom.imageSettings.custom, ...levels } },
    });
    await refused((c) => update(c, id, withCustom({ brightness: 101 })), 'setting.valueInvalid');
    await refused((c) => update(c, id, withCustom({ hue: -1 })), 'setting.valueInvalid');
    await refused((c) => update(c, id, withCustom({ contrast: 20.5 })), 'setting.valueInvalid');
    await refused((c) => update(c, id, withCustom({ colorTemp: '3' })), 'setting.valueInvalid');
    await refused((c) => update(c, id, { ...custom, pictureModeType: 'cinema' }), 'setting.valueInvalid');
    await refused(
      (c) => update(c, id, { ...custom, displaySettings: { aspectRatio: '21:9', colorRange: 'auto' } }),
      'setting.valueInvalid',
    );
    await refused(
      (c) => update(c, id, { ...custom, sourceType: 'hdmi1' }),
      'settingTemplate.identityChanged',
    );
    await refused(
      (c) => update(c, id, { ...custom, platform: 'noAndroid' }),
      'settingTemplate.identityChanged',
    );
    // A fixed mode's levels are not stored: they are the spec's fixed values.
    await refused(
      (c) =>
        update(c, id, {
          ...custom,
          imageSettings: { ...custom.imageSettings, vivid: { colorTemp: '1', brightness: 10 } },
        }),
      'setting.notForSeries',
    );
  });

  it('deletes a setting; another company’s settings read as ones that do not exist', async () => {
    const { id } = await added(operator, { type: '0', series: 'rs' });
    const foreign = await added(other, { type: '0', series: 'rs' });
    const json = JSON.stringify({ platform: 'rs', platformMsg: device.defaultPlatformMsg('rs') });
    await refused((c) => update(c, foreign.id, json), 'settingTemplate.notFound');
    await refused(
      (c) => c.post('/deviceSetting/deleteSetting', { id: String(foreign.id) }),
      'settingTemplate.notFound',
    );
    await refused((c) => c.post('/deviceSetting/deleteSetting', { id: 'abc' }), 'settingTemplate.notFound');
    const reply = await operator.post('/deviceSetting/deleteSetting', { id: String(id) });
    expect(reply.body).toMatchObject({
      hhtStatus: 'success',
      hhtMsg: translate('en-US', 'settingTemplate.deleted'),
    });
    await refused(
      (c) => c.post('/deviceSetting/deleteSetting', { id: String(id) }),
      'settingTemplate.notFound',
    );
    expect((await list(other, 'type=0')).listObject.map((r) => r.id)).toEqual([foreign.id]);
    const logged = await db()
      .selectFrom('operation_logs')
      .select('action')
      .where('org_id', '=', server.accounts.customerId)
      .where('action', 'like', 'settingTemplate.%')
      .execute();
    expect(new Set(logged.map((l) => l.action))).toEqual(
      new Set(['settingTemplate.add', 'settingTemplate.update', 'settingTemplate.delete']),
    );
  });
});
