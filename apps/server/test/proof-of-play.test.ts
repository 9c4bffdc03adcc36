import ExcelJS from 'exceljs';
import { programs, reports } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from '../../simulator/src/fleet.js';
import { waitFor } from './device-helpers.js';
import { backends, type TestClient, type TestServer } from './harness.js';
import { startProgramBench, type ProgramBench } from './program-bench.js';

/** One second of play time lasts this long on the simulated panels (their play clock). */
const PLAY_SECOND_MS = 100;

// Proof of play (issue 27 item 6, protocol 5.10): the plays the simulated panels report are
// stored once each and counted per program, panel and day.
describe.each(backends)('proof of play on %s', (backend) => {
  let server: TestServer;
  let bench: ProgramBench;
  let fleet: Fleet;
  let creator: TestClient;
  let foreign: TestClient;
  let devices: Array<{ id: number; device_key: string }>;
  let imageId: number;

  const ok = (reply: { body: Record<string, unknown>; text: string }, what: string) => {
    if (reply.body.hhtStatus !== 'success') throw new Error(`${what}: ${reply.text}`);
    return reply.body;
  };
  const panelOf = (i: number) => fleet.panels.find((p) => p.serial === devices[i]!.device_key)!;

  async function published(name: string, playTime: number, indexes: number[]) {
    const content = JSON.stringify([{ type: 'image', materialId: imageId, duration: 10 }]);
    const { programId } = programs.insertProgram.reply.parse(
      ok(await creator.post('/program/insert', { name, playTime: String(playTime), content }), 'insert'),
    ).dataObject;
    const act = (client: TestClient, reason: string) =>
      client.post('/approval/approvalProcess', { programId: String(programId), status: '1', reason });
    ok(await act(creator, 'submit'), 'submit');
    ok(await act(bench.level1, 'pass 1'), 'pass 1');
    ok(await act(bench.level2, 'pass 2'), 'pass 2');
    const task = programs.publishProgram.reply.parse(
      ok(
        await creator.post('/program/packZip', {
          programId: String(programId),
          deviceIds: indexes.map((i) => devices[i]!.id).join(','),
        }),
        'publish',
      ),
    ).dataObject;
    return { programId, taskId: task.taskId };
  }

  beforeAll(async () => {
    bench = await startProgramBench(backend, { count: 3, prefix: 'POP', playSecondMs: PLAY_SECOND_MS });
    ({ server, fleet, creator, foreign, devices, imageId } = bench);
  });
  afterAll(() => bench?.stop());

  it('stores every play the panels report once, with its reason, and counts them per program, panel and day', async () => {
    // Panels 0 and 1 play "Short" to its end; panel 2 plays "Long", which "Next" replaces, then is stopped.
    const short = await published('Short', 2, [0, 1]);
    await waitFor(
      'short finished',
      () => panelOf(0).plays.length >= 1 && panelOf(1).plays.length >= 1,
      20_000,
    );
    const long = await published('Long', 600, [2]);
    await waitFor('long playing', () => panelOf(2).playing?.programId === long.programId, 20_000);
    const next = await published('Next', 600, [2]);
    await waitFor('next playing', () => panelOf(2).playing?.programId === next.programId, 20_000);
    ok(await creator.post('/program/cancelTask', { taskId: String(next.taskId) }), 'cancel');
    await waitFor('next stopped', () => panelOf(2).plays.length >= 2, 20_000);

    const played = [0, 1, 2].flatMap((i) =>
      panelOf(i).plays.map((p) => ({ ...p, deviceId: devices[i]!.id })),
    );
    expect(played.map((p) => [p.programId, p.reason])).toEqual([
      [short.programId, 'finished'],
      [short.programId, 'finished'],
      [long.programId, 'replaced'],
      [next.programId, 'stopped'],
    ]);
    // Stored once each (the receipts make the panels stop sending them again).
    const rows = await waitFor('stored', async () => {
      const found = await server.app.db.kysely
        .selectFrom('play_records')
        .selectAll()
        .orderBy('started_at')
        .execute();
      return found.length === played.length ? found : undefined;
    });
    expect(new Set(rows.map((r) => r.report_id))).toEqual(new Set(played.map((p) => p.id)));
    for (const p of played) {
      const row = rows.find((r) => r.report_id === p.id)!;
      expect(row).toMatchObject({ device_id: p.deviceId, program_id: p.programId, reason: p.reason });
      expect(Number(row.ended_at) - Number(row.started_at)).toBe(p.endedAt - p.startedAt);
    }
    await waitFor('receipts', () => [0, 1, 2].every((i) => panelOf(i).outbox.size === 0));

    const day = new Date(server.clock.now()).toISOString().slice(0, 10);
    const page = reports.ureportProofOfPlay.reply.parse(
      ok(
        await creator.post('/report/proofOfPlay', {
          sign: 'day',
          startTime: day,
          timeZone: 'UTC',
          start: '1',
          size: '20',
        }),
        'report',
      ),
    );
    const counted = page.listObject.map((r) => [r.programName, r.deviceKey, r.plays, r.cutShort]);
    expect(counted).toEqual(
      expect.arrayContaining([
        ['Short', devices[0]!.device_key, 1, 0],
        ['Short', devices[1]!.device_key, 1, 0],
        ['Long', devices[2]!.device_key, 1, 1],
        ['Next', devices[2]!.device_key, 1, 1],
      ]),
    );
    expect(page.totalRecords).toBe(4);
    const total = page.listObject.reduce((sum, r) => sum + r.totalTime, 0);
    expect(total).toBe(played.reduce((sum, p) => sum + p.endedAt - p.startedAt, 0));

    // Another company's operator sees none of it.
    const other = reports.ureportProofOfPlay.reply.parse(
      ok(
        await foreign.post('/report/proofOfPlay', {
          sign: 'day',
          startTime: day,
          timeZone: 'UTC',
          start: '1',
          size: '20',
        }),
        'foreign report',
      ),
    );
    expect(other.totalRecords).toBe(0);

    // The export: the same rows, in the language asked for.
    const query = new URLSearchParams({
      report: 'proofOfPlay',
      sign: 'day',
      startTime: day,
      timeZone: 'UTC',
      lang: 'en-US',
    });
    const response = await fetch(`${server.url}/report/excel?${query}`, {
      headers: { cookie: `pf_session=${creator.cookie('pf_session')}` },
    });
    expect(response.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Period',
      'Program',
      'Program ID',
      'Device name',
      'Device key',
      'Plays',
      'Run time',
      'Cut short',
    ]);
    expect(sheet.rowCount).toBe(5);
    const preview = await fetch(
      `${server.url}/report/preview?${query.toString().replace('en-US', 'zh-CN')}`,
      {
        headers: { cookie: `pf_session=${creator.cookie('pf_session')}` },
      },
    );
    const html = await preview.text();
    expect(html).toContain('节目播放证明报表');
    expect(html).toContain('Next');
  });
});
