import ExcelJS from 'exceljs';
import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type SeededAccounts } from '../src/dev/seed-accounts.js';
import { csvField } from '../src/modules/devices/export-documents.js';
import { DeviceExportService } from '../src/modules/devices/export-service.js';
import { DeviceListRepository } from '../src/modules/devices/list-repository.js';
import { DeviceRepository } from '../src/modules/devices/repository.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';
import { enroll, enrollmentSecretOf } from './device-helpers.js';

const THROTTLE = { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } };

/** RFC 4180 records of a CSV text (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && ch === '"') quoted = false;
    else if (quoted) field += ch;
    else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field || record.length) records.push([...record, field]);
  return records;
}

/** Panels of one organisation: serial → the name, labels and remark they are given. */
const FLEET_A: Record<string, { name: string; tag: string; remark: string }> = {
  'EXP-A1': { name: 'Hall, east', tag: 'Floor 1-Science', remark: 'by the stairs' },
  'EXP-A2': { name: 'Say "hi"', tag: 'Floor 1', remark: 'line one\nline two' },
  'EXP-A3': { name: '=SUM(A1)', tag: 'Floor 2', remark: '@cmd' },
  'EXP-A4': { name: '+1 lobby', tag: 'Floor 2', remark: '-2' },
};
const FLEET_B = { 'EXP-B1': { name: 'Hall B', tag: 'Other', remark: 'tenant b' } };

async function enrollAndName(server: TestServer, operator: TestClient, fleet: typeof FLEET_A) {
  const secret = await enrollmentSecretOf(operator);
  for (const [serial, edit] of Object.entries(fleet)) {
    await enroll(server.url, serial, secret);
    const list = device.listDevices.reply.parse(
      (await operator.get(`/platform/device/list?start=1&size=10&deviceName=${serial}`)).body,
    );
    const id = list.listObject.find((d) => d.deviceKey === serial)!.deviceId;
    const saved = await operator.post('/platform/device/update', {
      deviceId: String(id),
      deviceName: edit.name,
      deviceKey: serial,
      tag: edit.tag,
      remark: edit.remark,
      state: '1',
    });
    expect(saved.body.hhtStatus).toBe('success');
  }
}

/** The export as the browser downloads it: the bytes, a byte order mark first. */
const exportCsv = async (server: TestServer, client: TestClient, query: string) => {
  const response = await fetch(`${server.url}${device.DEVICE_EXPORT_PATH}?format=csv${query}`, {
    headers: { cookie: `pf_session=${client.cookie('pf_session')}`, 'accept-language': client.language },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/csv');
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parseCsv(bytes.subarray(3).toString('utf8'));
};

describe.each(backends)('device list export on %s', (backend) => {
  let server: TestServer;
  let a: TestClient;
  let b: TestClient;
  let other: SeededAccounts;

  beforeAll(async () => {
    server = await startServer(backend, {}, THROTTLE);
    other = await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    a = await signedIn(server, 'operator1', 'operator123');
    b = await signedIn(server, 'b-operator', 'boperator123');
    await enrollAndName(server, a, FLEET_A);
    await enrollAndName(server, b, FLEET_B);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('writes every panel of the caller in list order, quoted, formulas guarded, in the caller’s language', async () => {
    const rows = await exportCsv(server, a, '');
    expect(rows[0]).toEqual([
      'Serial number',
      'Name',
      'Labels',
      'Location',
      'Remark',
      'Online',
      'State',
      'Machine type',
      'Model',
      'Firmware version',
      'Last seen (UTC)',
    ]);
    const body = rows.slice(1).map((r) => r.slice(0, 7));
    expect(body).toEqual([
      ['EXP-A4', "'+1 lobby", 'Floor 2', '', "'-2", 'Offline', 'Enabled'],
      ['EXP-A3', "'=SUM(A1)", 'Floor 2', '', "'@cmd", 'Offline', 'Enabled'],
      ['EXP-A1', 'Hall, east', 'Floor 1;Science', '', 'by the stairs', 'Offline', 'Enabled'],
      ['EXP-A2', 'Say "hi"', 'Floor 1', '', 'line one\nline two', 'Offline', 'Enabled'],
    ]);
    expect(rows.slice(1).every((r) => r[7] === 'x9_vn' && r[8] === 'PF-86')).toBe(true);

    a.language = 'zh-CN';
    const zh = await exportCsv(server, a, '');
    a.language = 'en-US';
    expect(zh[0]!.slice(0, 3)).toEqual(['序列号', '名称', '标签']);
    expect(zh[1]!.slice(5, 7)).toEqual(['离线', '启用']);
    const asked = await exportCsv(server, a, '&lang=zh-CN');
    expect(asked[0]![0]).toBe('序列号');
  });

  it('honours the list’s filter: a name prefix and a search anywhere in name or serial', async () => {
    const prefix = await exportCsv(server, a, '&deviceName=ha');
    expect(prefix.slice(1).map((r) => r[0])).toEqual(['EXP-A1']);
    const anywhere = await exportCsv(server, a, `&deviceName=${encodeURIComponent('"hi')}`);
    expect(anywhere.slice(1).map((r) => r[0])).toEqual(['EXP-A2']);
    const bySerial = await exportCsv(server, a, '&deviceName=exp-a');
    expect(bySerial.slice(1).map((r) => r[0])).toEqual(['EXP-A4', 'EXP-A3', 'EXP-A1', 'EXP-A2']);
  });

  it('never shows another organisation’s panels, whatever the filter', async () => {
    for (const query of ['', '&deviceName=hall', '&deviceName=ha', '&deviceName=EXP-B1']) {
      const serials = (await exportCsv(server, a, query)).slice(1).map((r) => r[0]);
      expect(serials).not.toContain('EXP-B1');
    }
    expect((await exportCsv(server, b, '')).slice(1).map((r) => r[0])).toEqual(['EXP-B1']);
    expect((await exportCsv(server, b, '&deviceName=EXP-A')).slice(1)).toEqual([]);
    expect(other.customerId).toBeGreaterThan(0);
  });

  it('writes the same rows as an .xlsx sheet with a header in the caller’s language', async () => {
    const response = await fetch(`${server.url}${device.DEVICE_EXPORT_PATH}?format=xlsx&deviceName=exp-a`, {
      headers: { cookie: `pf_session=${a.cookie('pf_session')}`, 'accept-language': 'zh-CN' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="devices-.*\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('设备');
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1, 6);
    expect(values(1)).toEqual(['序列号', '名称', '标签', '位置', '备注']);
    expect(values(2)).toEqual(['EXP-A4', '+1 lobby', 'Floor 2', undefined, '-2']);
    expect(sheet.getRow(3).getCell(2).formula).toBeUndefined();
    expect(values(3)).toEqual(['EXP-A3', '=SUM(A1)', 'Floor 2', undefined, '@cmd']);
    expect(values(5)).toEqual(['EXP-A2', 'Say "hi"', 'Floor 1', undefined, 'line one\nline two']);
    expect(sheet.rowCount).toBe(5);
  });

  it('refuses an unknown format in the caller’s language', async () => {
    const reply = await a.get(`${device.DEVICE_EXPORT_PATH}?format=pdf`);
    expect(reply.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The export format must be csv or xlsx',
    });
  });

  it('reads the fleet in keyset batches scoped to the organisation', async () => {
    const db = server.app.db;
    const service = new DeviceExportService(
      new DeviceListRepository(db.kysely, db.dialect),
      new DeviceRepository(db.kysely),
      3,
    );
    const { org_id: orgA } = await db.kysely
      .selectFrom('devices')
      .select('org_id')
      .where('device_key', '=', 'EXP-A1')
      .executeTakeFirstOrThrow();
    const sizes: number[] = [];
    const serials: string[] = [];
    for await (const batch of service.batches(orgA, undefined)) {
      sizes.push(batch.length);
      serials.push(...batch.map((d) => d.record.device_key));
    }
    expect(sizes).toEqual([3, 1]);
    expect(serials).toEqual(['EXP-A4', 'EXP-A3', 'EXP-A1', 'EXP-A2']);
  });
});

describe('csvField', () => {
  it('quotes commas, quotes and line breaks and guards formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('one\ntwo')).toBe('"one\ntwo"');
    expect(csvField('=1+2')).toBe("'=1+2");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@x')).toBe("'@x");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('=a,b')).toBe('"\'=a,b"');
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField("'=x")).toBe("''=x");
    expect(csvField("'x")).toBe("'x");
  });
});
