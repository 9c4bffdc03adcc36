import { device, settings } from '@panelfleet/contract';
import type { Db } from '../db/database.js';
import { demoClient } from './demo-client.js';

/**
 * The demo's saved settings, made through the HTTP API as the console would (signed in as the
 * demo's customer administrator; the captcha answer is read from the demo's own database): a
 * classroom and an office template for x9_vn panels, an oem template and an HDMI 1 source
 * setting with a custom picture. Only when the company has no saved settings yet.
 */
export async function seedDemoSettings(baseUrl: string, db: Db) {
  const request = await demoClient(baseUrl, db, 'operator1', 'operator123', 'demo settings');
  const saved = settings.listSetting.reply.parse(
    await request('GET', '/deviceSetting/listSetting?start=1&size=1&type=0'),
  );
  if (saved.totalRecords > 0) return 0;

  const add = async (form: Record<string, string>) =>
    settings.addSetting.reply.parse(await request('POST', '/deviceSetting/addSetting', form)).dataObject;
  const save = (id: number, json: unknown) =>
    request('POST', '/deviceSetting/updateSetting', { id: String(id), jsonData: JSON.stringify(json) });

  const x9 = device.defaultPlatformMsg('x9_vn');
  const classroom = await add({ type: '0', series: 'x9_vn' });
  await save(classroom.id, {
    platform: 'x9_vn',
    platformMsg: {
      ...x9,
      powerOnOffSetting: {
        ...x9.powerOnOffSetting,
        autoPowerOn: true,
        powerOnTime: '07:40',
        powerOnWeek: 'mon_tue_wed_thu_fri',
        autoPowerOff: true,
        powerOffTime: '17:30',
        powerOffWeek: 'mon_tue_wed_thu_fri',
        energySaving: 60,
      },
      bluelightFilter: { bluelightFilter: true, filterLevel: 30 },
      newlineExtension: { ...x9.newlineExtension, trucast: true, trucastSource: 'front' },
    },
  });
  const office = await add({ type: '0', series: 'x9_vn' });
  await save(office.id, {
    platform: 'x9_vn',
    platformMsg: {
      ...x9,
      language: 'zh_cn',
      inputOutputSetting: { ...x9.inputOutputSetting, startingSource: 'userLastKnownSource' },
      toolBar: { ...x9.toolBar, right: false, customizedIcon: 'task' },
    },
  });
  const oem = device.defaultPlatformMsg('oem');
  const oemTemplate = await add({ type: '0', series: 'oem' });
  await save(oemTemplate.id, {
    platform: 'oem',
    platformMsg: { ...oem, powerOnOffSetting: { ...oem.powerOnOffSetting, energySaving: 'never' } },
  });
  const source = await add({ type: '1', series: 'x9_vn', platform: 'android', sourceType: 'hdmi1' });
  const picture = device.defaultPictureSetting();
  await save(source.id, {
    platform: 'android',
    sourceType: 'hdmi1',
    ...picture,
    pictureModeType: 'custom',
    imageSettings: {
      ...picture.imageSettings,
      custom: { colorTemp: '2', brightness: 70, contrast: 35, hue: 50, saturation: 55, sharpness: 20 },
    },
  });
  await request('POST', '/platform/loginOut');
  return 4;
}
