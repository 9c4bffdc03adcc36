import ExcelJS from 'exceljs';
import { reports } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { connectBare, enroll, enrollmentSecretOf, waitFor, type BareDevice } from './device-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** 2026-01-14 00:00 in Shanghai (UTC+8), a Wednesday. */
const WED = Date.UTC(2026, 0, 14) - 8 * HOUR;
const ZONE = 'Asia/Shanghai';

const form = (params: Record<string, string | number | undefined>) =>
  Object.fromEntries(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );

describe.each(backends)('reports on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let panel: BareDevice;
  let other: BareDevice;
  let otherOperator: TestClient;
  let otherKey: string;

  const publish = (target: BareDevice, key: string, kind: string, payload: object) =>
    target.client.publishAsync(`pf/v1/d/${key}/${kind}`, JSON.stringify({ v: 1, ...payload }), { qos: 1 });

  const usage = (id: string, from: number, minutes: number, app = 'Whiteboard', pkg = 'com.panel.board') => ({
    id,
    from,
    to: from + minutes * MIN,
    screenOnMs: minutes * MIN,
    records: [{ packageName: pkg, appName: app, startedAt: from, durationMs: minutes * MIN }],
  });

  const ask = async (path: string, params: Record<string, string | number | undefined>, client = operator) =>
    client.post(path, form({ timeZone: ZONE, start: 1, size: 50, ...params }));

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    server.clock.time = WED + 12 * HOUR;
    operator = await signedIn(server, 'operator1', 'operator123');
    const mqttUrl = `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
    panel = await connectBare(
      mqttUrl,
      await enroll(server.url, 'RPT-0001', await enrollmentSecretOf(operator)),
    );
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    otherOperator = await signedIn(server, 'b-operator', 'boperator123');
    otherKey = 'RPT-B-0001';
    other = await connectBare(
      mqttUrl,
      await enroll(server.url, otherKey, await enrollmentSecretOf(otherOperator)),
    );

    // Wednesday 10:00-10:30 and 23:50-00:10 (shared with Thursday), Monday 09:00-10:00, a
    // month earlier 1 h; the first report delivered twice.
    await publish(panel, 'RPT-0001', 'usage', usage('usage-wed-1000', WED + 10 * HOUR, 30));
    await publish(panel, 'RPT-0001', 'usage', usage('usage-wed-1000', WED + 10 * HOUR, 30));
    await publish(panel, 'RPT-0001', 'usage', usage('usage-wed-2350', WED + 23 * HOUR + 50 * MIN, 20));
    await publish(
      panel,
      'RPT-0001',
      'usage',
      usage('usage-mon-0900', WED - 2 * DAY + 9 * HOUR, 60, 'Browser', 'com.panel.browser'),
    );
    await publish(panel, 'RPT-0001', 'usage', usage('usage-dec-0900', WED - 31 * DAY + 9 * HOUR, 60));
    await publish(other, otherKey, 'usage', usage('usage-other-01', WED + 10 * HOUR, 45));
    for (const [id, at] of [
      ['log-wed-1', WED + 11 * HOUR],
      ['log-wed-2', WED + 11 * HOUR + MIN],
      ['log-wed-2', WED + 11 * HOUR + MIN],
    ] as const) {
      server.clock.time = at;
      await publish(panel, 'RPT-0001', 'log', {
        id,
        fileName: `${id}.txt`,
        appName: 'Whiteboard',
        model: 'PF-86',
        occurredAt: at,
        text: `ANR ${id}`,
      });
      await waitFor(
        `log ${id}`,
        async () =>
          (
            await server.app.db.kysely
              .selectFrom('abnormal_logs')
              .select('id')
              .where('report_id', '=', id)
              .execute()
          ).length === 1,
      );
    }
    server.clock.time = WED + 12 * HOUR;
    await waitFor('usage stored', async () => {
      const rows = await server.app.db.kysely.selectFrom('screen_time').select('id').execute();
      return rows.length === 5;
    });
  });
  afterAll(async () => {
    await panel?.close();
    await other?.close();
    await server?.stop();
  });

  it('stores a usage report delivered twice once (its id), so screen time is not doubled', async () => {
    const rows = await server.app.db.kysely
      .selectFrom('screen_time')
      .select('report_id')
      .where('report_id', '=', 'usage-wed-1000')
      .execute();
    expect(rows).toHaveLength(1);
    const apps = await server.app.db.kysely
      .selectFrom('app_usage')
      .select('id')
      .where('started_at', '=', WED + 10 * HOUR)
      .execute();
    expect(apps).toHaveLength(2); // this company's and the other's
  });

  it('groups app run time by day in the caller zone, clipping a record at midnight', async () => {
    const reply = reports.ureportRptAppTime.reply.parse(
      (
        await ask('/rptAppTime/ureportRptAppTime', {
          sign: 'day',
          startTime: '2026-01-12',
          endTime: '2026-01-15',
        })
      ).body,
    );
    expect(reply.listObject.map((r) => [r.groupDate, r.appName, r.totalTime])).toEqual([
      ['2026-01-12', 'Browser', 60 * MIN],
      ['2026-01-14', 'Whiteboard', 40 * MIN],
      ['2026-01-15', 'Whiteboard', 10 * MIN],
    ]);
    expect(reply.totalRecords).toBe(3);
    expect(reply.excel).toBe(reports.EXCEL_PATH);
    // Paged on the server.
    const second = reports.ureportRptAppTime.reply.parse(
      (
        await ask('/rptAppTime/ureportRptAppTime', {
          sign: 'day',
          startTime: '2026-01-12',
          endTime: '2026-01-15',
          start: 2,
          size: 2,
        })
      ).body,
    );
    expect(second.listObject.map((r) => r.groupDate)).toEqual(['2026-01-15']);
    expect(second.totalRecords).toBe(3);
    // A page past the end has no rows but still the total.
    const beyond = reports.ureportRptAppTime.reply.parse(
      (
        await ask('/rptAppTime/ureportRptAppTime', {
          sign: 'day',
          startTime: '2026-01-12',
          endTime: '2026-01-15',
          start: 5,
          size: 2,
        })
      ).body,
    );
    expect(beyond).toMatchObject({ listObject: [], totalRecords: 3 });
  });

  it('groups by week (Monday to Sunday), month and year, and covers the current period without dates', async () => {
    // Within a period: by device name, then package name (com.panel.board before com.panel.browser).
    const week = reports.ureportRptAppTime.reply.parse(
      (await ask('/rptAppTime/ureportRptAppTime', { sign: 'week', startTime: '2026-01-14' })).body,
    );
    expect(week.listObject.map((r) => [r.groupDate, r.appName, r.totalTime])).toEqual([
      ['2026-01-12 ~ 2026-01-18', 'Whiteboard', 50 * MIN],
      ['2026-01-12 ~ 2026-01-18', 'Browser', 60 * MIN],
    ]);
    const month = reports.ureportRptAppTime.reply.parse(
      (
        await ask('/rptAppTime/ureportRptAppTime', {
          sign: 'month',
          startTime: '2025-12-01',
          endTime: '2026-01-31',
        })
      ).body,
    );
    expect(month.listObject.map((r) => [r.groupDate, r.appName, r.totalTime])).toEqual([
      ['2025-12', 'Whiteboard', 60 * MIN],
      ['2026-01', 'Whiteboard', 50 * MIN],
      ['2026-01', 'Browser', 60 * MIN],
    ]);
    const year = reports.ureportRptAppTime.reply.parse(
      (await ask('/rptAppTime/ureportRptAppTime', { sign: 'year' })).body,
    );
    expect(year.listObject.map((r) => [r.groupDate, r.appName, r.totalTime])).toEqual([
      ['2026', 'Whiteboard', 50 * MIN],
      ['2026', 'Browser', 60 * MIN],
    ]);
    const recent = reports.ureportRptAppTime.reply.parse(
      (await ask('/rptAppTime/ureportRptAppTime', { sign: 'recent' })).body,
    );
    expect(recent.listObject.map((r) => r.groupDate)).toEqual(['2026-01-12', '2026-01-14']);
    const today = reports.ureportRptAppTime.reply.parse(
      (await ask('/rptAppTime/ureportRptAppTime', { sign: 'day' })).body,
    );
    expect(today.listObject.map((r) => [r.groupDate, r.totalTime])).toEqual([['2026-01-14', 40 * MIN]]);
  });

  it('reports device run time, error logs (a log sent twice counted once) and the operation log', async () => {
    const device = reports.ureportRptDeviceTime.reply.parse(
      (
        await ask('/rptDeviceTime/ureportRptDeviceTime', {
          sign: 'week',
          startTime: '2026-01-18',
          deviceName: 'rpt',
        })
      ).body,
    );
    expect(device.listObject).toEqual([
      {
        deviceName: 'RPT-0001',
        deviceKey: 'RPT-0001',
        totalTime: 110 * MIN,
        groupDate: '2026-01-12 ~ 2026-01-18',
      },
    ]);
    const errors = reports.ureportErrorLog.reply.parse(
      (await ask('/deviceErrorLog/ureportErrorLog', { sign: 'day', startTime: '2026-01-14' })).body,
    );
    expect(errors.listObject).toEqual([
      {
        deviceName: 'RPT-0001',
        deviceKey: 'RPT-0001',
        appName: 'Whiteboard',
        model: 'PF-86',
        total: 2,
        groupDate: '2026-01-14',
      },
    ]);
    await operator.post('/platform/group/insert', { groupName: 'report label' });
    const ops = reports.ureportOperationLog.reply.parse(
      (
        await ask('/platform/operationLog/ureportOperationLog', {
          startTime: '2026-01-14',
          endTime: '2026-01-14',
        })
      ).body,
    );
    expect(ops.listObject.some((r) => r.userName === 'operator1' && r.operatorIp === '127.0.0.1')).toBe(true);
    // Newest first: the label just made heads the first page, however long the day's log is.
    expect(ops.listObject[0]!.content).toContain('report label');
    const times = ops.listObject.map((r) => r.operatorTime);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Another company's report holds only its own rows.
    const foreign = reports.ureportRptAppTime.reply.parse(
      (await ask('/rptAppTime/ureportRptAppTime', { sign: 'day', startTime: '2026-01-14' }, otherOperator))
        .body,
    );
    expect(foreign.listObject.map((r) => [r.deviceKey, r.totalTime])).toEqual([[otherKey, 45 * MIN]]);
  });

  it('refuses the bad inputs of spec 3 section 5 clearly, in the caller language', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ sign: 'week' }, 'Please choose a date'],
      [
        { sign: 'day', startTime: '2026-01-14', endTime: '2026-01-10' },
        'The end date is before the start date',
      ],
      [{ sign: 'day', startTime: '2025-01-01', endTime: '2026-01-14' }, 'The range is too long'],
      [{ sign: 'recent', startTime: '2026-01-01', endTime: '2026-01-14' }, 'The range is too long'],
      [{ sign: 'month', startTime: '2020-01-01', endTime: '2026-01-14' }, 'The range is too long'],
      [{ sign: 'fortnight' }, 'Choose a time mode'],
      [{ sign: 'day', startTime: '2026-02-30' }, 'The date must be written'],
      [{ sign: 'day', timeZone: 'Mars/Olympus' }, 'The time zone is not valid'],
    ];
    for (const [params, message] of cases) {
      const reply = await ask('/rptAppTime/ureportRptAppTime', params);
      expect(reply.status, JSON.stringify(params)).toBe(400);
      expect(String(reply.body.hhtMsg)).toContain(message);
    }
    const chinese = new (operator.constructor as typeof TestClient)(server.url, 'zh-CN');
    chinese.setCookie('pf_session', operator.cookie('pf_session')!);
    const zh = await ask('/deviceErrorLog/ureportErrorLog', { sign: 'week' }, chinese);
    expect(zh.body.hhtMsg).toBe('请选择日期');
    const tooLong = await chinese.get(
      `/report/excel?${new URLSearchParams({ report: 'appTime', sign: 'day', startTime: '2024-01-01', endTime: '2026-01-01' })}`,
    );
    expect(tooLong.body.hhtMsg).toContain('时间范围超出');
  });

  it('exports a real .xlsx streamed row by row: header, typed cells, frozen header', async () => {
    const query = new URLSearchParams({
      report: 'appTime',
      sign: 'day',
      startTime: '2026-01-12',
      endTime: '2026-01-15',
      timeZone: ZONE,
      lang: 'zh-CN',
    });
    const response = await fetch(`${server.url}/report/excel?${query}`, {
      headers: { cookie: `pf_session=${operator.cookie('pf_session')}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('spreadsheetml');
    expect(response.headers.get('content-disposition')).toContain('appTime-2026-01-12-2026-01-15.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('设备应用运行时长报表');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '时间',
      '设备名称',
      '设备编号',
      '应用名称',
      '包名',
      '运行时长',
    ]);
    expect(sheet.rowCount).toBe(4);
    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toEqual(new Date('2026-01-12T00:00:00Z'));
    expect(first.getCell(1).numFmt).toBe('yyyy-mm-dd');
    expect(first.getCell(4).value).toBe('Browser');
    // A duration is a number of days formatted [h]:mm:ss (exceljs reads any date-like format back as a Date).
    expect(first.getCell(6).value).toEqual(new Date(Date.UTC(1899, 11, 30, 1)));
    expect(first.getCell(6).numFmt).toBe('[h]:mm:ss');
    expect(sheet.getColumn(5).width).toBe(32);

    const ops = await fetch(
      `${server.url}/report/excel?${new URLSearchParams({ report: 'operationLog', timeZone: ZONE })}`,
      {
        headers: { cookie: `pf_session=${operator.cookie('pf_session')}` },
      },
    );
    const opsBook = new ExcelJS.Workbook();
    await opsBook.xlsx.load(await ops.arrayBuffer());
    const opRow = opsBook.worksheets[0]!.getRow(2);
    expect(opRow.getCell(1).value).toBeInstanceOf(Date);
    expect(opRow.getCell(2).value).toBe('operator1');
  });

  it("refuses an export of another company's device like an unknown one, and shows the filters in the preview title", async () => {
    const foreign = await operator.get(
      `/report/excel?${new URLSearchParams({ report: 'appTime', deviceKey: otherKey })}`,
    );
    const unknown = await operator.get(
      `/report/excel?${new URLSearchParams({ report: 'appTime', deviceKey: 'NO-SUCH-PANEL' })}`,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect(foreign.body.hhtStatus).toBe('fail');

    const preview = await operator.get(
      `/report/preview?${new URLSearchParams({ report: 'deviceTime', sign: 'week', startTime: '2026-01-14', deviceName: 'RPT', timeZone: ZONE })}`,
    );
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toContain('text/html');
    expect(preview.text).toContain(
      '<title>Device run time report · By week · 2026-01-12 to 2026-01-18 · device name contains &quot;RPT&quot; · time zone Asia/Shanghai</title>',
    );
    expect(preview.text).toContain('<td class="n">1 h 50 min</td>');
    expect(preview.text).not.toContain(otherKey);
  });
});
