import { device, deviceDetail } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestClient, type TestServer } from '../../server/test/harness.js';
import { enrollmentSecretOf, operatorClient, waitFor } from '../../server/test/device-helpers.js';
import { startFleet, type Fleet } from './fleet.js';
import { applySettings, factorySettings, scheduledAction } from './settings.js';

describe('panel settings and power schedule', () => {
  it('reports valid factory settings for every series', () => {
    for (const series of device.SERIES)
      expect(device.settingsReport.safeParse(factorySettings(series)).success).toBe(true);
  });

  it('applies a change of its own series and refuses one that does not fit', () => {
    const x9 = factorySettings('x9_vn');
    const next = applySettings(x9, {
      platform: 'x9_vn',
      platformMsg: { powerOnOffSetting: { autoPowerOff: true, powerOffTime: '18:00' } },
    });
    expect(next?.platformMsg.powerOnOffSetting).toMatchObject({
      autoPowerOff: true,
      powerOffTime: '18:00',
      autoPowerOn: false,
    });
    expect(applySettings(x9, { platform: 'oem', platformMsg: { language: 'de_de' } })).toBeUndefined();
    expect(
      applySettings(x9, {
        platform: 'x9_vn',
        platformMsg: { newlineExtension: { trucast: true, x10d: true, x10dSource: 'front' } },
      }),
    ).toBeUndefined();
  });

  it('reports a picture for every input of its series and a system; replaces the pictures a change names', () => {
    const x9 = factorySettings('x9_vn');
    expect(Object.keys(x9.pictureSettings ?? {})).toEqual(['front', 'hdmi1', 'hdmi2', 'hdmi3', 'pc', 'dp']);
    expect(Object.keys(factorySettings('oem').pictureSettings ?? {})).toContain('vga');
    expect(factorySettings('oem').system).toBe('noAndroid');
    const custom: device.PictureSetting = {
      ...device.defaultPictureSetting(),
      pictureModeType: 'custom',
      imageSettings: {
        ...device.defaultPictureSetting().imageSettings,
        custom: { colorTemp: '2', brightness: 10, contrast: 20, hue: 30, saturation: 40, sharpness: 50 },
      },
    };
    const next = applySettings(x9, {
      platform: 'x9_vn',
      system: 'android',
      pictureSettings: { hdmi1: custom },
    });
    expect(next?.pictureSettings?.hdmi1).toEqual(custom);
    expect(next?.pictureSettings?.front).toEqual(x9.pictureSettings?.front);
    expect(next?.platformMsg).toEqual(x9.platformMsg);
    // Another system, or an input the series lacks: unsupported.
    expect(
      applySettings(x9, { platform: 'x9_vn', system: 'noAndroid', pictureSettings: { hdmi1: custom } }),
    ).toBeUndefined();
    expect(
      applySettings(x9, {
        platform: 'x9_vn',
        pictureSettings: { vga: custom },
      } as unknown as device.SettingsChange),
    ).toBeUndefined();
  });

  it('powers off and on at the scheduled local times on the chosen weekdays only, once per minute', () => {
    const power = {
      ...factorySettings('rs').platformMsg.powerOnOffSetting,
      autoPowerOn: true,
      powerOnTime: '07:30',
      powerOnWeek: 'mon_tue',
      autoPowerOff: true,
      powerOffTime: '18:00',
      powerOffWeek: 'mon',
    };
    const monday = (h: number, m: number) => new Date(2026, 10, 23, h, m, 5);
    const running = { running: true, screenOn: true, lastActivityAt: monday(17, 59).getTime() };
    const off = { ...running, running: false };
    expect(monday(18, 0).getDay()).toBe(1);
    expect(scheduledAction(power, running, monday(18, 0), undefined)).toBe('powerOff');
    expect(scheduledAction(power, running, monday(18, 1), undefined)).toBeUndefined();
    expect(scheduledAction(power, off, monday(18, 0), undefined)).toBeUndefined();
    expect(scheduledAction(power, off, monday(7, 30), undefined)).toBe('powerOn');
    expect(
      scheduledAction(power, off, monday(7, 30), `${monday(7, 30).toDateString()} 07:30`),
    ).toBeUndefined();
    const wednesday = new Date(2026, 10, 25, 7, 30);
    expect(scheduledAction(power, off, wednesday, undefined)).toBeUndefined();
    expect(scheduledAction({ ...power, autoPowerOn: false }, off, monday(7, 30), undefined)).toBeUndefined();
  });

  it('goes to standby after the energy-saving minutes without activity, never with "never"', () => {
    const power = { ...factorySettings('x9_vn').platformMsg.powerOnOffSetting, energySaving: 3 as const };
    const at = new Date(2026, 10, 23, 12, 0);
    const state = (idleMs: number, screenOn = true) => ({
      running: true,
      screenOn,
      lastActivityAt: at.getTime() - idleMs,
    });
    expect(scheduledAction(power, state(179_000), at, undefined)).toBeUndefined();
    expect(scheduledAction(power, state(180_000), at, undefined)).toBe('standby');
    expect(scheduledAction(power, state(180_000, false), at, undefined)).toBeUndefined();
    expect(
      scheduledAction({ ...power, energySaving: 'never' }, state(86_400_000), at, undefined),
    ).toBeUndefined();
  });
});

describe('simulated panels with the server: settings and app uninstall', () => {
  let server: TestServer;
  let operator: TestClient;
  let fleet: Fleet;
  const deviceIdOf = async (key: string) =>
    (
      await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', key)
        .executeTakeFirstOrThrow()
    ).id;
  const settingsOf = async (id: number) =>
    deviceDetail.listDeviceSetting.reply.parse(
      (await operator.get(`/deviceSetting/listDeviceSetting?deviceId=${id}`)).body,
    );

  beforeAll(async () => {
    server = await startServer('sqlite');
    operator = await operatorClient(server);
    fleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(operator),
      count: 6,
      prefix: 'SET',
      telemetryMs: 500,
      restartDelayMs: 300,
      abnormalLogChance: 0,
      log: () => undefined,
    });
  });
  afterAll(async () => {
    await fleet.stop();
    await server.stop();
  });

  it('reports its settings, applies a power schedule and energy saving sent from the console, and reports them back', async () => {
    const panel = fleet.panels[0]!; // index 1: machine type oem
    const id = await deviceIdOf(panel.serial);
    const first = await waitFor('the settings report', async () =>
      (await settingsOf(id)).platform === 'oem' ? settingsOf(id) : undefined,
    );
    expect(first.listObject.map((r) => r.section)).toEqual([
      'language',
      'powerOnOffSetting',
      'inputOutputSetting',
    ]);

    const power = {
      autoPowerOn: true,
      powerOnTime: '06:45',
      powerOnWeek: 'mon_wed_fri',
      autoPowerOff: true,
      powerOffTime: '22:15',
      powerOffWeek: 'sat_sun',
      energySaving: 45,
    };
    const sent = await operator.post('/deviceSetting/updateDeviceSetting', {
      deviceId: String(id),
      jsonData: JSON.stringify({ powerOnOffSetting: power }),
    });
    expect(sent.body.hhtStatus).toBe('success');
    const reported = await waitFor('the applied schedule reported back', async () => {
      const row = (await settingsOf(id)).listObject.find((r) => r.section === 'powerOnOffSetting');
      return (row?.value as { powerOnTime?: string } | undefined)?.powerOnTime === '06:45' ? row : undefined;
    });
    expect(reported.value).toEqual({ ...power, cecAutoPowerOn: true, cecAutoPowerOff: false });
    expect(panel.settings.platformMsg.powerOnOffSetting).toMatchObject(power);
  });

  it('copies settings to another panel of the same series, which applies and reports them', async () => {
    const [source, target] = [fleet.panels[2]!, fleet.panels[1]!]; // indexes 3 and 2: x9_vn and rs
    const x9Target = fleet.panels.find((p, i) => i !== 2 && p.state.machineType === 'x9_vn');
    const sourceId = await deviceIdOf(source.serial);
    await waitFor('source settings', async () => (await settingsOf(sourceId)).listObject.length === 7);
    const changed = await operator.post('/deviceSetting/updateDeviceSetting', {
      deviceId: String(sourceId),
      jsonData: JSON.stringify({
        language: 'ko_kr',
        bluelightFilter: { bluelightFilter: true, filterLevel: 40 },
      }),
    });
    expect(changed.body.hhtStatus).toBe('success');
    const rows = await waitFor('the change reported', async () => {
      const s = await settingsOf(sourceId);
      return s.listObject.find((r) => r.section === 'language')?.value === 'ko_kr' ? s.listObject : undefined;
    });
    const chosen = rows
      .filter((r) => r.section === 'language' || r.section === 'bluelightFilter')
      .map((r) => r.deviceSettingId)
      .join(',');
    const mismatch = await operator.post('/sendData/sendDeviceSettings', {
      deviceSettingIds: chosen,
      deviceIds: String(await deviceIdOf(target.serial)),
    });
    expect(mismatch.body).toMatchObject({ hhtStatus: 'fail' });
    if (!x9Target) throw new Error('the fleet has one x9_vn panel only');
    const cloned = await operator.post('/sendData/sendDeviceSettings', {
      deviceSettingIds: chosen,
      deviceIds: String(await deviceIdOf(x9Target.serial)),
    });
    expect(cloned.body.hhtStatus).toBe('success');
    await waitFor(
      'the clone applied at the target',
      () => x9Target.settings.platformMsg.language === 'ko_kr',
    );
    expect(x9Target.settings.platform === 'x9_vn' && x9Target.settings.platformMsg.bluelightFilter).toEqual({
      bluelightFilter: true,
      filterLevel: 40,
    });
  });

  it('uninstalls a user app: the panel removes it, reports its apps and the reply confirms', async () => {
    const panel = fleet.panels[3]!;
    const id = await deviceIdOf(panel.serial);
    const userApp = panel.apps.find((a) => a.appLevel === 0)!;
    await waitFor(
      'the app list',
      async () =>
        deviceDetail.listDeviceApps.reply.parse(
          (await operator.get(`/platform/device/listApp?deviceId=${id}`)).body,
        ).listObject.length === panel.apps.length,
    );
    const reply = deviceDetail.uninstallApk.reply.parse(
      (
        await operator.post('/platform/device/uninstallApk', {
          deviceId: String(id),
          packageNames: userApp.packageName,
        })
      ).body,
    );
    expect(reply.appList).toEqual([{ packageName: userApp.packageName, uninstallStatus: true }]);
    expect(panel.apps.map((a) => a.packageName)).not.toContain(userApp.packageName);
    const listed = deviceDetail.listDeviceApps.reply.parse(
      (await operator.get(`/platform/device/listApp?deviceId=${id}`)).body,
    ).listObject;
    expect(listed.map((a) => a.packageName)).not.toContain(userApp.packageName);
  });
});
