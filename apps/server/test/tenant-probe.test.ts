import { allCalls, translate, type CallDef, type UserType } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seedAccounts, type SeededAccounts } from '../src/dev/seed-accounts.js';
import { wavTone } from './audio-fixtures.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  fullState,
  waitFor,
  x9Settings,
  type BareDevice,
} from './device-helpers.js';
import {
  backends,
  signedIn,
  startServer,
  TEST_PEPPER,
  type TestClient,
  type TestResponse,
  type TestServer,
} from './harness.js';
import { firmwareBytes, tusCreate, tusOffset, tusPatch, tusTarget, tusUpload } from './ota-helpers.js';
import { apkSigner, buildApk } from './apk-fixtures.js';

/**
 * The tenant probe, generated from the contract: every call that takes the id of a tenant's
 * row is made by each user type it admits in tenant A, once with tenant B's id and once with an
 * id that does not exist. Each must be refused exactly alike (B's row is answered as if it did
 * not exist), with a not-found refusal that shows the ownership check was reached (the other
 * parameters are valid), and nothing of B may change.
 */

type Kind =
  | 'user'
  | 'customerOrg'
  | 'device'
  | 'deviceKey'
  | 'label'
  | 'material'
  | 'command'
  | 'setting'
  | 'template'
  | 'sourceSetting'
  | 'push'
  | 'otaFile'
  | 'otaDescription'
  | 'otaTask'
  | 'otaRule'
  | 'otaRuleZone'
  | 'otaRuleIp'
  | 'otaRuleSn'
  | 'upload'
  | 'abnormalLog'
  | 'apkMark'
  | 'apkVersion'
  | 'apkFileSub'
  | 'program'
  | 'programTask';

/** Parameters that name a tenant's row, by name. */
const TENANT_IDS: Record<string, Kind> = {
  userId: 'user',
  customerId: 'customerOrg',
  customerUserNumberId: 'customerOrg',
  deviceId: 'device',
  deviceIds: 'device',
  deviceKey: 'deviceKey',
  deviceKeyList: 'deviceKey',
  groupIds: 'label',
  tagIds: 'label',
  tags: 'label',
  materialId: 'material',
  commandIds: 'command',
  deviceSettingIds: 'setting',
  pushId: 'push',
  otaFileId: 'otaFile',
  otaTaskId: 'otaTask',
  otaRuleId: 'otaRule',
  otaRuleListId: 'otaRuleZone',
  otaRuleWhiteId: 'otaRuleIp',
  otaRuleSnId: 'otaRuleSn',
  uploadId: 'upload',
  apkMarkId: 'apkMark',
  apkVersionId: 'apkVersion',
  apkFileSubId: 'apkFileSub',
  programId: 'program',
};

/** Parameters whose name alone does not say what they name: the saved settings' `id` and `ids`. */
const TENANT_IDS_BY_PATH: Record<string, Record<string, Kind>> = {
  '/deviceSetting/updateSetting': { id: 'template' },
  '/deviceSetting/deleteSetting': { id: 'template' },
  '/sendData/sendSetting': { id: 'template' },
  '/sendData/sendSourceSetting': { id: 'sourceSetting' },
  '/sendData/sendSettingsToDevice': { ids: 'template' },
  '/otaFile/viewDescription': { id: 'otaDescription' },
  '/otaFile/updateDescription': { id: 'otaDescription' },
  '/otaFile/updateRemind': { id: 'otaDescription' },
  '/otaFile/deleteDescription': { id: 'otaDescription' },
  '/deviceErrorLog/viewErrorLog': { id: 'abnormalLog' },
  '/deviceErrorLog/download': { id: 'abnormalLog' },
  '/deviceErrorLog/updateStatus': { id: 'abnormalLog' },
  '/apkUpgrade/icon': { id: 'apkVersion' },
  '/program/publishTargets': { taskId: 'programTask' },
  '/program/cancelTask': { taskId: 'programTask' },
  '/program/cancelTaskDevice': { taskId: 'programTask' },
};
const kindOf = (path: string, name: string): Kind | undefined =>
  TENANT_IDS_BY_PATH[path]?.[name] ?? TENANT_IDS[name];

/** Samples that differ by call (a report's startTime is epoch ms, a policy window's a local date-time). */
const PATH_SAMPLES: Record<string, Record<string, string>> = {
  '/otaRule/addOtaRuleList': { startTime: '2099-01-01 08:00:00', timeZone: 'GMT+09:00' },
  '/otaRule/updateOtaRuleList': { startTime: '2099-01-01 08:00:00', timeZone: 'GMT+09:00' },
  '/otaTask/listDevice': { state: 'queued' },
  '/apkUpgrade/icon': { kind: 'version' },
  '/platform/device/remove': { keepHistory: '1' },
  '/platform/device/history': { from: String(Date.now() - 86_400_000), to: String(Date.now()) },
};

/** A parameter that carries an id-like name but selects nothing: the device edit echoes the read-only serial. */
const NOT_AN_ID: Record<string, string[]> = { '/platform/device/update': ['deviceKey'] };

/** Parameters that name rows no tenant owns: the deployment's catalog and the platform's own records, changed by type 0 alone. */
const DEPLOYMENT_WIDE = new Set(['id', 'machineTypeId', 'inputSourceIds']);

/** Valid values for the other required parameters. A new parameter needs a line here: the probe says which. */
const SAMPLES: Record<string, string> = {
  mark: 'P-R-O-B',
  phone: '13800000000',
  email: 'probe@example.com',
  state: '1',
  remark: 'probe',
  userNumber: '9',
  deviceName: 'Probe panel',
  tag: 'probe',
  order: '01',
  value: '20',
  title: 'Probe',
  text: 'Probe notice',
  level: '0',
  materialType: '0',
  sign: 'day',
  packageNames: 'com.example.probe',
  jsonData: '{"language":"de_de"}',
  type: '0',
  series: 'x9_vn',
  sourceType: 'hdmi1',
  fileType: '2',
  start: '1',
  size: '10',
  report: 'appTime',
  status: '1',
  startTime: String(Date.now() - 86_400_000),
  endTime: String(Date.now()),
  otaVersion: '9.9.9',
  fitMachineTypeId: '1',
  language: 'de_DE',
  textContent: 'probe description',
  name: 'probe policy',
  enableIp: '1',
  enableSn: '0',
  enableTimezone: '0',
  ip: '10.9.8.7',
  deviceKeys: 'PROBE-SN-9',
  playTime: '600',
  content: '[{"type":"web","url":"https://example.com/probe","duration":5}]',
  reason: 'probe',
};

/** An id of each kind that names no row. */
const MISSING: Record<Kind, string> = {
  user: '987654',
  customerOrg: '987654',
  device: '987654',
  deviceKey: 'NO-SUCH-PANEL',
  label: '987654',
  material: '987654',
  setting: '987654',
  command: '01a2090d-0000-7000-8000-000000000000',
  template: '987654',
  sourceSetting: '987654',
  push: '987654',
  otaFile: '987654',
  otaDescription: '987654',
  otaTask: '987654',
  otaRule: '987654',
  otaRuleZone: '987654',
  otaRuleIp: '987654',
  otaRuleSn: '987654',
  upload: 'f'.repeat(32),
  abnormalLog: '987654',
  apkMark: '987654',
  apkVersion: '987654',
  apkFileSub: '987654',
  program: '987654',
  programTask: '987654',
};

/** Refusals that come from an ownership check: the row is not the caller's (or does not exist). */
const NOT_FOUND_KEYS = [
  'common.notFound',
  'device.notFound',
  'label.notFound',
  'user.notFound',
  'material.notFound',
  'command.notFound',
  'customer.notFound',
  'abnormalLog.notFound',
  // The clone of settings names its rows by id: rows that are not the caller's leave nothing to push.
  'deviceManage.selectSettingToPush',
  'settingTemplate.notFound',
  'settingTemplate.pushNotFound',
  'ota.fileNotFound',
  'ota.descriptionNotFound',
  'ota.taskNotFound',
  'otaRule.notFound',
  'otaRule.zoneNotFound',
  'otaRule.ipNotFound',
  'otaRule.snNotFound',
  'upload.notFound',
  'apk.cardNotFound',
  'apk.versionNotFound',
  'apk.subNotFound',
  'apk.iconNotFound',
  'program.notFound',
  'program.taskNotFound',
  // Force upgrade (spec: upgrade.noLabel) answers a label that is not the caller's as one that does not exist.
  'upgrade.noLabel',
];
const notFoundTexts = new Set(NOT_FOUND_KEYS.map((key) => translate('en-US', key)));

const paramNames = (call: CallDef) => {
  const schema = z.toJSONSchema(call.params, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  return { all: Object.keys(schema.properties ?? {}), required: new Set(schema.required ?? []) };
};

describe.each(backends)('tenant probe on %s', (backend) => {
  let server: TestServer;
  let b: SeededAccounts;
  const clientsOfA = new Map<UserType, TestClient>();
  const ownIds = Object.fromEntries(Object.keys(MISSING).map((k) => [k, ''])) as Record<Kind, string>;
  const idsOfB = Object.fromEntries(Object.keys(MISSING).map((k) => [k, []])) as unknown as Record<
    Kind,
    string[]
  >;
  const panels: BareDevice[] = [];

  /** A panel that reported its settings, a label holding it, a command and an audio material of the caller's company. */
  async function resourcesOf(operator: TestClient, serial: string) {
    const credentials = await enroll(server.url, serial, await enrollmentSecretOf(operator));
    const panel = await connectBare(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, credentials);
    panels.push(panel);
    await panel.client.publishAsync(`pf/v1/d/${serial}/state`, JSON.stringify(fullState()), { qos: 1 });
    await panel.client.publishAsync(`pf/v1/d/${serial}/settings`, JSON.stringify(x9Settings), { qos: 1 });
    const logId = `probe-log-${serial}`;
    await panel.client.publishAsync(
      `pf/v1/d/${serial}/log`,
      JSON.stringify({ v: 1, id: logId, fileName: 'anr.txt', appName: 'Probe', occurredAt: 1, text: 'ANR' }),
      { qos: 1 },
    );
    const db = server.app.db.kysely;
    const device = await db
      .selectFrom('devices')
      .select('id')
      .where('device_key', '=', credentials.deviceKey)
      .executeTakeFirstOrThrow();
    const setting = await waitFor(`settings of ${serial}`, () =>
      db
        .selectFrom('device_settings')
        .select('id')
        .where('device_id', '=', device.id)
        .where('section', '=', 'language')
        .executeTakeFirst(),
    );
    const log = await waitFor(`abnormal log of ${serial}`, () =>
      db.selectFrom('abnormal_logs').select('id').where('report_id', '=', logId).executeTakeFirst(),
    );
    const label = await operator.post('/platform/group/insert', {
      groupName: `label ${serial.replaceAll('-', ' ')}`,
    });
    mustSucceed(label, 'label');
    const labelId = String((label.body.dataObject as { groupId: number }).groupId);
    mustSucceed(
      await operator.post('/platform/group/saveGroupsAndDevices', {
        deviceIds: String(device.id),
        groupIds: labelId,
      }),
      'label members',
    );
    const command = mustSucceed(
      await operator.post('/sendData/sendCommandByDeviceId', {
        deviceId: String(device.id),
        order: '01',
        value: '20',
      }),
      'command',
    );
    const form = new FormData();
    form.append('fileType', '2');
    form.append('uiFile', new Blob([wavTone()]), `${serial}.wav`);
    const upload = await fetch(`${server.url}/material/insertMaterial`, {
      method: 'POST',
      headers: { cookie: `pf_session=${operator.cookie('pf_session')}` },
      body: form,
    });
    const material = ((await upload.json()) as { dataObject: { materialId: number } }).dataObject.materialId;
    const commandId = String((command.body.dataObject as { commandId: string }).commandId);
    const template = mustSucceed(
      await operator.post('/deviceSetting/addSetting', { type: '0', series: 'x9_vn' }),
      'template',
    ).body.id as number;
    const sourceSetting = mustSucceed(
      await operator.post('/deviceSetting/addSetting', {
        type: '1',
        series: 'x9_vn',
        platform: 'android',
        sourceType: 'hdmi1',
      }),
      'source setting',
    ).body.id as number;
    const push = (
      mustSucceed(
        await operator.post('/sendData/sendSetting', { id: String(template), deviceIds: String(device.id) }),
        'push',
      ).body.dataObject as { pushId: number }
    ).pushId;
    // The panel acknowledges at once; B's snapshot is taken after that settles (the command and the push's).
    await waitFor(`commands of ${serial} acknowledged`, async () => {
      const rows = await db
        .selectFrom('commands')
        .select('status')
        .where('device_id', '=', device.id)
        .execute();
      return rows.length === 2 && rows.every((row) => row.status === 'succeeded');
    });
    return {
      device: String(device.id),
      deviceKey: credentials.deviceKey,
      label: labelId,
      setting: String(setting.id),
      command: commandId,
      material: String(material),
      abnormalLog: String(log.id),
      template: String(template),
      sourceSetting: String(sourceSetting),
      push: String(push),
      ...(await otaResourcesOf(operator, serial, labelId)),
      ...(await apkResourcesOf(operator, serial)),
      ...(await programResourcesOf(operator, device.id)),
    };
  }

  /** An approved program (approved in the database: no approvers here) published to the panel. */
  async function programResourcesOf(operator: TestClient, deviceId: number) {
    const program = mustSucceed(
      await operator.post('/program/insert', {
        name: `probe ${deviceId}`,
        playTime: '600',
        content: SAMPLES.content!,
      }),
      'program',
    ).body.dataObject as { programId: number };
    await server.app.db.kysely
      .updateTable('programs')
      .set({ status: 'approval2' })
      .where('id', '=', program.programId)
      .execute();
    const task = mustSucceed(
      await operator.post('/program/packZip', {
        programId: String(program.programId),
        deviceIds: String(deviceId),
      }),
      'publish',
    ).body.dataObject as { taskId: number };
    // The bare panel acknowledges at once; B's snapshot is taken after the task settles.
    await waitFor(`publish task ${task.taskId} completed`, async () => {
      const row = await server.app.db.kysely
        .selectFrom('rollout_tasks')
        .select('state')
        .where('id', '=', task.taskId)
        .executeTakeFirstOrThrow();
      return row.state === 'completed';
    });
    return { program: String(program.programId), programTask: String(task.taskId) };
  }

  /** An application card with a version and an auxiliary app. */
  async function apkResourcesOf(operator: TestClient, serial: string) {
    const t = tusTarget(server.url, operator);
    const signer = apkSigner(serial);
    const suffix = serial.toLowerCase().replace(/[^a-z0-9]/g, '');
    const apk = async (pkg: string) => {
      const content = await buildApk(
        { packageName: pkg, versionCode: 1, versionName: '1.0', label: pkg },
        signer,
      );
      const created = await tusCreate(t, content.length, `${pkg}.apk`, 'apk');
      await tusPatch(t, created.uploadId!, 0, content);
      return created.uploadId!;
    };
    const card = mustSucceed(
      await operator.post('/apkUpgrade/uploadApkPackage', {
        uploadId: await apk(`com.probe.p${suffix}`),
        mark: 'P-R-O-B',
      }),
      'apk card',
    ).body.dataObject as { apkMarkId: number; apkVersionId: number };
    const sub = mustSucceed(
      await operator.post('/apkUpgrade/uploadApkFileSub', {
        uploadId: await apk(`com.probe.s${suffix}`),
        apkMarkId: String(card.apkMarkId),
        apkVersionId: String(card.apkVersionId),
      }),
      'apk sub',
    ).body.dataObject as { apkFileSubId: number };
    return {
      apkMark: String(card.apkMarkId),
      apkVersion: String(card.apkVersionId),
      apkFileSub: String(sub.apkFileSubId),
    };
  }

  /** An OTA file with a description, a policy with its lists, an open task and an unfinished upload. */
  async function otaResourcesOf(operator: TestClient, serial: string, labelId: string) {
    const t = tusTarget(server.url, operator);
    const uploadId = await tusUpload(t, firmwareBytes(2048, serial.length), `${serial}.bin`);
    const file = mustSucceed(
      await operator.post('/otaFile/insert', {
        uploadId,
        otaVersion: `8.0.${serial.at(-3) === 'A' ? 1 : 2}`,
        fitMachineTypeId: '1',
      }),
      'ota file',
    ).body.dataObject as { id: number };
    const description = mustSucceed(
      await operator.post('/otaFile/addDescription', {
        otaFileId: String(file.id),
        language: 'en_US',
        textContent: 'notes',
      }),
      'description',
    ).body.dataObject as { id: number };
    const rule = mustSucceed(
      await operator.post('/otaRule/insert', {
        name: `policy ${serial}`,
        enableIp: '1',
        enableSn: '1',
        enableTimezone: '1',
      }),
      'policy',
    ).body.dataObject as { otaRuleId: number };
    const ruleId = String(rule.otaRuleId);
    const zone = mustSucceed(
      await operator.post('/otaRule/addOtaRuleList', {
        otaRuleId: ruleId,
        timeZone: 'GMT+08:00',
        startTime: '2099-01-01 08:00:00',
      }),
      'zone',
    ).body.dataObject as { otaRuleListId: number };
    const ip = mustSucceed(
      await operator.post('/otaRule/addOtaRuleWhite', { otaRuleId: ruleId, ip: '10.0.0.0/8' }),
      'ip',
    ).body.dataObject as { otaRuleWhiteId: number };
    mustSucceed(
      await operator.post('/otaRule/addOtaRuleSn', { otaRuleId: ruleId, deviceKeys: serial }),
      'sn',
    );
    const sn = (
      await server.app.db.kysely
        .selectFrom('ota_rule_serials')
        .select('id')
        .where('rule_id', '=', rule.otaRuleId)
        .executeTakeFirstOrThrow()
    ).id;
    const task = mustSucceed(
      await operator.post('/otaFile/forceUpdate', {
        tagIds: labelId,
        otaFileId: String(file.id),
        timeEnable: '1',
        upgradeTime: '2099-01-01 08:00:00',
      }),
      'task',
    ).body.dataObject as { otaTaskId: number };
    const partial = await tusCreate(t, 4096, `${serial}-partial.bin`);
    return {
      otaFile: String(file.id),
      otaDescription: String(description.id),
      otaTask: String(task.otaTaskId),
      otaRule: ruleId,
      otaRuleZone: String(zone.otaRuleListId),
      otaRuleIp: String(ip.otaRuleWhiteId),
      otaRuleSn: String(sn),
      upload: partial.uploadId!,
    };
  }

  const snapshotOfB = async () => {
    const db = server.app.db.kysely;
    const orgs = [b.customerId, b.distributorId];
    return {
      organisations: await db.selectFrom('organisations').selectAll().where('id', 'in', orgs).execute(),
      users: await db
        .selectFrom('users')
        .select([
          'id',
          'user_name',
          'enabled',
          'activated',
          'phone',
          'email',
          'remark',
          'password_hash',
          'valid_begin',
          'valid_end',
        ])
        .where('org_id', 'in', orgs)
        .orderBy('id')
        .execute(),
      devices: await db
        .selectFrom('devices')
        .select(['id', 'name', 'remark', 'state'])
        .where('org_id', '=', b.customerId)
        .orderBy('id')
        .execute(),
      labels: await db
        .selectFrom('labels')
        .selectAll()
        .where('org_id', '=', b.customerId)
        .orderBy('id')
        .execute(),
      members: await db
        .selectFrom('label_devices')
        .innerJoin('labels', 'labels.id', 'label_devices.label_id')
        .select(['label_devices.label_id', 'label_devices.device_id'])
        .where('labels.org_id', '=', b.customerId)
        .orderBy('label_devices.label_id')
        .orderBy('label_devices.device_id')
        .execute(),
      commands: await db
        .selectFrom('commands')
        .select(['id', 'status'])
        .where('org_id', '=', b.customerId)
        .orderBy('id')
        .execute(),
      abnormalLogs: await db
        .selectFrom('abnormal_logs')
        .select(['id', 'status'])
        .where('org_id', '=', b.customerId)
        .orderBy('id')
        .execute(),
      materials: await db
        .selectFrom('materials')
        .select(['id', 'stored_name'])
        .where('org_id', '=', b.customerId)
        .orderBy('id')
        .execute(),
      settings: await db
        .selectFrom('setting_templates')
        .selectAll()
        .where('org_id', '=', b.customerId)
        .orderBy('id')
        .execute(),
      pushes: await db
        .selectFrom('setting_pushes')
        .select('id')
        .where('org_id', '=', b.customerId)
        .orderBy('id')
        .execute(),
      otaFiles: await db
        .selectFrom('ota_files')
        .selectAll()
        .where('org_id', '=', b.customerId)
        .orderBy('id')
        .execute(),
      otaRules: await db
        .selectFrom('ota_rules')
        .selectAll()
        .where('org_id', '=', b.customerId)
        .orderBy('id')
        .execute(),
      otaTasks: await db
        .selectFrom('rollout_tasks')
        .select(['id', 'state', 'updated_at'])
        .where('org_id', '=', b.customerId)
        .orderBy('id')
        .execute(),
      uploads: await db
        .selectFrom('uploads')
        .select(['id', 'state'])
        .where('org_id', '=', b.customerId)
        .orderBy('id')
        .execute(),
    };
  };

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    b = await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-sales', password: 'bsales123', userType: '1' },
      { userName: 'b-customer', password: 'bcustomer123', userType: '2', activated: 1 },
      { userName: 'b-manager', password: 'bmanager123', userType: '3' },
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    clientsOfA.set('1', await signedIn(server, 'sales1', 'sales123'));
    clientsOfA.set('2', await signedIn(server, 'customer1', 'customer123'));
    clientsOfA.set('3', await signedIn(server, 'manager1', 'manager123'));
    clientsOfA.set('4', await signedIn(server, 'operator1', 'operator123'));
    const own = await resourcesOf(clientsOfA.get('4')!, 'PROBE-A-1');
    const other = await resourcesOf(await signedIn(server, 'b-operator', 'boperator123'), 'PROBE-B-1');
    Object.assign(ownIds, own, {
      user: String(server.accounts.userIds.operator1),
      customerOrg: String(server.accounts.customerId),
    });
    for (const kind of Object.keys(other) as Array<keyof typeof other>) idsOfB[kind] = [other[kind]];
    idsOfB.user = Object.values(b.userIds).map(String);
    idsOfB.customerOrg = [String(b.customerId)];
  });
  afterAll(async () => {
    await Promise.all(panels.map((p) => p.close()));
    await server?.stop();
  });

  it('refuses every tenant id of another company exactly like an id that does not exist, and changes nothing', async () => {
    const before = await snapshotOfB();
    const failures: string[] = [];
    let probes = 0;
    for (const call of allCalls) {
      if (call.access.kind !== 'user') continue;
      const names = paramNames(call);
      const tenantParams = names.all.filter((name) => kindOf(call.path, name) !== undefined);
      if (!tenantParams.length) continue;
      const missingSample = [...names.required].filter(
        (n) =>
          kindOf(call.path, n) === undefined &&
          !DEPLOYMENT_WIDE.has(n) &&
          !(n in SAMPLES) &&
          !(n in (PATH_SAMPLES[call.path] ?? {})),
      );
      if (missingSample.length) {
        failures.push(`${call.path}: add a sample for ${missingSample.join(', ')}`);
        continue;
      }
      // Every sampled parameter, the required tenant ids with the caller's own rows; the probed one is added below.
      const base: Record<string, string> = {};
      for (const name of names.all) if (name in SAMPLES) base[name] = SAMPLES[name]!;
      Object.assign(base, PATH_SAMPLES[call.path] ?? {});
      for (const name of tenantParams)
        if (names.required.has(name) || NOT_AN_ID[call.path]?.includes(name))
          base[name] = ownIds[kindOf(call.path, name)!];
      const own = (param: string) => ({ [param]: ownIds[kindOf(call.path, param)!] });
      // Optional ids may depend on each other (one target of two, an audio with its material): add the caller's own.
      const validFor = (param: string) =>
        [{}, ...tenantParams.filter((other) => other !== param).map(own)]
          .map((extra) => ({ ...base, ...extra, ...own(param) }))
          .find((params) => call.params.safeParse(params).success);
      const types = call.access.types.filter((t) => t !== '0');
      for (const type of types) {
        const client = clientsOfA.get(type)!;
        const send = (params: Record<string, string>) => {
          if (call.method === 'GET') return client.get(`${call.path}?${new URLSearchParams(params)}`);
          return client.post(call.path, params);
        };
        for (const param of tenantParams.filter((name) => !NOT_AN_ID[call.path]?.includes(name))) {
          const valid = validFor(param);
          if (!valid) {
            failures.push(
              `${call.path} with ${param}: the probe's own parameters do not validate; add samples`,
            );
            continue;
          }
          const kind = kindOf(call.path, param)!;
          const missing = await send({ ...valid, [param]: MISSING[kind] });
          for (const foreign of idsOfB[kind]) {
            probes++;
            const reply = await send({ ...valid, [param]: foreign });
            const problem = refusalProblem(reply, missing, foreign);
            if (problem)
              failures.push(
                `${call.method} ${call.path} as type ${type} with B's ${param}=${foreign}: ${problem}`,
              );
          }
        }
      }
    }
    console.log(`tenant probe: ${probes - failures.length} of ${probes} refused`);
    expect(failures).toEqual([]);
    expect(await snapshotOfB()).toEqual(before);
    expect(probes).toBeGreaterThan(40);
  });
});

describe.each(backends)('tenant probe of the upload (tus) endpoints on %s', (backend) => {
  it("answers another company's upload exactly like one that does not exist", async () => {
    const server = await startServer(backend);
    try {
      await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
        { userName: 'b-operator', password: 'boperator123', userType: '4' },
      ]);
      const a = tusTarget(server.url, await signedIn(server, 'operator1', 'operator123'));
      const b = tusTarget(server.url, await signedIn(server, 'b-operator', 'boperator123'));
      const uploadOfB = (await tusCreate(b, 1000, 'b.bin')).uploadId!;
      const probes = [
        ['HEAD', undefined],
        ['PATCH', new Uint8Array(10)],
        ['DELETE', undefined],
      ] as const;
      let refused = 0;
      for (const [method, body] of probes) {
        const ask = (id: string) =>
          fetch(`${server.url}/upload/tus/${id}`, {
            method,
            headers: {
              cookie: a.cookie,
              'tus-resumable': '1.0.0',
              'upload-offset': '0',
              'content-type': 'application/offset+octet-stream',
            },
            body,
          }).then(async (r) => ({ status: r.status, text: await r.text() }));
        const foreign = await ask(uploadOfB);
        const missing = await ask('f'.repeat(32));
        expect(foreign).toEqual(missing);
        expect(foreign.status).toBe(404);
        refused++;
      }
      expect(await tusOffset(b, uploadOfB)).toEqual({ status: 200, offset: 0 });
      console.log(`tenant probe (tus): ${refused} of 3 refused like an unknown upload`);
    } finally {
      await server.stop();
    }
  });
});

function mustSucceed(reply: TestResponse, what: string) {
  if (reply.body.hhtStatus !== 'success') throw new Error(`${what} failed: ${reply.text}`);
  return reply;
}

/** Undefined when `reply` (to B's id) is refused like `missing` (to an id that does not exist); else what is wrong. */
function refusalProblem(reply: TestResponse, missing: TestResponse, foreign: string): string | undefined {
  if (reply.status >= 500) return `server fault ${reply.status}`;
  if (reply.status !== missing.status || JSON.stringify(reply.body) !== JSON.stringify(missing.body)) {
    return `answered ${reply.status} ${reply.text.slice(0, 120)} but an unknown id ${missing.status} ${missing.text.slice(0, 120)}`;
  }
  if (reply.body.hhtStatus === 'fail') {
    return notFoundTexts.has(String(reply.body.hhtMsg))
      ? undefined
      : `refused before the ownership check: ${String(reply.body.hhtMsg)}`;
  }
  // A list filtered to the caller's rows answers success; it must not carry B's row.
  return reply.text.includes(`"${foreign}"`) ? `B's row is in the reply` : undefined;
}
