import sharp from 'sharp';
import { logs, oplog, reports, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enroll, enrollmentSecretOf } from './device-helpers.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';

/**
 * The operation log tells what happened in words, in the reader's language: label names instead
 * of ids, a command in words ("Brightness 42"), a template's changed fields instead of its JSON,
 * an image upload named an image; every operation type has a name. Rows written before the log
 * kept its content structured show their stored text.
 */
describe.each(backends)('the operation log in words on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let reader: TestClient;
  let labelId: number;

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await signedIn(server, 'operator1', 'operator123');
    reader = await signedIn(server, 'customer1', 'customer123');
    const secret = await enrollmentSecretOf(operator);
    await enroll(server.url, 'WORDS-0001', secret);
    await enroll(server.url, 'WORDS-0002', secret);
    const ids = (
      await server.app.db.kysely
        .selectFrom('devices')
        .select(['id', 'device_key'])
        .where('device_key', 'like', 'WORDS-%')
        .orderBy('device_key')
        .execute()
    ).map((d) => d.id);
    const made = await operator.post('/platform/group/insert', { groupName: 'Classrooms' });
    labelId = (made.body.dataObject as { groupId: number }).groupId;
    expect(
      (
        await operator.post('/platform/group/saveGroupsAndDevices', {
          deviceIds: ids.join(','),
          groupIds: String(labelId),
        })
      ).body.hhtStatus,
    ).toBe('success');
    const ok = async (reply: Promise<{ body: Record<string, unknown> }>) =>
      expect((await reply).body).toMatchObject({ hhtStatus: 'success' });
    await ok(
      operator.post('/sendData/sendCommandByDeviceId', {
        deviceId: String(ids[0]),
        order: '00',
        value: '42',
      }),
    );
    await ok(
      operator.post('/sendData/sendCommandByTagIds', { tagIds: String(labelId), order: '07', value: '1' }),
    );
    const template = await operator.post('/deviceSetting/addSetting', { type: '0', series: 'x9_vn' });
    const saved = JSON.parse((template.body.dataObject as { jsonData: string }).jsonData) as {
      platformMsg: { powerOnOffSetting: Record<string, unknown> };
    };
    saved.platformMsg.powerOnOffSetting.autoPowerOn = true;
    saved.platformMsg.powerOnOffSetting.powerOnTime = '07:40';
    await ok(
      operator.post('/deviceSetting/updateSetting', {
        id: String(template.body.id),
        jsonData: JSON.stringify(saved),
      }),
    );
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('fileType', '1');
    form.append('uiFile', new Blob([png]), 'poster.png');
    const upload = await fetch(`${server.url}/material/insertMaterial`, {
      method: 'POST',
      headers: { cookie: `pf_session=${operator.cookie('pf_session')}` },
      body: form,
    });
    expect(((await upload.json()) as { hhtStatus: string }).hhtStatus).toBe('success');
    // A row written before the log kept its content structured (migration 035).
    await server.app.db.kysely
      .insertInto('operation_logs')
      .values({
        org_id: server.accounts.customerId,
        user_id: null,
        user_name: 'operator1',
        user_type: '4',
        action: 'label.assign',
        content: 'labels 1,4,5 for devices OLD-1',
        detail: null,
        ip: '10.0.0.9',
        created_at: 1,
      })
      .execute();
  });
  afterAll(async () => {
    await server.stop();
  });

  const list = async (language: string, content?: string) => {
    reader.language = language;
    const reply = await reader.post('/platform/operationLog/list', {
      start: '1',
      size: '50',
      ...(content ? { content } : {}),
    });
    return logs.listOperationLog.reply.parse(reply.body).listObject;
  };
  const contentOf = (rows: logs.OperationLogRecord[], type: string) =>
    rows.filter((r) => r.operationType === type).map((r) => r.content);

  it('names labels, commands, changed fields and uploads in English', async () => {
    const rows = await list('en-US');
    expect(contentOf(rows, 'label.create')).toEqual(['Classrooms']);
    expect(contentOf(rows, 'label.assign')).toEqual([
      'Labels of WORDS-0001, WORDS-0002: Classrooms',
      'labels 1,4,5 for devices OLD-1',
    ]);
    expect(contentOf(rows, 'command.send')).toEqual(['WORDS-0001 (WORDS-0001): Brightness 42']);
    expect(contentOf(rows, 'command.labelSend')).toEqual(['Classrooms: Mute on, 2 panels']);
    expect(contentOf(rows, 'settingTemplate.update')[0]).toMatch(
      /^Template x9_vn \(No\. \d+\): Power setting › Auto power-on, Power setting › Power-on time$/,
    );
    expect(contentOf(rows, 'insertMaterial')[0]).toMatch(/^Image poster\.png \(PNG, \d+ B\)$/);
    for (const row of rows) expect(row.content).not.toMatch(/\{"|platformMsg/);
  });

  it('says the same in Chinese, and a console can say it from the structured content', async () => {
    const rows = await list('zh-CN');
    expect(contentOf(rows, 'command.send')).toEqual(['WORDS-0001 (WORDS-0001)：亮度 42']);
    expect(contentOf(rows, 'command.labelSend')).toEqual(['Classrooms：静音 开，2 台设备']);
    expect(contentOf(rows, 'insertMaterial')[0]).toMatch(/^图片 poster\.png（PNG，\d+ B）$/);
    const command = rows.find((r) => r.operationType === 'command.send')!;
    expect(oplog.operationText(command.detail!, (key, vars) => translate('en-US', key, vars))).toBe(
      'WORDS-0001 (WORDS-0001): Brightness 42',
    );
    // The old row keeps its text and has nothing structured.
    expect(rows.find((r) => r.content === 'labels 1,4,5 for devices OLD-1')?.detail).toBeNull();
    // Every type written here has a name in both languages.
    for (const row of rows)
      for (const language of ['en-US', 'zh-CN'] as const)
        expect(oplog.operationTypeText(row.operationType, (k) => translate(language, k))).not.toBe(
          row.operationType,
        );
  });

  it('finds rows by what either language shows', async () => {
    expect(contentOf(await list('en-US', 'Brightness 42'), 'command.send')).toHaveLength(1);
    expect(contentOf(await list('zh-CN', '亮度'), 'command.send')).toHaveLength(1);
    expect(await list('en-US', 'platformMsg')).toEqual([]);
  });

  it('puts the report and its preview into words, types included', async () => {
    const day = new Date(server.clock.now()).toISOString().slice(0, 10);
    operator.language = 'zh-CN';
    const page = reports.ureportOperationLog.reply.parse(
      (
        await operator.post('/platform/operationLog/ureportOperationLog', {
          start: '1',
          size: '50',
          startTime: day,
          endTime: day,
          timeZone: 'UTC',
        })
      ).body,
    );
    expect(page.listObject.find((r) => r.operationType === 'command.send')?.content).toBe(
      'WORDS-0001 (WORDS-0001)：亮度 42',
    );
    const preview = await operator.get(
      `/report/preview?report=operationLog&startTime=${day}&endTime=${day}&timeZone=UTC&lang=zh-CN`,
    );
    expect(preview.text).toContain('远程控制');
    expect(preview.text).toContain('亮度 42');
    expect(preview.text).toContain('上传素材');
    expect(preview.text).toContain('图片 poster.png');
    expect(preview.text).not.toContain('command.send');
    const english = await operator.get(
      `/report/preview?report=operationLog&startTime=${day}&endTime=${day}&timeZone=UTC&lang=en-US`,
    );
    expect(english.text).toContain('Remote command');
    expect(english.text).toContain('Upload material');
    expect(english.text).not.toContain('Upload audio');
  });
});
