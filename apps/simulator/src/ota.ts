import crypto from 'node:crypto';
import { compareVersions, device } from '@panelfleet/contract';
import { downloadVerified } from './download.js';
import type { PanelHost } from './panel-host.js';

/**
 * Checks an OTA order as docs/device-protocol.md section 6.1 says, before downloading: the
 * manifest verifies with the key from enrollment, it names this image (size, SHA-256, version),
 * fits this machine type and current version, and is newer unless the task allows a downgrade.
 * The reason of the first failed check, or undefined.
 */
export function checkOta(
  firmwareKey: string | undefined,
  current: { machineType: string; otaVersion: string },
  ota: device.OtaValue,
): string | undefined {
  if (!firmwareKey) return 'signature';
  const raw = Buffer.from(firmwareKey, 'base64');
  let verified = false;
  try {
    const publicKey = crypto.createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]),
      format: 'der',
      type: 'spki',
    });
    verified = crypto.verify(
      null,
      Buffer.from(ota.manifest, 'utf8'),
      publicKey,
      Buffer.from(ota.signature, 'base64'),
    );
  } catch {
    verified = false;
  }
  if (!verified) return 'signature';
  const parsed = device.firmwareManifest.safeParse(JSON.parse(ota.manifest));
  if (!parsed.success) return 'signature';
  const m = parsed.data;
  if (m.sha256 !== ota.sha256 || m.size !== ota.size || m.version !== ota.version) return 'signature';
  if (!m.machineTypes.includes(current.machineType)) return 'model';
  if (m.fromVersions.length && !m.fromVersions.includes(current.otaVersion)) return 'fromVersion';
  if (!ota.allowDowngrade && compareVersions(m.version, current.otaVersion) <= 0) return 'downgrade';
  return undefined;
}

/**
 * OTA (protocol section 6): check the signed manifest, download with progress and resume,
 * verify the SHA-256, install (offline for a while), come back with the new version.
 */
export async function installOta(panel: PanelHost, id: string, ota: device.OtaValue) {
  const { options } = panel;
  const fail = async (detail: string) => {
    panel.otaFailures.push({ id, detail });
    await panel.ack({ v: 1, id, result: 'failed', detail });
  };
  const refused = panel.checkOta(ota);
  if (refused) return fail(refused);
  // The reminder is shown before anything is installed; a virtual operator confirms it at once.
  if (ota.reminder) panel.shownReminders.push({ version: ota.version, reminder: ota.reminder });
  await panel.ack({
    v: 1,
    id,
    result: 'received',
    phase: 'downloading',
    ...(ota.reminder ? { detail: 'reminder shown' } : {}),
  });
  const creds = panel.credentials();
  let reportedAt = 0;
  panel.state.otaCurrent = 0;
  panel.state.otaTotal = ota.size;
  await panel.reportState({ otaCurrent: 0, otaTotal: ota.size });
  const abort = new AbortController();
  panel.downloads.set(id, abort);
  const corrupt = panel.corruptNextOta || Math.random() < (options.otaCorruptRate ?? 0);
  panel.corruptNextOta = false;
  const result = await downloadVerified({
    url: ota.url,
    size: ota.size,
    sha256: ota.sha256,
    username: creds.username,
    password: creds.password,
    signal: abort.signal,
    corrupt,
    ...(corrupt ? { maxAttempts: 1 } : {}),
    progress: (received, total) => {
      panel.state.otaCurrent = received;
      if (panel.now() - reportedAt < (options.progressMs ?? 5000) || received === total) return;
      reportedAt = panel.now();
      void panel
        .reportState({ otaCurrent: received, otaTotal: total })
        .catch((err: unknown) => options.log(`${panel.serial}: progress: ${String(err)}`));
    },
  }).finally(() => panel.downloads.delete(id));
  if (!result.ok) {
    options.log(`${panel.serial}: OTA ${ota.version} failed: ${result.reason}`);
    await panel.reportState({ otaCurrent: panel.state.otaCurrent, otaTotal: ota.size });
    return fail(result.detail);
  }
  await panel.ack({ v: 1, id, result: 'received', phase: 'verifying' });
  panel.state.otaCurrent = ota.size;
  await panel.reportState({ otaCurrent: ota.size, otaTotal: ota.size });
  if (options.otaAlwaysFails || Math.random() < (options.otaFailRate ?? 0)) return fail('install');
  await panel.ack({ v: 1, id, result: 'received', phase: 'installing' });
  const installMs = options.installMs ?? 0;
  if (installMs > 0) {
    // Installing reboots the panel: offline for a while, back with the new version.
    await panel.powerOff('rebooting');
    await new Promise((resolve) => setTimeout(resolve, installMs));
    panel.state.otaVersion = ota.version;
    panel.otaInstalls++;
    await panel.powerOn();
  } else {
    panel.state.otaVersion = ota.version;
    panel.otaInstalls++;
    await panel.reportState({ otaVersion: ota.version, otaCurrent: ota.size, otaTotal: ota.size });
  }
  return panel.ack({
    v: 1,
    id,
    result: 'succeeded',
    ...(result.resumed ? { detail: `resumed ${result.resumed}x` } : {}),
  });
}
