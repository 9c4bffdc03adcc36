import { logs, tips, device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { connectBare, enroll, enrollmentSecretOf, waitFor, type BareDevice } from './device-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, TestClient, type TestServer } from './harness.js';

describe.each(backends)('logs, error tips and reminders on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let manager: TestClient;
  let sales: TestClient;
  let otherSales: TestClient;
  let admin: TestClient;
  let panel: BareDevice;
  let credentials: { deviceKey: string; password: string };

  const basic = (user: string, password: string) =>
    `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const upload = (body: object, auth = basic(credentials.deviceKey, credentials.password)) =>
    fetch(`${server.url}/device/abnormalLog`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth },
      body: JSON.stringify(body),
    });
  const logRow = (reportId: string) =>
    server.app.db.kysely
      .selectFrom('abnormal_logs')
      .select(['id', 'text', 'status', 'processed_by'])
      .where('report_id', '=', reportId)
      .execute();
  const zh = (client: TestClient) => {
    const copy = new TestClient(server.url, 'zh-CN');
    copy.setCookie('pf_session', client.cookie('pf_session')!);
    return copy;
  };

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-sales', password: 'bsales123', userType: '1' },
    ]);
    operator = await signedIn(server, 'operator1', 'operator123');
    manager = await signedIn(server, 'manager1', 'manager123');
    sales = await signedIn(server, 'sales1', 'sales123');
    otherSales = await signedIn(server, 'b-sales', 'bsales123');
    admin = await signedIn(server, 'admin', 'admin123');
    const enrolled = await enroll(server.url, 'LOG-0001', await enrollmentSecretOf(operator));
    credentials = { deviceKey: enrolled.deviceKey, password: enrolled.password };
    // The panel answers commands itself below (a refusal with an error code).
    panel = await connectBare(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, enrolled, {
      autoAck: false,
    });
  });
  afterAll(async () => {
    await panel?.close();
    await server?.stop();
  });

  it('takes a log too large for MQTT whole by HTTP upload, once per id, with the panel credentials only', async () => {
    // 200,000 Chinese characters: ~600 KB, more than the 256 KiB an MQTT log may have.
    const text = `${'日志'.repeat(100_000)}END`;
    const log = {
      v: 1,
      id: 'big-log-0001',
      fileName: 'anr-big.txt',
      appName: 'Whiteboard',
      model: 'PF-86',
      occurredAt: 1,
      text,
    };
    expect(Buffer.byteLength(JSON.stringify(log))).toBeGreaterThan(device.MAX_LOG_PAYLOAD_BYTES);
    const first = await upload(log);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      hhtStatus: 'success',
      dataObject: { id: 'big-log-0001', stored: true },
    });
    const again = await upload(log);
    expect(await again.json()).toMatchObject({ dataObject: { stored: false } });
    const rows = await logRow('big-log-0001');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.text).toBe(text);

    expect((await upload({ ...log, id: 'big-log-0002' }, basic(credentials.deviceKey, 'wrong'))).status).toBe(
      401,
    );
    expect((await upload({ ...log, id: 'big-log-0003' }, '')).status).toBe(401);
    const invalid = await upload({ ...log, id: 'x' });
    expect(invalid.status).toBe(400);
    expect(await logRow('big-log-0002')).toEqual([]);

    // A small log over MQTT, sent twice, is stored once too.
    for (let i = 0; i < 2; i++)
      await panel.client.publishAsync(
        'pf/v1/d/LOG-0001/log',
        JSON.stringify({
          v: 1,
          id: 'small-log-01',
          fileName: 'anr-small.txt',
          appName: 'Browser',
          occurredAt: 2,
          text: 'ANR small',
        }),
        { qos: 1 },
      );
    await waitFor('the small log', async () => (await logRow('small-log-01')).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await logRow('small-log-01')).toHaveLength(1);
  });

  it('lists, pages, downloads and processes abnormal logs within the caller reach only', async () => {
    const list = logs.listAbnormalLog.reply.parse(
      (await manager.get('/deviceErrorLog/list?start=1&size=10')).body,
    );
    expect(list.listObject.map((r) => r.fileName).sort()).toEqual(['anr-big.txt', 'anr-small.txt']);
    const big = list.listObject.find((r) => r.fileName === 'anr-big.txt')!;
    expect(big.textLength).toBe(200_003);
    expect(big.deviceName).toBe('LOG-0001');
    // Filters: app name, model, device key, upload day.
    const byApp = logs.listAbnormalLog.reply.parse(
      (await manager.get('/deviceErrorLog/list?appName=brow')).body,
    );
    expect(byApp.listObject.map((r) => r.fileName)).toEqual(['anr-small.txt']);
    const byModel = logs.listAbnormalLog.reply.parse(
      (await manager.get('/deviceErrorLog/list?model=PF-86')).body,
    );
    expect(byModel.listObject.map((r) => r.fileName)).toEqual(['anr-big.txt']);
    const otherDay = logs.listAbnormalLog.reply.parse(
      (await manager.get('/deviceErrorLog/list?uploadDate=2001-01-01')).body,
    );
    expect(otherDay.totalRecords).toBe(0);
    // A distributor sees its customers' logs; another distributor none; a company administrator is refused.
    expect(
      logs.listAbnormalLog.reply.parse((await sales.get('/deviceErrorLog/list')).body).totalRecords,
    ).toBe(2);
    expect(
      logs.listAbnormalLog.reply.parse((await otherSales.get('/deviceErrorLog/list')).body).totalRecords,
    ).toBe(0);
    expect((await operator.get('/deviceErrorLog/list')).status).toBe(403);

    const page1 = logs.viewErrorLog.reply.parse(
      (await manager.post('/deviceErrorLog/viewErrorLog', { id: String(big.id) })).body,
    );
    expect(page1.listObject).toHaveLength(logs.LOG_PAGE_CHARS);
    expect(page1.dataObject).toMatchObject({ page: 1, pages: 7, textLength: 200_003 });
    const last = logs.viewErrorLog.reply.parse(
      (await manager.post('/deviceErrorLog/viewErrorLog', { id: String(big.id), page: '7' })).body,
    );
    expect(last.listObject.endsWith('END')).toBe(true);
    const beyond = await manager.post('/deviceErrorLog/viewErrorLog', { id: String(big.id), page: '8' });
    expect(beyond.body.hhtStatus).toBe('fail');
    const foreign = await otherSales.post('/deviceErrorLog/viewErrorLog', { id: String(big.id) });
    const unknown = await otherSales.post('/deviceErrorLog/viewErrorLog', { id: '987654' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);

    const download = await manager.get(`/deviceErrorLog/download?id=${big.id}`);
    expect(download.headers.get('content-disposition')).toContain('anr-big.txt');
    expect(download.text).toBe(`${'日志'.repeat(100_000)}END`);

    expect(
      (await otherSales.post('/deviceErrorLog/updateStatus', { id: String(big.id), status: '1' })).status,
    ).toBe(404);
    expect(
      (await manager.post('/deviceErrorLog/updateStatus', { id: String(big.id), status: '0' })).status,
    ).toBe(400);
    // Two operators process it at once: one succeeds, the other is told it was processed.
    const replies = await Promise.all([
      manager.post('/deviceErrorLog/updateStatus', { id: String(big.id), status: '1' }),
      zh(sales).post('/deviceErrorLog/updateStatus', { id: String(big.id), status: '1' }),
    ]);
    expect(replies.map((r) => r.body.hhtStatus).sort()).toEqual(['fail', 'success']);
    const refused = replies.find((r) => r.body.hhtStatus === 'fail')!;
    expect(['The log was already processed', '该日志已处理']).toContain(refused.body.hhtMsg);
    const [row] = await logRow('big-log-0001');
    expect(row!.status).toBe(1);
    expect(['manager1', 'sales1']).toContain(row!.processed_by);
  });

  it('lists the organisation operation log newest first, searched by any part of the content', async () => {
    await operator.post('/platform/group/insert', { groupName: 'Lobby screens' });
    const customer = await signedIn(server, 'customer1', 'customer123');
    const all = logs.listOperationLog.reply.parse(
      (await customer.post('/platform/operationLog/list', { start: '1', size: '50' })).body,
    );
    expect(all.listObject.length).toBeGreaterThan(0);
    const found = logs.listOperationLog.reply.parse(
      (await customer.post('/platform/operationLog/list', { content: 'LOBBY SCREENS' })).body,
    );
    expect(found.listObject.map((r) => [r.userName, r.operatorIp])).toEqual([['operator1', '127.0.0.1']]);
    // Other organisations' rows are not there: the manager's processing was in the same company, the distributor's is not.
    const processed = logs.listOperationLog.reply.parse(
      (await manager.post('/platform/operationLog/list', { content: 'processed abnormal log' })).body,
    );
    expect(processed.listObject.every((r) => r.userName === 'manager1')).toBe(true);
    expect((await operator.post('/platform/operationLog/list', {})).status).toBe(403);
  });

  it('keeps one error tip per code and language, and shows it beside a failed command in the operator language', async () => {
    const add = (language: string, message: string, client = admin) =>
      client.post('/errorTips/addTips', { tipsCode: 'download', language, message });
    const parallel = await Promise.all([
      add('en-US', 'The panel could not download the file'),
      add('en-US', 'twice'),
    ]);
    expect(parallel.map((r) => r.body.hhtStatus).sort()).toEqual(['fail', 'success']);
    expect(parallel.find((r) => r.body.hhtStatus === 'fail')!.body.hhtMsg).toBe(
      'This error code already has a tip in this language',
    );
    expect((await add('zh-CN', '面板无法下载文件')).body.hhtStatus).toBe('success');
    const empty = await zh(admin).post('/errorTips/addTips', {
      tipsCode: '',
      language: 'zh-CN',
      message: 'x',
    });
    expect(empty.body.hhtMsg).toBe('请把内容填写完全');
    const emptyEdit = await zh(admin).post('/errorTips/updateTips', {
      id: '1',
      tipsCode: 'download',
      language: '',
      message: 'x',
    });
    expect(emptyEdit.body.hhtMsg).toBe('请填写完全！');
    expect((await add('fr-FR', 'x')).status).toBe(400);
    expect(
      (await operator.post('/errorTips/addTips', { tipsCode: 'a', language: 'en-US', message: 'x' })).status,
    ).toBe(403);

    const list = tips.listTips.reply.parse(
      (await admin.get('/errorTips/listTips?tipsCode=down&size=10')).body,
    );
    expect(list.listObject.map((t) => t.language)).toEqual(['en-US', 'zh-CN']);
    const english = list.listObject.find((t) => t.language === 'en-US')!;
    const chinese = list.listObject.find((t) => t.language === 'zh-CN')!;
    // Changing the Chinese tip into the English one's code and language is a duplicate.
    const clash = await admin.post('/errorTips/updateTips', {
      id: String(chinese.id),
      tipsCode: 'download',
      language: 'en-US',
      message: 'x',
    });
    expect(clash.body.hhtMsg).toBe('This error code already has a tip in this language');
    expect(
      (
        await admin.post('/errorTips/updateTips', {
          id: String(english.id),
          tipsCode: 'download',
          language: 'en-US',
          message: 'Download failed: check the network',
        })
      ).body.hhtStatus,
    ).toBe('success');

    // A command the panel refuses with detail "download": the feedback log shows the tip.
    const sent = await operator.post('/sendData/sendCommandByDeviceId', {
      deviceId: String(
        (
          await server.app.db.kysely
            .selectFrom('devices')
            .select('id')
            .where('device_key', '=', 'LOG-0001')
            .executeTakeFirstOrThrow()
        ).id,
      ),
      order: '01',
      value: '30',
    });
    const commandId = String((sent.body.dataObject as { commandId: string }).commandId);
    await panel.client.publishAsync(
      'pf/v1/d/LOG-0001/ack',
      JSON.stringify({ v: 1, id: commandId, result: 'failed', detail: 'download' }),
    );
    await waitFor(
      'the command failed',
      async () =>
        (
          await server.app.db.kysely
            .selectFrom('commands')
            .select('status')
            .where('id', '=', commandId)
            .executeTakeFirst()
        )?.status === 'failed',
    );
    const feedback = device.listFeedback.reply.parse(
      (await operator.get('/platform/feedback/listFeedbackInfo?start=1&size=5')).body,
    );
    expect(feedback.listObject[0]).toMatchObject({
      uuid: commandId,
      status: 'fail',
      detail: 'download',
      tip: 'Download failed: check the network',
    });
    const feedbackZh = device.listFeedback.reply.parse(
      (await zh(operator).get('/platform/feedback/listFeedbackInfo?start=1&size=5')).body,
    );
    expect(feedbackZh.listObject[0]!.tip).toBe('面板无法下载文件');

    expect((await admin.post('/errorTips/deleteTips', { id: String(chinese.id) })).body.hhtStatus).toBe(
      'success',
    );
    expect((await admin.post('/errorTips/deleteTips', { id: String(chinese.id) })).status).toBe(404);
  });

  it('keeps reminders per machine type and version with one message per language of the 36, and answers the OTA dispatch', async () => {
    const added = await sales.post('/warning/addWarning', {
      machineType: ' x9_vn ',
      otaVersion: '1.5.0',
      remark: 'Keep power on',
    });
    expect(added.body.hhtStatus).toBe('success');
    const warningId = String((added.body.dataObject as { warningId: number }).warningId);
    expect(
      (await sales.post('/warning/addWarning', { machineType: 'x9_vn', otaVersion: '1.5.0' })).body.hhtMsg,
    ).toBe('This machine type and version already have a reminder');
    expect(
      (await zh(admin).post('/warning/addWarning', { machineType: '  ', otaVersion: '1.5.0' })).body.hhtMsg,
    ).toBe('请输入机型名称');
    expect(
      (await zh(admin).post('/warning/addWarning', { machineType: 'oem', otaVersion: '' })).body.hhtMsg,
    ).toBe('请输入版本名称');
    expect((await manager.post('/warning/addWarning', { machineType: 'oem', otaVersion: '1' })).status).toBe(
      403,
    );

    const message = (language: string, text: string) =>
      sales.post('/warningMessage/addWarningMessage', { warningId, language, message: text });
    expect((await message('zh_CN', ' 升级期间请勿断电 ')).body.hhtStatus).toBe('success');
    expect((await message('de_DE', 'Während des Updates nicht ausschalten')).body.hhtStatus).toBe('success');
    expect((await message('de_DE', 'twice')).body.hhtMsg).toBe(
      'This reminder already has a message in this language',
    );
    const outside = await zh(sales).post('/warningMessage/addWarningMessage', {
      warningId,
      language: 'xx_XX',
      message: 'x',
    });
    expect(outside.status).toBe(400);
    expect(outside.body.hhtMsg).toBe('请选择语言');
    expect(
      (
        await sales.post('/warningMessage/addWarningMessage', {
          warningId: '987654',
          language: 'en_US',
          message: 'x',
        })
      ).status,
    ).toBe(404);

    const messages = tips.listWarningMessage.reply.parse(
      (await manager.get(`/warningMessage/listWarningMessage?warningId=${warningId}&start=1&size=10`)).body,
    );
    expect(messages.listObject.map((m) => [m.language, m.message])).toEqual([
      ['de_DE', 'Während des Updates nicht ausschalten'],
      ['zh_CN', '升级期间请勿断电'],
    ]);
    const german = messages.listObject[0]!;
    const locked = await sales.post('/warningMessage/updateWarningMessage', {
      warningMessageId: String(german.warningMessageId),
      language: 'fr_FR',
      message: 'x',
    });
    expect(locked.body.hhtMsg).toBe('The language of a message cannot be changed');
    expect(
      (
        await sales.post('/warningMessage/updateWarningMessage', {
          warningMessageId: String(german.warningMessageId),
          language: 'de_DE',
          message: 'Bitte nicht ausschalten',
        })
      ).body.hhtStatus,
    ).toBe('success');

    const list = tips.listWarning.reply.parse(
      (await manager.get('/warning/listWarning?machineType=X9')).body,
    );
    expect(list.listObject).toMatchObject([
      {
        machineType: 'x9_vn',
        otaVersion: '1.5.0',
        remark: 'Keep power on',
        createMan: 'sales1',
        languages: ['de_DE', 'zh_CN'],
      },
    ]);

    // The OTA dispatch to a panel of the distributor's customer: the panel's language, the same
    // language's first code, then English.
    const company = (
      await server.app.db.kysely
        .selectFrom('users')
        .select('org_id')
        .where('user_name', '=', 'operator1')
        .executeTakeFirstOrThrow()
    ).org_id;
    const reminderFor = (version: string, language: string, orgId = company) =>
      server.app.tips.reminderFor(orgId, 'x9_vn', version, language);
    expect(await reminderFor('1.5.0', 'de_de')).toBe('Bitte nicht ausschalten');
    expect(await reminderFor('1.5.0', 'zh-CN')).toBe('升级期间请勿断电');
    expect(await reminderFor('1.5.0', 'ja_JP')).toBeUndefined();
    expect(await reminderFor('1.6.0', 'de_DE')).toBeUndefined();

    // Issue 25 item 10: the reminder is the distributor's. Another distributor neither sees nor
    // changes it, and its panels do not get it; the platform's own reminder reaches every panel,
    // after the distributor's own.
    const succeeded = (reply: { body: Record<string, unknown>; text: string }) => {
      if (reply.body.hhtStatus !== 'success') throw new Error(reply.text);
      return reply.body as { dataObject?: { warningId: number } };
    };
    expect(
      tips.listWarning.reply.parse((await otherSales.get('/warning/listWarning?start=1&size=50')).body)
        .listObject,
    ).toEqual([]);
    for (const [path, fields] of [
      ['/warning/updateWarning', { warningId, machineType: 'x9_vn', otaVersion: '1.5.1', remark: '' }],
      ['/warning/deleteWarning', { warningId }],
      ['/warningMessage/addWarningMessage', { warningId, language: 'fr_FR', message: 'Non' }],
      [
        '/warningMessage/updateWarningMessage',
        { warningMessageId: String(german.warningMessageId), language: 'de_DE', message: 'Nein' },
      ],
      ['/warningMessage/deleteWarningMessage', { warningMessageId: String(german.warningMessageId) }],
    ] as const)
      expect((await otherSales.post(path, fields)).body, path).toMatchObject({ hhtStatus: 'fail' });
    expect(await reminderFor('1.5.0', 'de_DE')).toBe('Bitte nicht ausschalten');
    const elsewhere = await server.app.db.kysely
      .insertInto('organisations')
      .values({
        parent_id: null,
        kind: 'customer',
        name: 'Elsewhere',
        user_quota: 0,
        created_at: 0,
        salesperson_id: null,
        license_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await reminderFor('1.5.0', 'de_DE', elsewhere.id)).toBeUndefined();
    const platformOwn = String(
      succeeded(await admin.post('/warning/addWarning', { machineType: 'x9_vn', otaVersion: '1.5.0' }))
        .dataObject!.warningId,
    );
    succeeded(
      await admin.post('/warningMessage/addWarningMessage', {
        warningId: platformOwn,
        language: 'de_DE',
        message: 'Plattform',
      }),
    );
    expect(await reminderFor('1.5.0', 'de_DE', elsewhere.id)).toBe('Plattform');
    expect(await reminderFor('1.5.0', 'de_DE')).toBe('Bitte nicht ausschalten');
    expect((await admin.post('/warning/deleteWarning', { warningId })).body.hhtStatus).toBe('fail');
    succeeded(await admin.post('/warning/deleteWarning', { warningId: platformOwn }));

    expect((await sales.post('/warning/deleteWarning', { warningId })).body.hhtStatus).toBe('success');
    const orphans = await server.app.db.kysely.selectFrom('warning_messages').select('id').execute();
    expect(orphans).toEqual([]);
  });
});
