import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { device, failWithKey, ota, otaRules, translate, uploads } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import { verifyManifest } from '../src/security/firmware-signing.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';
import { enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import {
  firmwareBytes,
  ForwardingProxy,
  tusCreate,
  tusOffset,
  tusPatch,
  tusTarget,
  tusUpload,
} from './ota-helpers.js';

const LIMIT = 4 * 1024 * 1024;

describe.each(backends)('OTA rollouts on %s', (backend) => {
  let server: TestServer;
  let proxy: ForwardingProxy;
  let operator: TestClient;
  let admin: TestClient;
  const fleets: Fleet[] = [];
  let machineTypeIds: Map<string, number>;
  let seq = 0;

  const ok = (reply: { body: Record<string, unknown>; text: string }, what: string) => {
    if (reply.body.hhtStatus !== 'success') throw new Error(`${what}: ${reply.text}`);
    return reply.body;
  };

  /** Publishes an OTA file through tus and /otaFile/insert; its id. */
  async function publish(
    version: string,
    opts: { types?: string[]; from?: number[]; ruleId?: number; size?: number } = {},
  ) {
    const t = tusTarget(server.url, operator);
    const uploadId = await tusUpload(t, firmwareBytes(opts.size ?? 300_000, ++seq), `fw-${version}.bin`);
    const types = (opts.types ?? ['x9_vn', 'oem', 'rs']).map((n) => machineTypeIds.get(n)!);
    const body = ok(
      await operator.post('/otaFile/insert', {
        uploadId,
        otaVersion: version,
        fitMachineTypeId: types.join(','),
        fitOtaVersionId: (opts.from ?? []).join(','),
        ...(opts.ruleId ? { otaRuleId: String(opts.ruleId) } : {}),
        remarkFileName: `release ${version}`,
      }),
      `publish ${version}`,
    );
    return ota.insertOtaFile.reply.parse(body).dataObject.id;
  }

  async function fleetOf(
    prefix: string,
    count: number,
    options: Partial<Parameters<typeof startFleet>[0]> = {},
  ) {
    const fleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(operator),
      count,
      prefix,
      telemetryMs: 3_600_000,
      progressMs: 20,
      abnormalLogChance: 0,
      log: () => undefined,
      ...options,
    });
    fleets.push(fleet);
    const rows = await waitFor(`${prefix} panels reported`, async () => {
      await server.app.devices.gateway.flushState();
      const found = await server.app.db.kysely
        .selectFrom('devices')
        .select(['id', 'device_key', 'ota_version', 'machine_type'])
        .where('device_key', 'like', `${prefix}-%`)
        .orderBy('id')
        .execute();
      return found.length === count && found.every((r) => r.ota_version === '1.4.2') ? found : undefined;
    });
    return { fleet, rows, panel: (key: string) => fleet.panels.find((p) => p.serial === key)! };
  }

  async function labelOf(name: string, deviceIds: number[]) {
    const label = device.insertGroup.reply.parse(
      ok(await operator.post('/platform/group/insert', { groupName: name }), 'label'),
    );
    ok(
      await operator.post('/platform/group/saveGroupsAndDevices', {
        deviceIds: deviceIds.join(','),
        groupIds: String(label.dataObject.groupId),
      }),
      'label members',
    );
    return label.dataObject.groupId;
  }

  const targets = (taskId: number) =>
    server.app.db.kysely
      .selectFrom('rollout_targets')
      .innerJoin('devices', 'devices.id', 'rollout_targets.device_id')
      .select([
        'devices.device_key',
        'rollout_targets.state',
        'rollout_targets.reason',
        'rollout_targets.wave',
      ])
      .where('task_id', '=', taskId)
      .orderBy('devices.id')
      .execute();

  const otaCommandsOf = (deviceIds: number[]) =>
    server.app.db.kysely
      .selectFrom('commands')
      .select(['device_id', 'status'])
      .where('order_code', '=', 'OTA')
      .where('device_id', 'in', deviceIds)
      .execute();

  beforeAll(async () => {
    proxy = new ForwardingProxy();
    const base = await proxy.listen();
    server = await startServer(
      backend,
      { BASE_URL: base, UPLOAD_MAX_FIRMWARE_BYTES: String(LIMIT) },
      {
        rollout: { tickMs: 100, jitterMs: 0, leaseMs: 5000 },
        throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
      },
    );
    proxy.target = Number(new URL(server.url).port);
    operator = await operatorClient(server);
    admin = await signedIn(server, 'admin', 'admin123');
    for (const version of ['1.4.2', '1.3.0'])
      ok(await admin.post('/otaVersion/insert', { otaVersion: version, enable: '1' }), 'version');
    const options = ota.listMachineTypeOptions.reply.parse(
      (await operator.get('/otaFile/machineTypeOptions')).body,
    );
    machineTypeIds = new Map(options.listObject.map((o) => [o.machineType, o.machineTypeId]));
  });
  afterAll(async () => {
    for (const fleet of fleets) await fleet.stop();
    await server?.stop();
    await proxy?.close();
  });

  it('R5 (in process): an upload cut at 50% resumes from its offset; until complete it is never a file', async () => {
    const content = firmwareBytes(1_000_000, 99);
    const t = tusTarget(server.url, operator);
    const created = await tusCreate(t, content.length, 'half.bin');
    expect(created.response.status).toBe(201);
    const uploadId = created.uploadId!;
    expect((await tusPatch(t, uploadId, 0, content.subarray(0, 500_000))).offset).toBe(500_000);
    expect(await tusOffset(t, uploadId)).toEqual({ status: 200, offset: 500_000 });
    const state = uploads.getUpload.reply.parse(
      (await operator.get(`/upload/state?uploadId=${uploadId}`)).body,
    );
    expect(state.dataObject).toMatchObject({ state: 'receiving', offset: 500_000, size: content.length });
    const early = await operator.post('/otaFile/insert', {
      uploadId,
      otaVersion: '7.0.0',
      fitMachineTypeId: String(machineTypeIds.get('x9_vn')),
    });
    expect(early.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', 'upload.incomplete') });
    const listed = ota.listOtaFiles.reply.parse((await operator.get('/otaFile/list?start=1&size=50')).body);
    expect(listed.listObject.map((f) => f.fileName)).not.toContain('half.bin');
    expect((await tusPatch(t, uploadId, 500_000, content.subarray(500_000))).offset).toBe(content.length);
    const done = uploads.getUpload.reply.parse(
      (await operator.get(`/upload/state?uploadId=${uploadId}`)).body,
    ).dataObject;
    expect(done.state).toBe('complete');
    expect(done.sha256).toBe(crypto.createHash('sha256').update(content).digest('hex'));
    expect(done.md5).toBe(crypto.createHash('md5').update(content).digest('hex'));
    const id = ota.insertOtaFile.reply.parse(
      ok(
        await operator.post('/otaFile/insert', {
          uploadId,
          otaVersion: '7.0.0',
          fitMachineTypeId: String(machineTypeIds.get('x9_vn')),
        }),
        'insert',
      ),
    ).dataObject.id;
    const file = ota.getOtaFile.reply.parse(
      (await operator.get(`/otaFile/selectById?otaFileId=${id}`)).body,
    ).dataObject;
    expect(file).toMatchObject({
      fileName: 'half.bin',
      fileSize: content.length,
      fileMd5: done.md5,
      sha256: done.sha256,
      finishUpgradeDeviceCount: 0,
      owned: '1',
    });
    const key = ota.firmwareKey.reply.parse((await operator.get('/otaFile/signingKey')).body).dataObject
      .publicKey;
    expect(verifyManifest(key, file)).toBe(true);
    expect(JSON.parse(file.manifest)).toMatchObject({
      version: '7.0.0',
      size: content.length,
      sha256: done.sha256,
      machineTypes: ['x9_vn'],
    });
    const stored = fs.readFileSync(
      path.join(
        server.dataDir,
        'files',
        (
          await server.app.db.kysely
            .selectFrom('ota_files')
            .select('stored_path')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).stored_path,
      ),
    );
    expect(stored.equals(content)).toBe(true);
    expect(fs.existsSync(path.join(server.dataDir, 'uploads', uploadId))).toBe(false);
    console.log(
      `R5 (in process): cut at 500000 of ${content.length} bytes, resumed at offset 500000; partial offered: 0 times`,
    );
  });

  it('R7: tampered, wrongly signed, wrong-model and downgrade images: 0 installed, each failed with its reason', async () => {
    const { rows, panel } = await fleetOf('R7', 5, { machineType: undefined } as never);
    const db = server.app.db.kysely;
    const [tampered, badSig, wrongModel, downgrade, control] = rows;
    // Each case its own file (and label): the server's records are made to lie, the panel must not.
    const files = {
      tampered: await publish('2.0.1'),
      badSig: await publish('2.0.2'),
      wrongModel: await publish('2.0.3', { types: [wrongModel!.machine_type] }),
      downgrade: await publish('1.3.5'),
      control: await publish('2.0.5'),
    };
    // tampered: the image on disk changes after it was published (same size).
    const tamperedPath = (
      await db
        .selectFrom('ota_files')
        .select('stored_path')
        .where('id', '=', files.tampered)
        .executeTakeFirstOrThrow()
    ).stored_path;
    const bytes = fs.readFileSync(path.join(server.dataDir, 'files', tamperedPath));
    bytes[1000] = bytes[1000]! ^ 0xff;
    fs.writeFileSync(path.join(server.dataDir, 'files', tamperedPath), bytes);
    // wrongly signed: the manifest carries a signature of another key.
    const other = crypto.generateKeyPairSync('ed25519').privateKey;
    const badFile = await db
      .selectFrom('ota_files')
      .select('manifest')
      .where('id', '=', files.badSig)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('ota_files')
      .set({ signature: crypto.sign(null, Buffer.from(badFile.manifest), other).toString('base64') })
      .where('id', '=', files.badSig)
      .execute();
    // wrong model: the manifest names another machine type than the panel really is.
    const otherType = wrongModel!.machine_type === 'x9_vn' ? 'rs' : 'x9_vn';
    const wm = await db
      .selectFrom('ota_files')
      .select(['manifest'])
      .where('id', '=', files.wrongModel)
      .executeTakeFirstOrThrow();
    const wmManifest = { ...JSON.parse(wm.manifest), machineTypes: [otherType] };
    const resigned = server.app.ota.signer.sign(wmManifest);
    await db.updateTable('ota_files').set(resigned).where('id', '=', files.wrongModel).execute();
    // downgrade: the server believes the panel runs 1.0.0; it runs 1.4.2.
    await db.updateTable('devices').set({ ota_version: '1.0.0' }).where('id', '=', downgrade!.id).execute();

    const tasks: Record<string, number> = {};
    for (const [name, row] of Object.entries({ tampered, badSig, wrongModel, downgrade, control })) {
      const label = await labelOf(`r7 ${name}`, [row!.id]);
      tasks[name] = ota.forceUpdate.reply.parse(
        ok(
          await operator.post('/otaFile/forceUpdate', {
            tagIds: String(label),
            otaFileId: String(files[name as keyof typeof files]),
          }),
          `force ${name}`,
        ),
      ).dataObject.otaTaskId;
    }
    const states = await waitFor(
      'every R7 panel to finish',
      async () => {
        const all = await Promise.all(
          Object.entries(tasks).map(async ([name, id]) => [name, (await targets(id))[0]!] as const),
        );
        return all.every(([, t]) => ['succeeded', 'failed'].includes(t.state))
          ? Object.fromEntries(all)
          : undefined;
      },
      30_000,
    );
    expect(states.tampered).toMatchObject({ state: 'failed', reason: 'checksum' });
    expect(states.badSig).toMatchObject({ state: 'failed', reason: 'signature' });
    expect(states.wrongModel).toMatchObject({ state: 'failed', reason: 'model' });
    expect(states.downgrade).toMatchObject({ state: 'failed', reason: 'downgrade' });
    expect(states.control).toMatchObject({ state: 'succeeded', reason: '' });
    const installed = [tampered, badSig, wrongModel, downgrade].filter(
      (r) => panel(r!.device_key).otaInstalls > 0,
    ).length;
    expect(installed).toBe(0);
    expect(panel(control!.device_key).state.otaVersion).toBe('2.0.5');
    for (const r of [tampered, badSig, wrongModel, downgrade])
      expect(panel(r!.device_key).state.otaVersion).toBe('1.4.2');
    console.log(
      `R7: 4 bad images, ${installed} installed; reasons ${['tampered', 'badSig', 'wrongModel', 'downgrade'].map((n) => `${n}=${states[n]!.reason}`).join(', ')}; control installed`,
    );
  });

  it('R8: a wave where 30% of panels fail pauses the task; no panel outside the tripped wave is updated', async () => {
    const { rows, panel } = await fleetOf('R8', 20);
    const fileId = await publish('3.0.0');
    const label = await labelOf(
      'r8 all',
      rows.map((r) => r.id),
    );
    // Wave 1 is the 10 panels with the lowest ids; 3 of them receive a corrupted image.
    const wave1 = rows.slice(0, 10);
    const outside = rows.slice(10);
    for (const r of wave1.slice(0, 3)) panel(r.device_key).corruptNextOta = true;
    const task = ota.forceUpdate.reply.parse(
      ok(
        await operator.post('/otaFile/forceUpdate', {
          tagIds: String(label),
          otaFileId: String(fileId),
          waveMode: 'count',
          firstWave: '10',
          waveStep: '10',
          successShare: '90',
          failureShare: '20',
          minResults: '5',
        }),
        'force',
      ),
    ).dataObject;
    expect(task).toMatchObject({ deviceCount: 20, skippedCount: 0, waveCount: 2 });
    const paused = await waitFor(
      'the task to pause itself',
      async () => {
        const t = ota.getOtaTask.reply.parse(
          (await operator.get(`/otaTask/selectById?otaTaskId=${task.otaTaskId}`)).body,
        ).dataObject;
        return t.state === 'paused' ? t : undefined;
      },
      30_000,
    );
    expect(paused.stateReason).toMatch(/failed/);
    // It started at once: fired when made, its first wave started, the second not yet.
    expect(paused.firedAt).not.toBeNull();
    expect(paused.waves.map((w) => [w.state === 'pending', w.startedAt === null])).toEqual([
      [false, false],
      [true, true],
    ]);
    // Panels of the wave still running finish; give them the time, then nothing outside moved.
    await waitFor(
      'wave 1 to settle',
      async () => {
        const ts = await targets(task.otaTaskId);
        return ts.slice(0, 10).every((t) => ['succeeded', 'failed'].includes(t.state)) ? ts : undefined;
      },
      30_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    const after = await targets(task.otaTaskId);
    const failed = after.slice(0, 10).filter((t) => t.state === 'failed').length;
    const outsideUpdated = outside.filter((r) => panel(r.device_key).state.otaVersion !== '1.4.2').length;
    expect(failed).toBe(3);
    expect(outsideUpdated).toBe(0);
    expect(after.slice(10).every((t) => t.state === 'queued')).toBe(true);
    expect(await otaCommandsOf(outside.map((r) => r.id))).toEqual([]);
    console.log(
      `R8: wave 1 of 10 panels, ${failed} failed (${failed * 10}%) -> paused ("${paused.stateReason}"); panels outside the wave updated: ${outsideUpdated}`,
    );

    // The operator accepts the wave: the next one runs.
    ok(await operator.post('/otaTask/resume', { otaTaskId: String(task.otaTaskId) }), 'resume');
    await waitFor(
      'wave 2 to install',
      async () => {
        const ts = await targets(task.otaTaskId);
        return ts.slice(10).every((t) => t.state === 'succeeded') ? ts : undefined;
      },
      30_000,
    );
    const done = await waitFor('the task to complete', async () => {
      const t = ota.getOtaTask.reply.parse(
        (await operator.get(`/otaTask/selectById?otaTaskId=${task.otaTaskId}`)).body,
      ).dataObject;
      return t.state === 'completed' ? t : undefined;
    });
    expect(done).toMatchObject({ deviceUpgradeState: '1', canManage: '0' });
    expect(done.counts).toMatchObject({ succeeded: 17, failed: 3 });
    const log = ota.listOtaLog.reply.parse(
      (await operator.get('/otaLog/listOtaLog?start=1&size=50&deviceKey=R8-&status=2')).body,
    );
    expect(log.totalRecords).toBe(3);
    expect(log.listObject.every((r) => r.reason === 'checksum' && r.otaNewVersion === '3.0.0')).toBe(true);
    const file = ota.getOtaFile.reply.parse(
      (await operator.get(`/otaFile/selectById?otaFileId=${fileId}`)).body,
    ).dataObject;
    expect(file.finishUpgradeDeviceCount).toBe(17);
  });

  it('applies policies at dispatch: IP whitelist (CIDR), serial list, time-zone windows; skipped and waiting panels say why', async () => {
    const { rows } = await fleetOf('POL', 4);
    const rule = otaRules.insertOtaRule.reply.parse(
      ok(
        await operator.post('/otaRule/insert', {
          name: 'office',
          remark: 'r',
          enableIp: '1',
          enableSn: '1',
          enableTimezone: '1',
        }),
        'rule',
      ),
    ).dataObject.otaRuleId;
    ok(
      await operator.post('/otaRule/addOtaRuleWhite', { otaRuleId: String(rule), ip: '203.0.113.0/24' }),
      'ip',
    );
    ok(
      await operator.post('/otaRule/addOtaRuleSn', {
        otaRuleId: String(rule),
        deviceKeys: `${rows[0]!.device_key}\n${rows[1]!.device_key}, ${rows[2]!.device_key}`,
      }),
      'sn',
    );
    const db = server.app.db.kysely;
    // Panel 0: allowed, its zone (GMT+08:00) opens in the past; panel 1: zone GMT+05:30 opens tomorrow;
    // panel 2: address outside the whitelist; panel 3: not on the serial list.
    await db.updateTable('devices').set({ utc_offset: 330 }).where('id', '=', rows[1]!.id).execute();
    await db
      .updateTable('devices')
      .set({ public_ip: '198.51.100.7' })
      .where('id', '=', rows[2]!.id)
      .execute();
    const local = (offset: number, deltaMs: number) => {
      const d = new Date(server.clock.now() + deltaMs + offset * 60_000).toISOString();
      return `${d.slice(0, 10)} ${d.slice(11, 19)}`;
    };
    ok(
      await operator.post('/otaRule/addOtaRuleList', {
        otaRuleId: String(rule),
        timeZone: 'GMT+08:00',
        startTime: local(480, -60_000),
        remark: '',
      }),
      'zone',
    );
    ok(
      await operator.post('/otaRule/addOtaRuleList', {
        otaRuleId: String(rule),
        timeZone: 'GMT+05:30',
        startTime: local(330, 86_400_000),
        remark: '',
      }),
      'zone 2',
    );
    const fileId = await publish('4.0.0', { ruleId: rule });
    const label = await labelOf(
      'policy',
      rows.map((r) => r.id),
    );
    const task = ota.forceUpdate.reply.parse(
      ok(
        await operator.post('/otaFile/forceUpdate', { tagIds: String(label), otaFileId: String(fileId) }),
        'force',
      ),
    ).dataObject;
    const ts = await waitFor(
      'policy decisions',
      async () => {
        const all = await targets(task.otaTaskId);
        return all[0]!.state === 'succeeded' &&
          all.slice(1).every((t) => ['waiting', 'skipped'].includes(t.state))
          ? all
          : undefined;
      },
      30_000,
    );
    expect(ts.map((t) => [t.state, t.reason])).toEqual([
      ['succeeded', ''],
      ['waiting', ''],
      ['skipped', 'ipNotAllowed'],
      ['skipped', 'serialNotListed'],
    ]);
    const devices = ota.listOtaTaskDevices.reply.parse(
      (await operator.get(`/otaTask/listDevice?otaTaskId=${task.otaTaskId}&start=1&size=10`)).body,
    );
    const waiting = devices.listObject.find((d) => d.deviceId === rows[1]!.id)!;
    expect(waiting).toMatchObject({ state: 'waiting', reason: '' });
    expect(waiting.notBefore).toBeGreaterThan(server.clock.now() + 80_000_000);
    // Cancel the waiting one; the task then has nothing open and completes.
    ok(
      await operator.post('/otaTask/cancelDevice', {
        otaTaskId: String(task.otaTaskId),
        deviceId: String(rows[1]!.id),
      }),
      'cancel one',
    );
    await waitFor('completion', async () => {
      const t = ota.getOtaTask.reply.parse(
        (await operator.get(`/otaTask/selectById?otaTaskId=${task.otaTaskId}`)).body,
      ).dataObject;
      return t.state === 'completed' ? t : undefined;
    });
    const again = await operator.post(
      '/otaTask/cancel',
      { otaTaskId: String(task.otaTaskId) },
      { 'accept-language': 'zh-CN' },
    );
    expect(again.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('zh-CN', 'ota.taskFinished') });
  });

  it('the device picker lists the panels a file fits; files lock the machine types and versions they name', async () => {
    const { rows } = await fleetOf('PICK', 4);
    const label = await labelOf(
      'picker',
      rows.map((r) => r.id),
    );
    const oem = rows.filter((r) => r.machine_type === 'oem');
    const fileId = await publish('6.1.0', { types: ['oem'], from: [] });
    const page = device.selectByTag.reply.parse(
      ok(
        await operator.post('/platform/device/selectByTag', {
          tags: String(label),
          otaFileId: String(fileId),
          start: '1',
          size: '5',
        }),
        'picker',
      ),
    );
    expect(page.listObject.map((d) => d.deviceKey).sort()).toEqual(oem.map((r) => r.device_key).sort());
    const byType = device.selectByTag.reply.parse(
      ok(
        await operator.post('/platform/device/selectByTag', {
          tags: String(label),
          machineTypeId: String(machineTypeIds.get('rs')),
          start: '1',
          size: '5',
        }),
        'picker by type',
      ),
    );
    expect(byType.listObject.every((d) => d.machineType === 'rs')).toBe(true);
    // A machine type only a file names is locked by it; a disabled one is not offered.
    const lab = ok(
      await admin.post('/platform/machineType/insert', {
        machineType: 'lab',
        enable: '1',
        inputSourceIds: '',
      }),
      'type',
    ) as {
      dataObject: { machineTypeId: number };
    };
    machineTypeIds.set('lab', lab.dataObject.machineTypeId);
    await publish('6.2.0', { types: ['lab'] });
    const refused = await admin.post('/platform/machineType/delete', {
      machineTypeId: String(lab.dataObject.machineTypeId),
    });
    expect(refused.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'machineType.inUse', { count: 1 }),
    });
    const spare = ok(
      await admin.post('/platform/machineType/insert', {
        machineType: 'spare',
        enable: '0',
        inputSourceIds: '',
      }),
      'type',
    ) as {
      dataObject: { machineTypeId: number };
    };
    const offered = ota.listMachineTypeOptions.reply.parse(
      (await operator.get('/otaFile/machineTypeOptions')).body,
    ).listObject;
    expect(offered.map((o) => o.machineType)).not.toContain('spare');
    const t = tusTarget(server.url, operator);
    const uploadId = await tusUpload(t, firmwareBytes(1000, 4343), 'spare.bin');
    expect(
      (
        await operator.post('/otaFile/insert', {
          uploadId,
          otaVersion: '6.3.0',
          fitMachineTypeId: String(spare.dataObject.machineTypeId),
        })
      ).body,
    ).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', 'ota.machineTypeUnknown') });
  });

  it('cancelling a panel mid-download stops its download; --ota-fail-rate fails installs; an install takes the panel offline and back', async () => {
    const { rows, panel } = await fleetOf('CANC', 1);
    const fileId = await publish('6.7.0', { size: 3_000_000 });
    proxy.slow.add(rows[0]!.device_key);
    const label = await labelOf('cancel', [rows[0]!.id]);
    const task = ota.forceUpdate.reply.parse(
      ok(
        await operator.post('/otaFile/forceUpdate', { tagIds: String(label), otaFileId: String(fileId) }),
        'force',
      ),
    ).dataObject.otaTaskId;
    await waitFor('the download to run', async () => {
      await server.app.devices.gateway.flushState();
      const [t] = await targets(task);
      const d = await server.app.db.kysely
        .selectFrom('devices')
        .select('ota_current')
        .where('id', '=', rows[0]!.id)
        .executeTakeFirstOrThrow();
      return t!.state === 'downloading' && (d.ota_current ?? 0) > 0;
    });
    ok(
      await operator.post('/otaTask/cancelDevice', {
        otaTaskId: String(task),
        deviceId: String(rows[0]!.id),
      }),
      'cancel',
    );
    const stopped = await waitFor('the panel to stop', () =>
      panel(rows[0]!.device_key).otaFailures.find((f) => f.detail === 'cancelled'),
    );
    expect(stopped).toBeTruthy();
    expect((await targets(task))[0]).toMatchObject({ state: 'cancelled', reason: 'operator' });
    expect(panel(rows[0]!.device_key).state.otaVersion).toBe('1.4.2');
    const cancelOrder = await waitFor('OTA_CANCEL acknowledged', async () => {
      const c = await server.app.db.kysely
        .selectFrom('commands')
        .select('status')
        .where('order_code', '=', 'OTA_CANCEL')
        .where('device_id', '=', rows[0]!.id)
        .executeTakeFirst();
      return c?.status === 'succeeded' ? c : undefined;
    });
    expect(cancelOrder.status).toBe('succeeded');
    proxy.slow.clear();

    const failing = await fleetOf('FAILR', 1, { otaFailRate: 1 });
    const rebooting = await fleetOf('REBOOT', 1, { installMs: 300 });
    const both = await labelOf('fail and reboot', [failing.rows[0]!.id, rebooting.rows[0]!.id]);
    const second = ota.forceUpdate.reply.parse(
      ok(
        await operator.post('/otaFile/forceUpdate', { tagIds: String(both), otaFileId: String(fileId) }),
        'force',
      ),
    ).dataObject.otaTaskId;
    const done = await waitFor('both to finish', async () => {
      const ts = await targets(second);
      return ts.every((t) => ['succeeded', 'failed'].includes(t.state)) ? ts : undefined;
    });
    expect(done.map((t) => [t.device_key.split('-')[0], t.state, t.reason])).toEqual([
      ['FAILR', 'failed', 'install'],
      ['REBOOT', 'succeeded', ''],
    ]);
    expect(rebooting.panel(rebooting.rows[0]!.device_key).state.otaVersion).toBe('6.7.0');
    expect(failing.panel(failing.rows[0]!.device_key).state.otaVersion).toBe('1.4.2');
  });

  it("carries the reminder of the panel's machine type and version in its language, which the panel shows before installing", async () => {
    const { rows, panel } = await fleetOf('REMIND', 1);
    const warning = ok(
      await admin.post('/warning/addWarning', {
        machineType: rows[0]!.machine_type!,
        otaVersion: '6.8.0',
        remark: 'probe',
      }),
      'reminder',
    ) as { dataObject: { warningId: number } };
    ok(
      await admin.post('/warningMessage/addWarningMessage', {
        warningId: String(warning.dataObject.warningId),
        language: 'en_US',
        message: 'Keep the panel powered during the update.',
      }),
      'reminder message',
    );
    const fileId = await publish('6.8.0', { types: [rows[0]!.machine_type!] });
    const progress: Array<{ taskId: string; done: number; total: number; finished: boolean }> = [];
    const unsubscribe = server.app.events.subscribe((message) => {
      if (message.kind === 'live' && message.event.type === 'taskProgress') progress.push(message.event);
    });
    const label = await labelOf('reminder', [rows[0]!.id]);
    const task = ota.forceUpdate.reply.parse(
      ok(
        await operator.post('/otaFile/forceUpdate', { tagIds: String(label), otaFileId: String(fileId) }),
        'force',
      ),
    ).dataObject.otaTaskId;
    await waitFor('the install', async () => (await targets(task))[0]!.state === 'succeeded');
    expect(panel(rows[0]!.device_key).shownReminders).toEqual([
      { version: '6.8.0', reminder: 'Keep the panel powered during the update.' },
    ]);
    const ack = await server.app.db.kysely
      .selectFrom('commands')
      .select('value')
      .where('order_code', '=', 'OTA')
      .where('device_id', '=', rows[0]!.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(ack.value)).toMatchObject({ reminder: 'Keep the panel powered during the update.' });
    // The live console hears the task's progress, ending with the finished count.
    await waitFor('the finished progress event', () =>
      progress.find((p) => p.taskId === String(task) && p.finished),
    );
    unsubscribe();
    expect(progress.filter((p) => p.taskId === String(task)).at(-1)).toMatchObject({ done: 1, total: 1 });
  });

  it('a timed task whose server comes back after the late window is missed, its panels skipped with the reason', async () => {
    const fileId = await publish('6.0.0');
    const label = await labelOf('late', [(await fleetOf('LATE', 1)).rows[0]!.id]);
    const at = new Date(server.clock.now() + 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const task = ota.forceUpdate.reply.parse(
      ok(
        await operator.post('/otaFile/forceUpdate', {
          tagIds: String(label),
          otaFileId: String(fileId),
          timeEnable: '1',
          upgradeTime: at,
          utcOffset: '0',
        }),
        'timed',
      ),
    ).dataObject.otaTaskId;
    // The server's clock jumps past the time and the 24 h late window, as after a long outage.
    const frozen = server.clock.time;
    server.clock.advance(3_600_000 + 24 * 3_600_000 + 1000);
    // A round of the engine's own timer may be under way with the old time: tick() then returns
    // that round, so a second tick runs one that reads the advanced clock.
    await server.app.ota.engine.tick();
    await server.app.ota.engine.tick();
    server.clock.time = frozen;
    const view = ota.getOtaTask.reply.parse(
      (await operator.get(`/otaTask/selectById?otaTaskId=${task}`)).body,
    ).dataObject;
    expect(view).toMatchObject({
      state: 'missed',
      deviceUpgradeState: '1',
      firedAt: null,
      stateReason: translate('en-US', 'ota.missed'),
    });
    expect((await targets(task)).map((t) => [t.state, t.reason])).toEqual([['skipped', 'lateWindowPassed']]);
  });

  it('staged waves take the panels that pass the skip rules in device order, in panels or percent, however many waves', async () => {
    const { rows } = await fleetOf('WAVES', 1);
    const db = server.app.db.kysely;
    const { org_id: orgId } = await db
      .selectFrom('devices')
      .select('org_id')
      .where('id', '=', rows[0]!.id)
      .executeTakeFirstOrThrow();
    // 300 panels written straight to the database (the tasks are timed: nothing is sent to them),
    // over several of the buckets of ids in which SQLite finds where waves end; every third is an
    // x9_vn that the file does not fit, so skipped rows lie between the others.
    const now = server.clock.now();
    const made = await db
      .insertInto('devices')
      .values(
        Array.from({ length: 300 }, (_, i) => ({
          org_id: orgId,
          device_key: `WAVES-${String(i).padStart(4, '0')}`,
          name: `Waves ${i}`,
          secret_hash: 'x'.repeat(64),
          machine_type: ['x9_vn', 'oem', 'rs'][i % 3]!,
          ota_version: '1.4.2',
          enrolled_at: now,
          utc_offset: 480,
        })),
      )
      .returning(['id', 'device_key', 'machine_type'])
      .execute();
    const label = await labelOf(
      'waves',
      made.map((d) => d.id),
    );
    const fileId = await publish('7.5.0', { types: ['oem', 'rs'] });
    const eligible = made
      .filter((d) => d.machine_type !== 'x9_vn')
      .sort((a, b) => a.id - b.id)
      .map((d) => d.device_key);
    expect(eligible).toHaveLength(200);
    const at = new Date(server.clock.now() + 24 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const cases = [
      // 10% then 30% of the 200 eligible: 20, then 60 a wave.
      { params: { waveMode: 'percent', firstWave: '10', waveStep: '30' }, first: 20, step: 60, waves: 4 },
      { params: { waveMode: 'count', firstWave: '5', waveStep: '20' }, first: 5, step: 20, waves: 11 },
      // 198 waves: more than the CASE over ids takes, so the rows are numbered instead.
      { params: { waveMode: 'count', firstWave: '3', waveStep: '1' }, first: 3, step: 1, waves: 198 },
    ];
    for (const c of cases) {
      const task = ota.forceUpdate.reply.parse(
        ok(
          await operator.post('/otaFile/forceUpdate', {
            tagIds: String(label),
            otaFileId: String(fileId),
            timeEnable: '1',
            upgradeTime: at,
            utcOffset: '0',
            ...c.params,
          }),
          `force ${JSON.stringify(c.params)}`,
        ),
      ).dataObject;
      expect(task).toMatchObject({ deviceCount: 300, skippedCount: 100, waveCount: c.waves });
      const waveOf = (key: string) => {
        const rank = eligible.indexOf(key) + 1;
        if (rank === 0) return -1;
        return rank <= c.first ? 0 : 1 + Math.floor((rank - c.first - 1) / c.step);
      };
      const got = await targets(task.otaTaskId);
      expect(got.map((t) => [t.device_key, t.state, t.wave])).toEqual(
        made
          .sort((a, b) => a.id - b.id)
          .map((d) => [d.device_key, waveOf(d.device_key) < 0 ? 'skipped' : 'queued', waveOf(d.device_key)]),
      );
      const sizes = await db
        .selectFrom('rollout_waves')
        .select(['wave', 'size'])
        .where('task_id', '=', task.otaTaskId)
        .orderBy('wave')
        .execute();
      expect(sizes.map((w) => w.size)).toEqual(
        Array.from({ length: c.waves }, (_, w) => got.filter((t) => t.wave === w).length),
      );
      expect(sizes.reduce((n, w) => n + w.size, 0)).toBe(200);
      // The manage dialog: a panel skipped when the task was made is in no wave.
      const listed = async (state: string) =>
        ota.listOtaTaskDevices.reply.parse(
          (
            await operator.get(
              `/otaTask/listDevice?otaTaskId=${task.otaTaskId}&start=1&size=100&state=${state}`,
            )
          ).body,
        ).listObject;
      expect((await listed('skipped')).map((d) => d.wave)).toEqual(Array(100).fill(null));
      expect((await listed('queued')).every((d) => d.wave !== null && d.wave >= 0)).toBe(true);
      ok(await operator.post(ota.cancelOtaTask.path, { otaTaskId: String(task.otaTaskId) }), 'cancel');
    }
  });

  it('holds under parallel requests: one file per upload and one per version', async () => {
    const t = tusTarget(server.url, operator);
    const uploadId = await tusUpload(t, firmwareBytes(5000, 777), 'race.bin');
    const x9 = String(machineTypeIds.get('x9_vn'));
    const same = await Promise.all(
      Array.from({ length: 8 }, () =>
        operator.post('/otaFile/insert', { uploadId, otaVersion: '6.5.0', fitMachineTypeId: x9 }),
      ),
    );
    expect(same.filter((r) => r.body.hhtStatus === 'success')).toHaveLength(1);
    expect(same.every((r) => r.status < 500)).toBe(true);
    const two = [
      await tusUpload(t, firmwareBytes(5000, 778), 'a.bin'),
      await tusUpload(t, firmwareBytes(5000, 779), 'b.bin'),
    ];
    const versions = await Promise.all(
      two.map((id) =>
        operator.post('/otaFile/insert', { uploadId: id, otaVersion: '6.6.0', fitMachineTypeId: x9 }),
      ),
    );
    expect(versions.map((r) => r.body.hhtStatus).sort()).toEqual(['fail', 'success']);
    const files = await server.app.db.kysely
      .selectFrom('ota_files')
      .select('id')
      .where('ota_version', 'in', ['6.5.0', '6.6.0'])
      .execute();
    expect(files).toHaveLength(2);
    const loser = two[versions.findIndex((r) => r.body.hhtStatus === 'fail')]!;
    expect(
      uploads.getUpload.reply.parse((await operator.get(`/upload/state?uploadId=${loser}`)).body).dataObject
        .state,
    ).toBe('complete');
  });

  it("refuses bad input clearly, in the caller's language, and changes nothing", async () => {
    const db = server.app.db.kysely;
    const snapshot = async () => ({
      files: (await db.selectFrom('ota_files').select('id').execute()).length,
      rules: (await db.selectFrom('ota_rules').select('id').execute()).length,
      tasks: (await db.selectFrom('rollout_tasks').select('id').execute()).length,
      targets: (await db.selectFrom('rollout_targets').select('id').execute()).length,
      versions: (await db.selectFrom('ota_versions').select('id').execute()).length,
      onDisk: fs.readdirSync(path.join(server.dataDir, 'files', 'ota')).length,
    });
    const fileId = await publish('5.0.0');
    const label = await labelOf('bad input', [(await fleetOf('BAD', 1)).rows[0]!.id]);
    const openTask = ota.forceUpdate.reply.parse(
      ok(
        await operator.post('/otaFile/forceUpdate', {
          tagIds: String(label),
          otaFileId: String(fileId),
          timeEnable: '1',
          upgradeTime: '2099-01-01 08:00:00',
        }),
        'timed',
      ),
    ).dataObject.otaTaskId;
    const before = await snapshot();
    const zh = (key: string, vars: Record<string, string | number> = {}) =>
      failWithKey(translate('zh-CN', key, vars), key, vars);
    const cn = { 'accept-language': 'zh-CN' };
    const t = tusTarget(server.url, operator, 'zh-CN');
    const empty = await tusCreate(t, 0, 'empty.bin');
    expect([empty.response.status, JSON.parse(empty.body)]).toEqual([400, zh('upload.empty')]);
    const big = await tusCreate(t, LIMIT + 1, 'big.bin');
    expect([big.response.status, JSON.parse(big.body)]).toEqual([
      413,
      zh('upload.tooLarge', { limit: '4.0 MB' }),
    ]);
    const dupUpload = await tusUpload(t, firmwareBytes(1000, 4242), 'dup.bin');
    expect(
      (
        await operator.post(
          '/otaFile/insert',
          { uploadId: dupUpload, otaVersion: '5.0.0', fitMachineTypeId: String(machineTypeIds.get('rs')) },
          cn,
        )
      ).body,
    ).toEqual(zh('ota.versionTaken', { version: '5.0.0' }));
    expect(fs.existsSync(path.join(server.dataDir, 'uploads', dupUpload))).toBe(true);
    expect(
      (
        await operator.post(
          '/otaRule/insert',
          { name: 'none', enableIp: '0', enableSn: '0', enableTimezone: '0' },
          cn,
        )
      ).body,
    ).toEqual(zh('otaRule.allOff'));
    expect(
      (
        await operator.post(
          '/otaRule/insert',
          { name: '', enableIp: '1', enableSn: '0', enableTimezone: '0' },
          cn,
        )
      ).body,
    ).toEqual(zh('otaRule.nameNull'));
    const rule = otaRules.insertOtaRule.reply.parse(
      ok(
        await operator.post('/otaRule/insert', {
          name: 'bad input rule',
          enableIp: '1',
          enableSn: '0',
          enableTimezone: '1',
        }),
        'rule',
      ),
    ).dataObject.otaRuleId;
    for (const ip of ['256.1.1.1', '10.0.0', '1.2.3.4/33', 'example.com'])
      expect(
        (await operator.post('/otaRule/addOtaRuleWhite', { otaRuleId: String(rule), ip }, cn)).body,
      ).toEqual(zh('otaRule.ipInvalid'));
    expect(
      (await operator.post('/otaRule/addOtaRuleWhite', { otaRuleId: String(rule), ip: '' }, cn)).body,
    ).toEqual(zh('otaRule.ipNull'));
    expect(
      (
        await operator.post(
          '/otaRule/addOtaRuleList',
          { otaRuleId: String(rule), timeZone: 'GMT+07:30', startTime: '2030-01-01 08:00:00' },
          cn,
        )
      ).body,
    ).toEqual(zh('otaRule.timeZoneInvalid'));
    expect(
      (
        await operator.post(
          '/otaRule/addOtaRuleList',
          { otaRuleId: String(rule), timeZone: 'GMT+08:00', startTime: '' },
          cn,
        )
      ).body,
    ).toEqual(zh('otaRule.timeNull'));
    expect(
      (await operator.post('/otaFile/forceUpdate', { tagIds: '', otaFileId: String(fileId) }, cn)).body,
    ).toEqual(zh('upgrade.nullLabel'));
    expect(
      (await operator.post('/otaFile/forceUpdate', { tagIds: '987654', otaFileId: String(fileId) }, cn)).body,
    ).toEqual(zh('upgrade.noLabel'));
    expect(
      (
        await operator.post(
          '/otaFile/forceUpdate',
          {
            tagIds: String(label),
            otaFileId: String(fileId),
            timeEnable: '1',
            upgradeTime: '2020-01-01 08:00:00',
          },
          cn,
        )
      ).body,
    ).toEqual(zh('ota.upgradeTimePast'));
    expect((await operator.post('/otaFile/delete', { otaFileId: String(fileId) }, cn)).body).toEqual(
      zh('ota.fileInUse', { count: 1 }),
    );
    const version = (
      await db.selectFrom('ota_versions').select('id').where('name', '=', '1.4.2').executeTakeFirstOrThrow()
    ).id;
    const inUse = await admin.post('/otaVersion/delete', { otaVersionId: String(version) }, cn);
    expect(inUse.body.hhtMsg).toMatch(/^该版本被 \d+ 个文件或设备引用，不能删除$/);
    ok(await operator.post('/otaTask/cancel', { otaTaskId: String(openTask) }), 'cancel the timed task');
    expect((await operator.post('/otaTask/cancel', { otaTaskId: String(openTask) }, cn)).body).toEqual(
      zh('ota.taskFinished'),
    );
    const after = await snapshot();
    expect({ ...after, rules: after.rules - 1 }).toEqual(before);
    console.log('bad input: 17 refusals in zh-CN, no file, task, row or stray byte added');
  });
});
