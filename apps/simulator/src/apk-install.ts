import type { device } from '@panelfleet/contract';
import { downloadVerified } from './download.js';
import type { PanelHost } from './panel-host.js';

/**
 * APK install or update (protocol section 6.4): refuse another signer or an older versionCode
 * than the installed one (as Android's package manager does), download with progress
 * (apkCurrent/apkTotal) and resume, verify the SHA-256, install, report the new app list.
 */
export async function installApk(panel: PanelHost, id: string, app: device.ApkInstallValue) {
  const { options } = panel;
  const fail = async (detail: string) => {
    panel.apkFailures.push({ id, detail });
    await panel.ack({ v: 1, id, result: 'failed', detail });
  };
  // Android keeps each installed package's versionCode and signer; the app list reports both.
  const installed = panel.apps.find((a) => a.packageName === app.packageName);
  if (installed?.signerSha256 && installed.signerSha256 !== app.signerSha256) return fail('signature');
  if (installed?.versionCode !== undefined && installed.versionCode > app.versionCode && !app.allowDowngrade)
    return fail('downgrade');
  await panel.ack({ v: 1, id, result: 'received', phase: 'downloading' });
  const creds = panel.credentials();
  let reportedAt = 0;
  panel.state.apkCurrent = 0;
  panel.state.apkTotal = app.size;
  await panel.reportState({ apkCurrent: 0, apkTotal: app.size });
  const abort = new AbortController();
  panel.downloads.set(id, abort);
  const result = await downloadVerified({
    url: app.url,
    size: app.size,
    sha256: app.sha256,
    username: creds.username,
    password: creds.password,
    signal: abort.signal,
    progress: (received, total) => {
      panel.state.apkCurrent = received;
      if (panel.now() - reportedAt < (options.progressMs ?? 5000) || received === total) return;
      reportedAt = panel.now();
      void panel
        .reportState({ apkCurrent: received, apkTotal: total })
        .catch((err: unknown) => options.log(`${panel.serial}: progress: ${String(err)}`));
    },
  }).finally(() => panel.downloads.delete(id));
  if (!result.ok) {
    options.log(`${panel.serial}: APK ${app.packageName} failed: ${result.reason}`);
    await panel.reportState({ apkCurrent: panel.state.apkCurrent, apkTotal: app.size });
    return fail(result.detail);
  }
  await panel.ack({ v: 1, id, result: 'received', phase: 'verifying' });
  panel.state.apkCurrent = app.size;
  await panel.reportState({ apkCurrent: app.size, apkTotal: app.size });
  await panel.ack({ v: 1, id, result: 'received', phase: 'installing' });
  const told = panel.failNextApk;
  panel.failNextApk = undefined;
  if (told) return fail(told);
  const entry: device.InstalledApp = {
    appName: app.label || app.packageName,
    packageName: app.packageName,
    versionName: app.versionName,
    appSize: app.size,
    appLevel: 0,
    versionCode: app.versionCode,
    signerSha256: app.signerSha256,
  };
  const at = panel.apps.findIndex((a) => a.packageName === app.packageName);
  panel.apps = at < 0 ? [...panel.apps, entry] : panel.apps.map((a, i) => (i === at ? entry : a));
  await panel.publishApps();
  return panel.ack({ v: 1, id, result: 'succeeded' });
}
