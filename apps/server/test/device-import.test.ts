import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';
import { enroll, enrollmentSecretOf } from './device-helpers.js';

const THROTTLE = { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } };

/** A CSV the way a spreadsheet saves it: UTF-8 with a byte order mark, CRLF. */
const csv = (...lines: string[]) => `\uFEFF${lines.join('\r\n')}\r\n`;

/** Posts a file as the console does (multipart `file`). */
async function send(
  server: TestServer,
  client: TestClient,
  path: string,
  file: string | Uint8Array,
  token?: string,
) {
  const form = new FormData();
  form.append('file', new Blob([file]), 'panels.csv');
  if (token) form.append('token', token);
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { cookie: `pf_session=${client.cookie('pf_session')}`, 'accept-language': client.language },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const preview = async (server: TestServer, client: TestClient, file: string | Uint8Array) => {
  const reply = await send(server, client, device.DEVICE_IMPORT_PREVIEW_PATH, file);
  expect(reply.body.hhtStatus).toBe('success');
  return device.previewDeviceImport.reply.parse(reply.body).dataObject;
};

async function importFile(server: TestServer, client: TestClient, file: string) {
  const seen = await preview(server, client, file);
  return send(server, client, device.DEVICE_IMPORT_APPLY_PATH, file, seen.token);
}

/** A panel of the organisation as the database has it, with its label names. */
async function panel(server: TestServer, serial: string) {
  const db = server.app.db.kysely;
  const row = await db
    .selectFrom('devices')
    .select(['id', 'org_id', 'name', 'location', 'remark'])
    .where('device_key', '=', serial)
    .executeTakeFirst();
  if (!row) return undefined;
  const labels = await db
    .selectFrom('label_devices')
    .innerJoin('labels', 'labels.id', 'label_devices.label_id')
    .select('labels.name')
    .where('label_devices.device_id', '=', row.id)
    .execute();
  return { ...row, labels: labels.map((l) => l.name).sort() };
}

const snapshot = async (server: TestServer) => {
  const db = server.app.db.kysely;
  return {
    devices: await db
      .selectFrom('devices')
      .select(['device_key', 'name', 'location', 'remark'])
      .orderBy('id')
      .execute(),
    labels: await db.selectFrom('labels').select(['org_id', 'name']).orderBy('id').execute(),
    links: await db
      .selectFrom('label_devices')
      .selectAll()
      .orderBy('device_id')
      .orderBy('label_id')
      .execute(),
    pending: await db.selectFrom('device_import_pending').selectAll().orderBy('device_key').execute(),
  };
};

describe.each(backends)('device CSV import on %s', (backend) => {
  let server: TestServer;
  let a: TestClient;
  let b: TestClient;
  let secretA: string;
  let secretB: string;

  beforeAll(async () => {
    server = await startServer(backend, {}, THROTTLE);
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    a = await signedIn(server, 'operator1', 'operator123');
    b = await signedIn(server, 'b-operator', 'boperator123');
    secretA = await enrollmentSecretOf(a);
    secretB = await enrollmentSecretOf(b);
    for (const serial of ['IMP-A1', 'IMP-A2']) await enroll(server.url, serial, secretA);
    await enroll(server.url, 'IMP-B1', secretB);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('previews, then applies a good file: panels changed, labels created, a new serial waiting', async () => {
    const file = csv(
      'Serial number,Name,Labels,Location,Remark,Online',
      'IMP-A1,"Hall, east",Floor 1;Science,Building 2,"say ""hi""",Offline',
      'IMP-A2,Library,,,,',
      'IMP-NEW1,Gym,Sports,Gym wall,new one,',
    );
    const seen = await preview(server, a, file);
    expect(seen).toMatchObject({
      lines: 3,
      updated: 2,
      pending: 1,
      unchanged: 0,
      errors: 0,
      labelsCreated: 3,
    });
    expect(seen.newLabels.sort()).toEqual(['Floor 1', 'Science', 'Sports']);
    expect(seen.changes[0]).toEqual({
      line: 2,
      serial: 'IMP-A1',
      kind: 'update',
      fields: [
        { field: 'name', from: 'IMP-A1', to: 'Hall, east' },
        { field: 'labels', from: '', to: 'Floor 1;Science' },
        { field: 'location', from: '', to: 'Building 2' },
        { field: 'remark', from: '', to: 'say "hi"' },
      ],
    });
    expect(await panel(server, 'IMP-A1')).toMatchObject({ name: 'IMP-A1', location: '', labels: [] });

    const applied = await send(server, a, device.DEVICE_IMPORT_APPLY_PATH, file, seen.token);
    expect(applied.body).toMatchObject({ hhtStatus: 'success', dataObject: { updated: 2, pending: 1 } });
    expect(await panel(server, 'IMP-A1')).toMatchObject({
      name: 'Hall, east',
      location: 'Building 2',
      remark: 'say "hi"',
      labels: ['Floor 1', 'Science'],
    });
    expect(await panel(server, 'IMP-A2')).toMatchObject({ name: 'Library', labels: [] });
    expect(await panel(server, 'IMP-NEW1')).toBeUndefined();
    const again = await preview(server, a, file);
    expect(again).toMatchObject({ updated: 0, pending: 0, unchanged: 3, labelsCreated: 0 });

    const log = await server.app.db.kysely
      .selectFrom('operation_logs')
      .selectAll()
      .where('action', '=', 'device.import')
      .execute();
    expect(log).toHaveLength(1);
  });

  it('changes nothing for a file with one bad line and names that line, column and reason', async () => {
    const before = await snapshot(server);
    const file = csv(
      'serial,name,labels',
      'IMP-A1,Renamed,New label',
      'bad serial!,x,',
      'IMP-A2,Other,',
      'IMP-A1,Twice,',
    );
    a.language = 'zh-CN';
    const seen = await preview(server, a, file);
    a.language = 'en-US';
    expect(seen).toMatchObject({ lines: 4, errors: 2, updated: 2 });
    expect(seen.errorLines).toEqual([
      { line: 3, column: 'serial', message: '序列号须为 4 至 64 个字母、数字、_ 或 -' },
      { line: 5, column: 'serial', message: '该序列号已在第 2 行出现' },
    ]);
    const applied = await send(server, a, device.DEVICE_IMPORT_APPLY_PATH, file, seen.token);
    expect(applied.status).toBe(400);
    expect(applied.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Lines with errors: 2. Nothing was imported',
    });
    expect(await snapshot(server)).toEqual(before);
  });

  it('applies only the file that was previewed, and refuses what is not a UTF-8 CSV or is too large', async () => {
    const before = await snapshot(server);
    const good = csv('serial,name', 'IMP-A2,Changed');
    const seen = await preview(server, a, good);
    const other = await send(
      server,
      a,
      device.DEVICE_IMPORT_APPLY_PATH,
      csv('serial,name', 'IMP-A2,Else'),
      seen.token,
    );
    expect(other.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'This is not the file that was previewed: preview it again',
    });
    const latin1 = await send(
      server,
      a,
      device.DEVICE_IMPORT_PREVIEW_PATH,
      new Uint8Array([0x73, 0x65, 0x72, 0x69, 0x61, 0x6c, 0x0a, 0xe9]),
    );
    expect(latin1).toMatchObject({
      status: 400,
      body: { hhtStatus: 'fail', hhtMsg: 'The file is not UTF-8 text' },
    });
    const huge = `serial\r\n${'A'.repeat(device.DEVICE_IMPORT_MAX_BYTES)}`;
    const tooLarge = await send(server, a, device.DEVICE_IMPORT_PREVIEW_PATH, huge);
    expect(tooLarge).toMatchObject({ status: 413, body: { hhtStatus: 'fail' } });
    const noSerial = await preview(server, a, csv('name,remark', 'x,y'));
    expect(noSerial.errorLines).toEqual([
      { line: 1, column: 'serial', message: 'No “Serial number” column in the headings on line 1' },
    ]);
    expect(await snapshot(server)).toEqual(before);
  });

  it('applies a waiting serial when its panel enrolls into that company, and only then', async () => {
    const applied = await importFile(
      server,
      a,
      csv('serial,name,labels,location,remark', 'IMP-PRE1,Front desk,Lobby;Floor 1,Entrance,early'),
    );
    expect(applied.body).toMatchObject({ hhtStatus: 'success', dataObject: { pending: 1 } });
    // A later import of the same serial without a remark keeps the remark it said before.
    await importFile(server, a, csv('serial,name', 'IMP-PRE1,Front desk 2'));
    await enroll(server.url, 'IMP-PRE1', secretA);
    expect(await panel(server, 'IMP-PRE1')).toMatchObject({
      name: 'Front desk 2',
      location: 'Entrance',
      remark: 'early',
      labels: ['Floor 1', 'Lobby'],
    });
    const waiting = await server.app.db.kysely
      .selectFrom('device_import_pending')
      .selectAll()
      .where('device_key', '=', 'IMP-PRE1')
      .execute();
    expect(waiting).toEqual([]);
    // From now on the serial is an enrolled panel of the company.
    expect(await preview(server, a, csv('serial,name', 'IMP-PRE1,Front desk 2'))).toMatchObject({
      unchanged: 1,
    });
  });

  it('keeps two companies apart: another company’s serial reads as unknown and is never changed, a waiting record stays with its company', async () => {
    const before = await snapshot(server);
    const seen = await preview(server, a, csv('serial,name', 'IMP-B1,Taken over'));
    const unknown = await preview(server, a, csv('serial,name', 'IMP-NOBODY,Taken over'));
    // The same answer as for a serial no panel holds: nothing says that company B has it.
    expect(seen).toMatchObject({ errors: 0, pending: 1, updated: 0 });
    const shape = (p: typeof seen) => ({
      ...p,
      token: undefined,
      changes: p.changes.map((c) => ({ ...c, serial: undefined })),
    });
    expect(shape(seen)).toEqual(shape(unknown));
    expect(seen.changes).toEqual([
      { line: 2, serial: 'IMP-B1', kind: 'pending', fields: [{ field: 'name', from: '', to: 'Taken over' }] },
    ]);
    expect(await snapshot(server)).toEqual(before);
    await importFile(server, a, csv('serial,name', 'IMP-B1,Taken over'));
    expect((await panel(server, 'IMP-B1'))?.name).toBe('IMP-B1');

    await importFile(server, a, csv('serial,name,labels', 'IMP-BOTH,A wants it,A label'));
    await importFile(server, b, csv('serial,name', 'IMP-BOTH,B wants it'));
    await enroll(server.url, 'IMP-BOTH', secretB);
    const enrolled = await panel(server, 'IMP-BOTH');
    expect(enrolled).toMatchObject({ name: 'B wants it', labels: [] });
    const pending = await server.app.db.kysely
      .selectFrom('device_import_pending')
      .select(['org_id', 'name'])
      .where('device_key', '=', 'IMP-BOTH')
      .execute();
    expect(pending).toEqual([{ org_id: expect.any(Number), name: 'A wants it' }]);
    expect(pending[0]!.org_id).not.toBe(enrolled!.org_id);
    // For A the serial is still not its panel: its waiting record is updated, B's panel is not.
    expect(await preview(server, a, csv('serial,name', 'IMP-BOTH,A again'))).toMatchObject({
      errors: 0,
      pending: 1,
    });
    await importFile(server, a, csv('serial,name', 'IMP-BOTH,A again'));
    expect((await panel(server, 'IMP-BOTH'))?.name).toBe('B wants it');
  });

  it('reads its own export back as no change at all (quoting and the formula guard round trip)', async () => {
    const tricky = csv(
      'serial,name,labels,location,remark',
      `IMP-A1,"=SUM(A1)","Floor 1;=x",'+1 corner,"line one\nline two, ""quoted"""`,
      `IMP-A2,"'=already",@at,-,"'-'"`,
    );
    const applied = await importFile(server, a, tricky);
    expect(applied.body).toMatchObject({ hhtStatus: 'success', dataObject: { updated: 2 } });
    expect(await panel(server, 'IMP-A1')).toMatchObject({
      name: '=SUM(A1)',
      location: '+1 corner',
      remark: 'line one\nline two, "quoted"',
      labels: ['=x', 'Floor 1'],
    });
    expect(await panel(server, 'IMP-A2')).toMatchObject({ name: '=already', location: '-', remark: "-'" });
    // A dynamic label the export names in the labels column: computed from its filter, never assigned.
    const dynamic = await a.request('POST', '/platform/group/saveDynamic', {
      json: { groupName: 'A panels', filter: { serialPattern: 'IMP-A*' } },
    });
    expect(dynamic.body).toMatchObject({ hhtStatus: 'success' });
    for (const language of ['en-US', 'zh-CN']) {
      const response = await fetch(`${server.url}${device.DEVICE_EXPORT_PATH}?format=csv&lang=${language}`, {
        headers: { cookie: `pf_session=${a.cookie('pf_session')}` },
      });
      const exported = new Uint8Array(await response.arrayBuffer());
      expect(new TextDecoder().decode(exported)).toContain('A panels');
      const seen = await preview(server, a, exported);
      expect(seen).toMatchObject({ errors: 0, updated: 0, pending: 0, labelsCreated: 0 });
      expect(seen.unchanged).toBe(seen.lines);
      expect(seen.lines).toBeGreaterThanOrEqual(2);
    }
    await importFile(server, a, csv('serial,labels', 'IMP-A1,Floor 1;A panels'));
    expect((await panel(server, 'IMP-A1'))?.labels).toEqual(['Floor 1']);
  });
});
