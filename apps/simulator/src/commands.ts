import type { device } from '@panelfleet/contract';
import { certificateFingerprint } from './certificate.js';
import { downloadVerified } from './download.js';
import { installApk } from './apk-install.js';
import { installOta } from './ota.js';
import { changedState } from './panel-state.js';
import type { PanelHost } from './panel-host.js';
import { playProgram, stopPlaying } from './program.js';
import { takeScreenshot } from './screen.js';
import { applySettings } from './settings.js';
import { magicPacket } from './wake-on-lan.js';

/** Runs one command (protocol 5.6) that the panel has not run before, and acknowledges it. */
export async function execute(panel: PanelHost, cmd: device.CommandEnvelope) {
  const done = (detail?: string) =>
    panel.ack({
      v: 1,
      id: cmd.id,
      result: 'succeeded',
      ...(detail ? { detail } : {}),
      state: changedState(panel.state),
    });
  const fail = (detail: string) => panel.ack({ v: 1, id: cmd.id, result: 'failed', detail });
  switch (cmd.order) {
    case '00':
      panel.state.brightness = cmd.value as number;
      break;
    case '01':
      panel.state.volume = cmd.value as number;
      break;
    case '04':
      panel.state.source = cmd.value as string;
      break;
    case '07':
      panel.state.mute = cmd.value as boolean;
      break;
    case '08':
      return virtualKey(panel, cmd, cmd.value as device.VirtualKey);
    case '02':
      await done();
      return panel.powerOff();
    case '03':
      await done();
      await panel.powerOff('rebooting');
      setTimeout(
        () =>
          void panel
            .powerOn()
            .catch((err: unknown) => panel.options.log(`${panel.serial}: restart failed: ${String(err)}`)),
        panel.options.restartDelayMs,
      ).unref();
      return;
    case 'POWERUP':
      panel.state.power = 'on';
      break;
    case 'WAKE': {
      const wake = cmd.value as { mac: string };
      await panel.options.sendMagicPacket(magicPacket(wake.mac));
      break;
    }
    case 'NOTIFY':
      return showNotification(panel, cmd.id, cmd.value as device.OrderValue<'NOTIFY'>);
    case 'SETTINGS': {
      const next = applySettings(panel.settings, cmd.value as device.SettingsChange);
      if (!next) return fail('unsupported');
      panel.settings = next;
      await panel.publish('settings', panel.settings);
      break;
    }
    case 'UNINSTALL': {
      const names = (cmd.value as { packageNames: string[] }).packageNames;
      if (panel.apps.some((a) => names.includes(a.packageName) && a.appLevel === 1)) return fail('systemApp');
      panel.apps = panel.apps.filter((a) => !names.includes(a.packageName));
      await panel.publishApps();
      break;
    }
    case 'REPORT_APPS':
      await panel.publishApps();
      break;
    case 'OTA':
      return installOta(panel, cmd.id, cmd.value as device.OtaValue);
    case 'APK':
      return installApk(panel, cmd.id, cmd.value as device.ApkInstallValue);
    case 'PROGRAM':
      return playProgram(panel, cmd.id, cmd.value as device.ProgramValue);
    case 'SCREENSHOT':
      return takeScreenshot(panel, cmd.id, cmd.value as device.ScreenshotValue);
    case 'CERTIFICATE': {
      const value = cmd.value as device.CertificateValue;
      const sha256 = certificateFingerprint(value.pem);
      if (sha256 === undefined) return fail('unsupported');
      if (sha256 !== value.sha256) return fail('checksum');
      panel.certificate = value;
      panel.settings = { ...panel.settings, certificateSha256: sha256 };
      await panel.publish('settings', panel.settings);
      break;
    }
    case 'PROGRAM_STOP': {
      const target = (cmd.value as { id: string }).id;
      const running = panel.downloads.get(target);
      if (running) running.abort();
      else if (panel.playing?.commandId === target) {
        stopPlaying(panel, 'stopped');
        panel.stoppedPrograms.push(target);
      } else return fail('notRunning');
      break;
    }
    case 'OTA_CANCEL':
    case 'APK_CANCEL': {
      const running = panel.downloads.get((cmd.value as { id: string }).id);
      if (!running) return fail('notRunning');
      running.abort();
      break;
    }
  }
  return done();
}

async function virtualKey(panel: PanelHost, cmd: device.CommandEnvelope, key: device.VirtualKey) {
  // In energy-saving standby any key wakes the screen, the power key included.
  const waking = panel.state.power === 'standby';
  if (waking) panel.state.power = 'on';
  if (key === 'power' && !waking) {
    await panel.ack({ v: 1, id: cmd.id, result: 'succeeded' });
    return panel.powerOff();
  }
  if (key === 'volumeUp') panel.state.volume = Math.min(100, panel.state.volume + 5);
  if (key === 'volumeDown') panel.state.volume = Math.max(0, panel.state.volume - 5);
  if (key === 'mute') panel.state.mute = !panel.state.mute;
  if (key === 'home') panel.state.source = 'home';
  await panel.ack({ v: 1, id: cmd.id, result: 'succeeded', state: changedState(panel.state) });
}

/**
 * A notification: shown at once, or, with a custom audio, after the audio is fetched (signed URL
 * with this panel's credentials, only from its own server) and verified; the acknowledgement
 * says what the screen did, with the SHA-256 of the audio it played.
 */
async function showNotification(panel: PanelHost, id: string, notice: device.OrderValue<'NOTIFY'>) {
  if (notice.audioUrl === undefined) {
    panel.lastNotification = notice;
    return panel.ack({
      v: 1,
      id,
      result: 'succeeded',
      detail: notice.level === 0 ? `shown, alarm ${notice.audio ?? 1}` : 'shown',
    });
  }
  await panel.ack({ v: 1, id, result: 'received' });
  if (
    new URL(notice.audioUrl).origin !== new URL(panel.options.serverUrl).origin ||
    !notice.audioSha256 ||
    !notice.audioSize
  ) {
    return panel.ack({ v: 1, id, result: 'failed', detail: 'download' });
  }
  const creds = panel.credentials();
  const result = await downloadVerified({
    url: notice.audioUrl,
    size: notice.audioSize,
    sha256: notice.audioSha256,
    username: creds.username,
    password: creds.password,
    progress: () => undefined,
  });
  if (!result.ok) {
    panel.options.log(`${panel.serial}: notification audio failed: ${result.reason}`);
    return panel.ack({ v: 1, id, result: 'failed', detail: result.detail });
  }
  panel.lastNotification = notice;
  return panel.ack({ v: 1, id, result: 'succeeded', detail: `shown, played audio ${notice.audioSha256}` });
}
