import { randomUUID } from 'node:crypto';
import { device } from '@panelfleet/contract';
import { historyReports } from './history.js';
import type { PanelHost } from './panel-host.js';

export interface AbnormalLogFields {
  fileName: string;
  appName: string;
  occurredAt: number;
  text: string;
}

/**
 * An abnormal log (protocol 5.4) with a new id: over MQTT while its payload fits 256 KiB (kept
 * until a receipt names it), otherwise uploaded whole over HTTP with the panel's credentials
 * (the answer is its receipt). Answers the id.
 */
export async function reportLog(panel: PanelHost, log: AbnormalLogFields): Promise<string> {
  const payload: device.AbnormalLog = { v: 1, id: randomUUID(), model: panel.state.model, ...log };
  const json = JSON.stringify(payload);
  if (Buffer.byteLength(json) <= device.MAX_LOG_PAYLOAD_BYTES) {
    await panel.outbox.send('log', payload);
    return payload.id;
  }
  const creds = panel.credentials();
  const response = await fetch(`${panel.options.serverUrl}/device/abnormalLog`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
    },
    body: json,
  });
  if (!response.ok) throw new Error(`log upload refused: ${response.status} ${await response.text()}`);
  return payload.id;
}

/** Sends the usage and abnormal logs of the last `days` days (idempotent ids: sent again, stored once). */
export async function sendHistory(panel: PanelHost, days: number) {
  const { usage, logs } = historyReports(panel.serial, panel.state.model, panel.apps, days, panel.now());
  for (const report of usage) await panel.outbox.send('usage', report);
  for (const log of logs) await panel.outbox.send('log', log);
}

/** The screen time since the last report (protocol 5.3), in one usage report with a new id. */
export function usageSince(panel: PanelHost, since: number, now: number): device.AppUsageReport {
  // A wall clock set back since: the interval starts at the new time.
  const from = Math.min(since, now);
  const span = Math.min(now - from, 86_400_000);
  const userApps = panel.apps.filter((a) => a.appLevel === 0);
  const app = userApps[Math.floor(Math.random() * userApps.length)];
  return {
    v: 1,
    id: randomUUID(),
    from,
    to: now,
    screenOnMs: span,
    records: app
      ? [
          {
            packageName: app.packageName,
            appName: app.appName,
            startedAt: since,
            durationMs: Math.floor(span * 0.8),
          },
        ]
      : [],
  };
}

/** Periodic telemetry, screen time, and now and then an abnormal log. */
export function telemetryTick(panel: PanelHost) {
  const { state, options } = panel;
  state.cpuTemperature = Math.round((42 + Math.random() * 12) * 10) / 10;
  state.ramUsed = Math.round(state.ramTotal * (0.3 + Math.random() * 0.3));
  const failed = (what: string) => (err: unknown) =>
    options.log(`${panel.serial}: ${what} not sent: ${String(err)}`);
  void panel
    .reportState({ cpuTemperature: state.cpuTemperature, ramUsed: state.ramUsed })
    .catch(failed('state'));
  const usage = panel.reportUsage();
  void usage.sent.catch(failed('usage'));
  const app = usage.report.records[0];
  const now = panel.now();
  if (app && Math.random() < options.abnormalLogChance)
    void reportLog(panel, {
      fileName: `anr-${now}.txt`,
      appName: app.appName,
      occurredAt: now,
      text: `ANR in ${app.packageName}\nReason: Input dispatching timed out`,
    }).catch(failed('abnormal log'));
}
