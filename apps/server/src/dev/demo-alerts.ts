import { alerts, device } from '@panelfleet/contract';
import type { Db } from '../db/database.js';
import { demoSession } from './demo-client.js';
import { DEMO_FAILING_PANEL } from './demo-ota.js';

/** How long the demo's panel stays powered off: long enough for its offline alert to be raised. */
const DARK_MS = 3 * 60_000;

/** The demo's alert rules (issue 26): they fire on the simulated fleet, so the bell and centre have content. */
const RULES: Array<Omit<alerts.AlertRuleInput, 'enabled' | 'labelIds'>> = [
  {
    name: 'Panel offline',
    severity: 'major',
    condition: { kind: 'offline', minutes: 1 },
    durationSeconds: 30,
    channels: {
      emailUserIds: [],
      emailAddresses: ['noc@riverside.example'],
      emailMode: 'grouped',
      webhookIds: [],
    },
  },
  {
    name: 'Rollout failures',
    severity: 'critical',
    condition: { kind: 'taskFailures', taskKinds: ['ota', 'apk', 'program'], percent: 0 },
    durationSeconds: 0,
    channels: { emailUserIds: [], emailAddresses: [], emailMode: 'grouped', webhookIds: [] },
  },
  {
    name: 'Command failed',
    severity: 'minor',
    condition: { kind: 'commandFailed' },
    durationSeconds: 0,
    channels: { emailUserIds: [], emailAddresses: [], emailMode: 'grouped', webhookIds: [] },
  },
  {
    name: 'Rollout finished',
    severity: 'info',
    condition: { kind: 'taskFinished', taskKinds: ['ota'] },
    durationSeconds: 0,
    channels: { emailUserIds: [], emailAddresses: [], emailMode: 'digest', webhookIds: [] },
  },
];

/**
 * The demo's alerts: the rules above for the demo customer (once), then one simulated panel is
 * powered off for three minutes (its offline alert is raised, then cleared when it is woken).
 * Returns the banner's line; the panel is woken later, on its own.
 */
export async function seedDemoAlerts(baseUrl: string, db: Db, log: (m: string) => void): Promise<string> {
  const session = await demoSession(baseUrl, db, 'customer1', 'customer123', 'demo alerts');
  const json = async (path: string, body: unknown) => {
    const response = await fetch(baseUrl + path, {
      method: 'POST',
      headers: { cookie: session.cookie(), 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const reply = (await response.json()) as { hhtStatus?: string; hhtMsg?: string };
    if (reply.hhtStatus !== 'success') throw new Error(`demo alerts: ${path} refused: ${reply.hhtMsg}`);
  };
  const existing = alerts.listAlertRules.reply.parse(await session.request('GET', '/alerts/rules?size=100'));
  const names = new Set(existing.listObject.map((r) => r.name));
  for (const rule of RULES)
    if (!names.has(rule.name)) await json('/alerts/rules/save', { ...rule, enabled: true, labelIds: [] });

  const operator = await demoSession(baseUrl, db, 'operator1', 'operator123', 'demo alerts');
  const page = device.listDevices.reply.parse(
    await operator.request('GET', '/platform/device/list?start=1&size=100&deviceName=DEMO-00005'),
  );
  const panel = page.listObject.find((d) => d.isOnline === '1');
  if (!panel) return `alerts: ${RULES.length} demo rules; DEMO-00005 is not online, so no panel goes dark`;
  await operator.request('POST', '/sendData/sendCommandByDeviceId', {
    deviceId: String(panel.deviceId),
    order: device.ORDERS.powerOff,
  });
  setTimeout(() => {
    operator
      .request('POST', '/sendData/sendPowerUpByDeviceId', { deviceId: String(panel.deviceId) })
      .then(() => log('demo alerts: DEMO-00005 woken again; its offline alert clears'))
      .catch((err: unknown) => log(`demo alerts: DEMO-00005 not woken: ${String(err)}`));
  }, DARK_MS).unref();
  return `alerts: rules ${RULES.map((r) => `"${r.name}"`).join(', ')}; DEMO-00005 powered off for 3 minutes (the bell shows its offline alert after about 90 s); ${DEMO_FAILING_PANEL} fails the OTA rollout ("Rollout failures")`;
}
