import type { Insertable } from 'kysely';
import { alerts, type device } from '@panelfleet/contract';
import type { DevicesTable } from '../src/db/schema.js';
import { connectBare, enroll, enrollmentSecretOf, fullState, waitFor } from './device-helpers.js';
import type { TestClient, TestServer } from './harness.js';

/** Panels written straight into the database (never connected: offline for the gateway). */
export async function insertPanels(
  server: TestServer,
  orgId: number,
  count: number,
  prefix: string,
  fields: Partial<Insertable<DevicesTable>> = {},
): Promise<number[]> {
  const ids: number[] = [];
  const rows = Array.from({ length: count }, (_, i) => ({
    org_id: orgId,
    device_key: `${prefix}-${String(i).padStart(5, '0')}`,
    name: `${prefix} panel ${i}`,
    secret_hash: 'x',
    enrolled_at: 0,
    ...fields,
  }));
  for (let i = 0; i < rows.length; i += 200) {
    const inserted = await server.app.db.kysely
      .insertInto('devices')
      .values(rows.slice(i, i + 200))
      .returning('id')
      .execute();
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

export type RuleInput = Omit<Partial<alerts.AlertRuleInput>, 'condition' | 'channels'> & {
  condition: unknown;
  channels?: Partial<alerts.AlertChannels>;
};

export async function saveRule(client: TestClient, input: RuleInput) {
  return client.request('POST', '/alerts/rules/save', {
    json: { name: 'rule', severity: 'major', ...input },
  });
}

/** Saves a rule that must be accepted; returns it. */
export async function ruleOf(client: TestClient, input: RuleInput): Promise<alerts.AlertRule> {
  const reply = await saveRule(client, input);
  if (reply.body.hhtStatus !== 'success') throw new Error(`rule refused: ${reply.text}`);
  return alerts.saveAlertRule.reply.parse(reply.body).dataObject;
}

export async function listAlerts(client: TestClient, query = '') {
  const reply = await client.get(`/alerts/list?size=100${query}`);
  return alerts.listAlerts.reply.parse(reply.body);
}

export async function countAlerts(client: TestClient) {
  return alerts.countAlerts.reply.parse((await client.get('/alerts/count')).body).dataObject;
}

/** A panel enrolled and connected over MQTT (online for the gateway), with a full state report written. */
export async function onlinePanel(
  server: TestServer,
  operator: TestClient,
  serial: string,
  state: Partial<device.DeviceStateFields> = {},
) {
  const creds = await enroll(server.url, serial, await enrollmentSecretOf(operator));
  const connect = () => connectBare(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, creds);
  let bare = await connect();
  const row = () =>
    server.app.db.kysely
      .selectFrom('devices')
      .selectAll()
      .where('device_key', '=', creds.deviceKey)
      .executeTakeFirst();
  const report = async (fields: Partial<device.DeviceStateFields>) => {
    const at = server.clock.now();
    await bare.client.publishAsync(`pf/v1/d/${creds.deviceKey}/state`, JSON.stringify(fullState(fields)), {
      qos: 1,
    });
    await waitFor(`state of ${serial}`, async () => Number((await row())?.telemetry_reported_at ?? 0) >= at);
  };
  await waitFor(`${serial} online`, () => server.app.devices.gateway.isOnline(creds.deviceKey));
  await report(state);
  const id = (await row())!.id;
  return {
    id,
    key: creds.deviceKey,
    report,
    async disconnect() {
      await bare.close();
      await waitFor(`${serial} offline`, () => !server.app.devices.gateway.isOnline(creds.deviceKey));
      const at = server.clock.now();
      await waitFor(`${serial} last seen`, async () => Number((await row())?.last_seen_at ?? 0) >= at);
    },
    async reconnect() {
      bare = await connect();
      await waitFor(`${serial} online`, () => server.app.devices.gateway.isOnline(creds.deviceKey));
    },
    close: () => bare.close(),
  };
}
