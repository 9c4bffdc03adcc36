import { device } from '@panelfleet/contract';
import mqtt, { type MqttClient } from 'mqtt';

/**
 * A bare panel for fault tests: it runs each command id once, counts repeated deliveries (which
 * it acknowledges again without running them, as docs/device-protocol.md asks) and acknowledges
 * every delivery as succeeded. Cheaper than a simulated panel, so a test can connect a thousand.
 */
export interface CountingPanel {
  key: string;
  client: MqttClient;
  executed: Set<string>;
  executions: number;
  duplicates: number;
}

export async function connectCountingPanel(
  mqttUrl: string,
  creds: { deviceKey: string; password: string },
  /** Called after each delivery is counted, before it is acknowledged. */
  onDelivery: (panel: CountingPanel) => void = () => undefined,
): Promise<CountingPanel> {
  const key = creds.deviceKey;
  const presence = `pf/v1/d/${key}/presence`;
  const client = await mqtt.connectAsync(mqttUrl, {
    clientId: key,
    username: key,
    password: creds.password,
    reconnectPeriod: 300,
    connectTimeout: 5000,
    will: {
      topic: presence,
      payload: Buffer.from(JSON.stringify({ v: 1, online: false })),
      qos: 1,
      retain: true,
    },
  });
  const panel: CountingPanel = { key, client, executed: new Set(), executions: 0, duplicates: 0 };
  client.on('message', (_topic, payload) => {
    const cmd = device.commandEnvelope.parse(JSON.parse(payload.toString()));
    if (panel.executed.has(cmd.id)) panel.duplicates++;
    else {
      panel.executed.add(cmd.id);
      panel.executions++;
    }
    onDelivery(panel);
    void client
      .publishAsync(`pf/v1/d/${key}/ack`, JSON.stringify({ v: 1, id: cmd.id, result: 'succeeded' }), {
        qos: 1,
      })
      .catch(() => undefined);
  });
  const online = JSON.stringify({ v: 1, online: true });
  // After a reconnect (a restarted embedded broker) the panel subscribes and says it is back.
  client.on('connect', () => {
    void client
      .subscribeAsync(`pf/v1/d/${key}/cmd`, { qos: 1 })
      .then(() => client.publishAsync(presence, online, { qos: 1, retain: true }))
      .catch(() => undefined);
  });
  await client.subscribeAsync(`pf/v1/d/${key}/cmd`, { qos: 1 });
  await client.publishAsync(presence, online, { qos: 1, retain: true });
  return panel;
}
