import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { failWithKey, ota, otaRules, translate, uploads } from '@panelfleet/contract';
import { describe, expect, it } from 'vitest';
import { verifyManifest } from '../src/security/firmware-signing.js';
import { backends } from './harness.js';
import { waitFor } from './device-helpers.js';
import { firmwareBytes, tusCreate, tusOffset, tusPatch, tusTarget, tusUpload } from './ota-helpers.js';
import { LIMIT, otaRig } from './ota-rig.js';

describe.each(backends)(
  'OTA files: resumable uploads, image checks, parallel requests and bad input on %s',
  (backend) => {
    const rig = otaRig(backend);
    const { ok, publish, fleetOf, labelOf, targets } = rig;

    it('R5 (in process): an upload cut at 50% resumes from its offset; until complete it is never a file', async () => {
      const content = firmwareBytes(1_000_000, 99);
      const t = tusTarget(rig.server.url, rig.operator);
      const created = await tusCreate(t, content.length, 'half.bin');
      expect(created.response.status).toBe(201);
      const uploadId = created.uploadId!;
      expect((await tusPatch(t, uploadId, 0, content.subarray(0, 500_000))).offset).toBe(500_000);
      expect(await tusOffset(t, uploadId)).toEqual({ status: 200, offset: 500_000 });
      const state = uploads.getUpload.reply.parse(
        (await rig.operator.get(`/upload/state?uploadId=${uploadId}`)).body,
      );
      expect(state.dataObject).toMatchObject({ state: 'receiving', offset: 500_000, size: content.length });
      const early = await rig.operator.post('/otaFile/insert', {
        uploadId,
        otaVersion: '7.0.0',
        fitMachineTypeId: String(rig.machineTypeIds.get('x9_vn')),
      });
      expect(early.body).toMatchObject({
        hhtStatus: 'fail',
        hhtMsg: translate('en-US', 'upload.incomplete'),
      });
      const listed = ota.listOtaFiles.reply.parse(
        (await rig.operator.get('/otaFile/list?start=1&size=50')).body,
      );
      expect(listed.listObject.map((f) => f.fileName)).not.toContain('half.bin');
      expect((await tusPatch(t, uploadId, 500_000, content.subarray(500_000))).offset).toBe(content.length);
      const done = uploads.getUpload.reply.parse(
        (await rig.operator.get(`/upload/state?uploadId=${uploadId}`)).body,
      ).dataObject;
      expect(done.state).toBe('complete');
      expect(done.sha256).toBe(crypto.createHash('sha256').update(content).digest('hex'));
      expect(done.md5).toBe(crypto.createHash('md5').update(content).digest('hex'));
      const id = ota.insertOtaFile.reply.parse(
        ok(
          await rig.operator.post('/otaFile/insert', {
            uploadId,
            otaVersion: '7.0.0',
            fitMachineTypeId: String(rig.machineTypeIds.get('x9_vn')),
          }),
          'insert',
        ),
      ).dataObject.id;
      const file = ota.getOtaFile.reply.parse(
        (await rig.operator.get(`/otaFile/selectById?otaFileId=${id}`)).body,
      ).dataObject;
      expect(file).toMatchObject({
        fileName: 'half.bin',
        fileSize: content.length,
        fileMd5: done.md5,
        sha256: done.sha256,
        finishUpgradeDeviceCount: 0,
        owned: '1',
      });
      const key = ota.firmwareKey.reply.parse((await rig.operator.get('/otaFile/signingKey')).body).dataObject
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
          rig.server.dataDir,
          'files',
          (
            await rig.server.app.db.kysely
              .selectFrom('ota_files')
              .select('stored_path')
              .where('id', '=', id)
              .executeTakeFirstOrThrow()
          ).stored_path,
        ),
      );
      expect(stored.equals(content)).toBe(true);
      expect(fs.existsSync(path.join(rig.server.dataDir, 'uploads', uploadId))).toBe(false);
      console.log(
        `R5 (in process): cut at 500000 of ${content.length} bytes, resumed at offset 500000; partial offered: 0 times`,
      );
    });

    it('R7: tampered, wrongly signed, wrong-model and downgrade images: 0 installed, each failed with its reason', async () => {
      const { rows, panel } = await fleetOf('R7', 5, { machineType: undefined } as never);
      const db = rig.server.app.db.kysely;
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
      const bytes = fs.readFileSync(path.join(rig.server.dataDir, 'files', tamperedPath));
      bytes[1000] = bytes[1000]! ^ 0xff;
      fs.writeFileSync(path.join(rig.server.dataDir, 'files', tamperedPath), bytes);
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
      const resigned = rig.server.app.ota.signer.sign(wmManifest);
      await db.updateTable('ota_files').set(resigned).where('id', '=', files.wrongModel).execute();
      // downgrade: the server believes the panel runs 1.0.0; it runs 1.4.2.
      await db.updateTable('devices').set({ ota_version: '1.0.0' }).where('id', '=', downgrade!.id).execute();

      const tasks: Record<string, number> = {};
      for (const [name, row] of Object.entries({ tampered, badSig, wrongModel, downgrade, control })) {
        const label = await labelOf(`r7 ${name}`, [row!.id]);
        tasks[name] = ota.forceUpdate.reply.parse(
          ok(
            await rig.operator.post('/otaFile/forceUpdate', {
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

    it('holds under parallel requests: one file per upload and one per version', async () => {
      const t = tusTarget(rig.server.url, rig.operator);
      const uploadId = await tusUpload(t, firmwareBytes(5000, 777), 'race.bin');
      const x9 = String(rig.machineTypeIds.get('x9_vn'));
      const same = await Promise.all(
        Array.from({ length: 8 }, () =>
          rig.operator.post('/otaFile/insert', { uploadId, otaVersion: '6.5.0', fitMachineTypeId: x9 }),
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
          rig.operator.post('/otaFile/insert', { uploadId: id, otaVersion: '6.6.0', fitMachineTypeId: x9 }),
        ),
      );
      expect(versions.map((r) => r.body.hhtStatus).sort()).toEqual(['fail', 'success']);
      const files = await rig.server.app.db.kysely
        .selectFrom('ota_files')
        .select('id')
        .where('ota_version', 'in', ['6.5.0', '6.6.0'])
        .execute();
      expect(files).toHaveLength(2);
      const loser = two[versions.findIndex((r) => r.body.hhtStatus === 'fail')]!;
      expect(
        uploads.getUpload.reply.parse((await rig.operator.get(`/upload/state?uploadId=${loser}`)).body)
          .dataObject.state,
      ).toBe('complete');
    });

    it("refuses bad input clearly, in the caller's language, and changes nothing", async () => {
      const db = rig.server.app.db.kysely;
      const snapshot = async () => ({
        files: (await db.selectFrom('ota_files').select('id').execute()).length,
        rules: (await db.selectFrom('ota_rules').select('id').execute()).length,
        tasks: (await db.selectFrom('rollout_tasks').select('id').execute()).length,
        targets: (await db.selectFrom('rollout_targets').select('id').execute()).length,
        versions: (await db.selectFrom('ota_versions').select('id').execute()).length,
        onDisk: fs.readdirSync(path.join(rig.server.dataDir, 'files', 'ota')).length,
      });
      const fileId = await publish('5.0.0');
      const label = await labelOf('bad input', [(await fleetOf('BAD', 1)).rows[0]!.id]);
      const openTask = ota.forceUpdate.reply.parse(
        ok(
          await rig.operator.post('/otaFile/forceUpdate', {
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
      const t = tusTarget(rig.server.url, rig.operator, 'zh-CN');
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
          await rig.operator.post(
            '/otaFile/insert',
            {
              uploadId: dupUpload,
              otaVersion: '5.0.0',
              fitMachineTypeId: String(rig.machineTypeIds.get('rs')),
            },
            cn,
          )
        ).body,
      ).toEqual(zh('ota.versionTaken', { version: '5.0.0' }));
      expect(fs.existsSync(path.join(rig.server.dataDir, 'uploads', dupUpload))).toBe(true);
      expect(
        (
          await rig.operator.post(
            '/otaRule/insert',
            { name: 'none', enableIp: '0', enableSn: '0', enableTimezone: '0' },
            cn,
          )
        ).body,
      ).toEqual(zh('otaRule.allOff'));
      expect(
        (
          await rig.operator.post(
            '/otaRule/insert',
            { name: '', enableIp: '1', enableSn: '0', enableTimezone: '0' },
            cn,
          )
        ).body,
      ).toEqual(zh('otaRule.nameNull'));
      const rule = otaRules.insertOtaRule.reply.parse(
        ok(
          await rig.operator.post('/otaRule/insert', {
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
          (await rig.operator.post('/otaRule/addOtaRuleWhite', { otaRuleId: String(rule), ip }, cn)).body,
        ).toEqual(zh('otaRule.ipInvalid'));
      expect(
        (await rig.operator.post('/otaRule/addOtaRuleWhite', { otaRuleId: String(rule), ip: '' }, cn)).body,
      ).toEqual(zh('otaRule.ipNull'));
      expect(
        (
          await rig.operator.post(
            '/otaRule/addOtaRuleList',
            { otaRuleId: String(rule), timeZone: 'GMT+07:30', startTime: '2030-01-01 08:00:00' },
            cn,
          )
        ).body,
      ).toEqual(zh('otaRule.timeZoneInvalid'));
      expect(
        (
          await rig.operator.post(
            '/otaRule/addOtaRuleList',
            { otaRuleId: String(rule), timeZone: 'GMT+08:00', startTime: '' },
            cn,
          )
        ).body,
      ).toEqual(zh('otaRule.timeNull'));
      expect(
        (await rig.operator.post('/otaFile/forceUpdate', { tagIds: '', otaFileId: String(fileId) }, cn)).body,
      ).toEqual(zh('upgrade.nullLabel'));
      expect(
        (await rig.operator.post('/otaFile/forceUpdate', { tagIds: '987654', otaFileId: String(fileId) }, cn))
          .body,
      ).toEqual(zh('upgrade.noLabel'));
      expect(
        (
          await rig.operator.post(
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
      expect((await rig.operator.post('/otaFile/delete', { otaFileId: String(fileId) }, cn)).body).toEqual(
        zh('ota.fileInUse', { count: 1 }),
      );
      const version = (
        await db.selectFrom('ota_versions').select('id').where('name', '=', '1.4.2').executeTakeFirstOrThrow()
      ).id;
      const inUse = await rig.admin.post('/otaVersion/delete', { otaVersionId: String(version) }, cn);
      expect(inUse.body.hhtMsg).toMatch(/^该版本被 \d+ 个文件或设备引用，不能删除$/);
      ok(
        await rig.operator.post('/otaTask/cancel', { otaTaskId: String(openTask) }),
        'cancel the timed task',
      );
      expect((await rig.operator.post('/otaTask/cancel', { otaTaskId: String(openTask) }, cn)).body).toEqual(
        zh('ota.taskFinished'),
      );
      const after = await snapshot();
      expect({ ...after, rules: after.rules - 1 }).toEqual(before);
      console.log('bad input: 17 refusals in zh-CN, no file, task, row or stray byte added');
    });
  },
);
