import { device, settings } from '@panelfleet/contract';
import type { Db } from '../db/database.js';
import { CaptchaRepository } from '../modules/captcha/repository.js';
import { md5Hex } from '../security/passwords.js';
import { tokenHash } from '../security/tokens.js';

/**
 * The demo's saved settings, made through the HTTP API as the console would (signed in as the
 * demo's customer administrator; the captcha answer is read from the demo's own database): a
 * classroom and an office template for x9_vn panels, an oem template and an HDMI 1 source
 * setting with a custom picture. Only when the company has no saved settings yet.
 */
export async function seedDemoSettings(baseUrl: string, db: Db) {
  const cookies = new Map<string, string>();
  const request = async (method: 'GET' | 'POST', path: string, form?: Record<string, string>) => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: {
        accept: 'application/json',
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      cookies.set(name!.trim(), value.join('='));
    }
    // The captcha answers an image; everything else the envelope.
    if (!(response.headers.get('content-type') ?? '').includes('json')) return {};
    const body = (await response.json()) as { hhtStatus?: string; hhtMsg?: string };
    if (body.hhtStatus !== 'success') throw new Error(`demo settings: ${path} refused: ${body.hhtMsg}`);
    return body;
  };

  await request('GET', '/kaptcha/defaultKaptcha');
  const captcha = await new CaptchaRepository(db.kysely).peekForSeeding(
    tokenHash(cookies.get('pf_captcha') ?? ''),
  );
  if (!captcha) throw new Error('demo settings: no captcha to sign in with');
  await request('POST', '/platform/login', {
    username: 'operator1',
    password: md5Hex('operator123'),
    tryCode: captcha,
  });
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
