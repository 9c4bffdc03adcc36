import crypto from 'node:crypto';
import { device } from '@panelfleet/contract';
import type { Db } from '../db/database.js';
import { demoSession } from './demo-client.js';

/** The demo's labels: a name, how many of the panels (in name order) it holds, and where they hang. */
const LABELS = [
  { name: 'Classrooms', from: 0, count: 12, location: (i: number) => `Building A, room ${101 + i}` },
  { name: 'Library', from: 12, count: 6, location: (i: number) => `Library, floor ${1 + (i % 2)}` },
  { name: 'Lobby screens', from: 18, count: 4, location: () => 'Main entrance hall' },
] as const;

/**
 * The panels' locations, set as an operator would from a spreadsheet: one CSV through the
 * device import's preview and apply (docs/device-import.md).
 */
async function importLocations(
  baseUrl: string,
  cookie: string,
  panels: Array<{ deviceKey: string; location: string }>,
) {
  const csv = ['serial,location', ...panels.map((p) => `${p.deviceKey},"${p.location}"`)].join('\n');
  const send = async (path: string, token?: string) => {
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'locations.csv');
    if (token) form.append('token', token);
    const response = await fetch(baseUrl + path, { method: 'POST', headers: { cookie }, body: form });
    const body = (await response.json()) as {
      hhtStatus?: string;
      hhtMsg?: string;
      dataObject?: { token?: string };
    };
    if (body.hhtStatus !== 'success') throw new Error(`demo locations: ${path} refused: ${body.hhtMsg}`);
    return body.dataObject;
  };
  const preview = await send(device.DEVICE_IMPORT_PREVIEW_PATH);
  await send(device.DEVICE_IMPORT_APPLY_PATH, preview?.token);
}

/**
 * Labels with panels in them and a command history, made through the HTTP API as the console
 * would (signed in as the demo's customer administrator) once the simulated panels are online:
 * the panels receive the commands over MQTT and answer them, so the feedback log, the operation
 * log and the panels' state show real results. Only when the company has no labels yet.
 * Returns what it did, for the banner.
 */
export async function seedDemoFleet(
  baseUrl: string,
  db: Db,
  panels: number,
  log: (message: string) => void,
): Promise<string> {
  const session = await demoSession(baseUrl, db, 'operator1', 'operator123', 'demo labels');
  const request = session.request;
  const labels = device.listGroups.reply.parse(await request('GET', '/platform/group/list'));
  if (labels.listObject.length > 0) return 'labels and command history: as left by the last run';

  // Wait for the simulated panels to enroll and connect (they start with the server).
  let online: Array<{ deviceId: number; deviceName: string; deviceKey: string }> = [];
  for (let attempt = 0; attempt < 120; attempt++) {
    const page = device.listDevices.reply.parse(
      await request('GET', `/platform/device/list?start=1&size=${panels}&deviceName=DEMO`),
    );
    online = page.listObject.filter((d) => d.isOnline === '1');
    if (online.length >= panels) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  if (online.length < LABELS.at(-1)!.from + LABELS.at(-1)!.count)
    throw new Error(`demo labels: only ${online.length} of ${panels} panels came online`);
  online.sort((a, b) => a.deviceName.localeCompare(b.deviceName));

  const ids: Record<string, number> = {};
  for (const label of LABELS) {
    const made = device.insertGroup.reply.parse(
      await request('POST', '/platform/group/insert', { groupName: label.name }),
    );
    ids[label.name] = made.dataObject.groupId;
    await request('POST', '/platform/group/saveGroupsAndDevices', {
      deviceIds: online
        .slice(label.from, label.from + label.count)
        .map((d) => d.deviceId)
        .join(','),
      groupIds: String(made.dataObject.groupId),
    });
  }
  log(`demo: labels ${LABELS.map((l) => `${l.name} (${l.count})`).join(', ')}`);
  await importLocations(
    baseUrl,
    session.cookie(),
    LABELS.flatMap((l) =>
      online
        .slice(l.from, l.from + l.count)
        .map((d, i) => ({ deviceKey: d.deviceKey, location: l.location(i) })),
    ),
  );

  // A morning's remote control: to labels and to single panels, each answered by the panel.
  const toLabel = (name: string, order: string, value?: string) =>
    request('POST', '/sendData/sendCommandByTagIds', {
      tagIds: String(ids[name]),
      order,
      ...(value === undefined ? {} : { value }),
      idempotencyKey: crypto.randomUUID(),
    });
  const toPanel = (index: number, order: string, value?: string) =>
    request('POST', '/sendData/sendCommandByDeviceId', {
      deviceId: String(online[index]!.deviceId),
      order,
      ...(value === undefined ? {} : { value }),
    });
  await toLabel('Classrooms', device.ORDERS.volume, '35');
  await toLabel('Library', device.ORDERS.brightness, '60');
  await toLabel('Lobby screens', device.ORDERS.mute, '1');
  await toPanel(0, device.ORDERS.virtualKey, 'home');
  await toPanel(1, device.ORDERS.brightness, '85');
  await toPanel(2, device.ORDERS.volume, '20');
  await toPanel(3, device.ORDERS.mute, '0');
  // The panels answer within a second or two; the banner tells what the feedback log shows.
  const sent = LABELS.slice(0, 3).reduce((n, l) => n + l.count, 0) + 4;
  let answered = 0;
  for (let attempt = 0; attempt < 30 && answered < sent; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const feedback = device.listFeedback.reply.parse(
      await request('GET', '/platform/feedback/listFeedbackInfo?start=1&size=100'),
    );
    answered = feedback.listObject.filter((f) => f.status === 'success').length;
  }
  return `labels: ${LABELS.map((l) => `${l.name} (${l.count} panels)`).join(', ')}; ${sent} commands sent to them, ${answered} answered so far (feedback log)`;
}
