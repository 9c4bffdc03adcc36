import crypto from 'node:crypto';
import { device, ota } from '@panelfleet/contract';
import type { PanelFleetApp } from '../app.js';
import { CaptchaRepository } from '../modules/captcha/repository.js';
import { md5Hex } from '../security/passwords.js';
import { tokenHash } from '../security/tokens.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The demo panel whose OTA install fails (the simulator is told so): the rollout has one failure. */
export const DEMO_FAILING_PANEL = 'DEMO-00007';

/** A console session over HTTP, as the browser has it (cookies, form posts). */
class Console {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  cookie(name: string) {
    return this.cookies.get(name);
  }

  async call(
    method: string,
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(this.base + path, {
      method,
      headers: {
        ...headers,
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      this.cookies.set(name!.trim(), rest.join('='));
    }
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
    return { response, body: json ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }
}

/**
 * The demo fleet's OTA history, made once through the real API and protocol: operator1 uploads a
 * firmware image with tus, publishes it with descriptions in two languages and a policy with a
 * time-zone window, and force-upgrades every demo panel in two waves; the simulated panels check
 * the signed manifest, download, install and report, so the OTA screens show a finished task, in
 * which DEMO_FAILING_PANEL failed to install (the demo's "Rollout failures" alert).
 */
export async function seedDemoOta(app: PanelFleetApp, base: string, log: (m: string) => void) {
  const operator = new Console(base);
  await operator.call('GET', '/kaptcha/defaultKaptcha');
  const captcha = await new CaptchaRepository(app.db.kysely).peekForSeeding(
    tokenHash(operator.cookie('pf_captcha') ?? ''),
  );
  const login = await operator.call('POST', '/platform/login', {
    username: 'operator1',
    password: md5Hex('operator123'),
    tryCode: captcha ?? 'none',
  });
  if (login.body.hhtStatus !== 'success')
    throw new Error(`demo OTA: sign-in refused: ${String(login.body.hhtMsg)}`);
  const existing = ota.listOtaFiles.reply.parse(
    (await operator.call('GET', '/otaFile/list?start=1&size=1')).body,
  );
  if (existing.totalRecords > 0) return;

  // The demo's panels as the console lists them; the rollout waits until all of them listen.
  const panels = async () =>
    device.listDevices.reply.parse((await operator.call('GET', '/platform/device/list?start=1&size=50')).body)
      .listObject;
  const online = async () => {
    const list = await panels();
    return list.length >= 30 && list.every((d) => app.devices.gateway.isReady(d.deviceKey));
  };
  for (let i = 0; i < 120 && !(await online()); i++) await sleep(500);

  const image = crypto.randomBytes(2 * 1024 * 1024);
  const b64 = (t: string) => Buffer.from(t).toString('base64');
  const created = await operator.call('POST', '/upload/tus', undefined, {
    'tus-resumable': '1.0.0',
    'upload-length': String(image.length),
    'upload-metadata': `kind ${b64('firmware')},filename ${b64('pf86-1.5.0.bin')}`,
  });
  const uploadId = created.response.headers.get('location')!.split('/').pop()!;
  await fetch(`${base}/upload/tus/${uploadId}`, {
    method: 'PATCH',
    headers: {
      cookie: `pf_session=${operator.cookie('pf_session')}`,
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: image,
  });
  const types = ota.listMachineTypeOptions.reply.parse(
    (await operator.call('GET', '/otaFile/machineTypeOptions')).body,
  );
  const rule = (
    await operator.call('POST', '/otaRule/insert', {
      name: 'Campus hours',
      remark: 'Panels in China update from their start time',
      enableIp: '0',
      enableSn: '0',
      enableTimezone: '1',
    })
  ).body as { dataObject: { otaRuleId: number } };
  const ruleId = String(rule.dataObject.otaRuleId);
  await operator.call('POST', '/otaRule/addOtaRuleList', {
    otaRuleId: ruleId,
    timeZone: 'GMT+08:00',
    startTime: '2026-01-01 20:00:00',
    remark: 'after lessons',
  });
  const file = ota.insertOtaFile.reply.parse(
    (
      await operator.call('POST', '/otaFile/insert', {
        uploadId,
        otaVersion: '1.5.0',
        fitMachineTypeId: types.listObject.map((t) => t.machineTypeId).join(','),
        otaRuleId: ruleId,
        remarkFileName: 'Spring release: faster boot, new input switching',
      })
    ).body,
  ).dataObject;
  await operator.call('POST', '/otaFile/addDescription', {
    otaFileId: String(file.id),
    language: 'en_US',
    textContent: 'Faster start-up, HDMI switching without flicker, security fixes.',
    remindText: 'The panel restarts once to finish the update.',
  });
  await operator.call('POST', '/otaFile/addDescription', {
    otaFileId: String(file.id),
    language: 'zh_CN',
    textContent: '启动更快，HDMI 切换不再闪烁，安全修复。',
    remindText: '更新完成前设备会重启一次。',
  });
  const devices = (await panels()).map((d) => ({ id: d.deviceId, tag: d.tag }));
  const label = device.insertGroup.reply.parse(
    (await operator.call('POST', '/platform/group/insert', { groupName: 'Spring rollout' })).body,
  ).dataObject.groupId;
  // Every panel joins the rollout's label and keeps the labels it has (the demo's classrooms,
  // library and lobby screens): saveGroupsAndDevices sets exactly the labels given, so panels
  // with the same labels are saved together. Label names never contain "-", the tag separator.
  const labelIds = new Map(
    device.listGroups.reply
      .parse((await operator.call('GET', '/platform/group/list')).body)
      .listObject.map((g) => [g.groupName, g.groupId]),
  );
  const byLabels = new Map<string, number[]>();
  for (const d of devices) {
    const kept = d.tag ? d.tag.split('-').map((name) => labelIds.get(name)) : [];
    const ids = [...kept.filter((id) => id !== undefined), label].sort((a, b) => a - b).join(',');
    byLabels.set(ids, [...(byLabels.get(ids) ?? []), d.id]);
  }
  for (const [groupIds, ids] of byLabels)
    await operator.call('POST', '/platform/group/saveGroupsAndDevices', {
      deviceIds: ids.join(','),
      groupIds,
    });
  const task = ota.forceUpdate.reply.parse(
    (
      await operator.call('POST', '/otaFile/forceUpdate', {
        tagIds: String(label),
        otaFileId: String(file.id),
        waveMode: 'percent',
        firstWave: '20',
        waveStep: '80',
        // One failed panel of six in a wave still lets the next one start (the default wants 90%).
        successShare: '80',
      })
    ).body,
  ).dataObject;
  log(
    `demo OTA: file 1.5.0 published, task ${task.otaTaskId} rolling out to ${task.deviceCount} panels in ${task.waveCount} waves`,
  );
  for (let i = 0; i < 240; i++) {
    const view = ota.getOtaTask.reply.parse(
      (await operator.call('GET', `/otaTask/selectById?otaTaskId=${task.otaTaskId}`)).body,
    ).dataObject;
    if (view.state === 'completed') {
      log(
        `demo OTA: task ${task.otaTaskId} finished: ${view.counts.succeeded} succeeded, ${view.counts.failed} failed`,
      );
      return;
    }
    await sleep(1000);
  }
  log(`demo OTA: task ${task.otaTaskId} still running after 4 minutes (see the OTA screens)`);
}
