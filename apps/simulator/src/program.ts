import crypto from 'node:crypto';
import type { device } from '@panelfleet/contract';
import { downloadVerified } from './download.js';
import type { PanelHost } from './panel-host.js';

/**
 * A published program (protocol section 6.5): fetch every media file with resume, verify each
 * SHA-256, report the share fetched, then play: `installing` (ready) and `succeeded` (playing).
 * PROGRAM_STOP stops the download (`failed` with `cancelled`) or the playing; when the play time
 * is over the panel acknowledges the command again with `finished`.
 */
export async function playProgram(panel: PanelHost, id: string, program: device.ProgramValue) {
  const { options } = panel;
  const fail = async (detail: string) => {
    panel.programFailures.push({ id, detail });
    await panel.ack({ v: 1, id, result: 'failed', detail });
  };
  const media = program.items.flatMap((item) => (item.type === 'web' ? [] : [item]));
  const total = media.reduce((sum, item) => sum + item.size, 0);
  await panel.ack({ v: 1, id, result: 'received', phase: 'downloading', progress: 0 });
  const creds = panel.credentials();
  const abort = new AbortController();
  panel.downloads.set(id, abort);
  try {
    let done = 0;
    let reportedAt = panel.now();
    for (const item of media) {
      const result = await downloadVerified({
        url: item.url,
        size: item.size,
        sha256: item.sha256,
        username: creds.username,
        password: creds.password,
        signal: abort.signal,
        progress: (received) => {
          if (panel.now() - reportedAt < (options.progressMs ?? 5000)) return;
          reportedAt = panel.now();
          const progress = Math.floor(((done + received) * 100) / Math.max(total, 1));
          void panel
            .ack({ v: 1, id, result: 'received', phase: 'downloading', progress })
            .catch((err: unknown) => options.log(`${panel.serial}: progress: ${String(err)}`));
        },
      });
      if (!result.ok) {
        options.log(`${panel.serial}: program ${program.name} failed: ${result.reason}`);
        return await fail(result.detail);
      }
      done += item.size;
      await panel.ack({
        v: 1,
        id,
        result: 'received',
        phase: 'downloading',
        progress: Math.floor((done * 100) / Math.max(total, 1)),
      });
    }
    if (abort.signal.aborted) return await fail('cancelled');
    await panel.ack({ v: 1, id, result: 'received', phase: 'verifying' });
    await panel.ack({ v: 1, id, result: 'received', phase: 'installing' });
    if (abort.signal.aborted) return await fail('cancelled');
  } finally {
    panel.downloads.delete(id);
  }
  // Another program on screen ends here: its run is over.
  const before = panel.playing;
  stopPlaying(panel, 'replaced');
  if (before) {
    panel.finishedPrograms.push(before.commandId);
    await panel.ack({ v: 1, id: before.commandId, result: 'succeeded', detail: 'finished' });
  }
  panel.playing = {
    commandId: id,
    programId: program.programId,
    revision: program.revision,
    name: program.name,
    items: program.items.length,
    materials: program.items.map((item, at) =>
      item.type === 'web' ? item.url : (item.name ?? `${item.type} ${at + 1}`),
    ),
    since: panel.now(),
  };
  panel.playTimer = setTimeout(
    () => {
      if (panel.playing?.commandId !== id) return;
      stopPlaying(panel, 'finished');
      panel.finishedPrograms.push(id);
      void panel
        .ack({ v: 1, id, result: 'succeeded', detail: 'finished' })
        .catch((err: unknown) => options.log(`${panel.serial}: finished: ${String(err)}`));
    },
    program.playTime * (options.playSecondMs ?? 1000),
  );
  panel.playTimer.unref();
  return panel.ack({ v: 1, id, result: 'succeeded', detail: 'playing' });
}

/**
 * Back to what the panel showed before the program; the play that ends is reported (protocol
 * 5.11: proof of play, kept until a receipt names it).
 */
export function stopPlaying(panel: PanelHost, reason: device.PlayStopReason) {
  if (panel.playTimer) clearTimeout(panel.playTimer);
  const played = panel.playing;
  panel.playTimer = undefined;
  panel.playing = undefined;
  if (!played) return;
  const report: device.PlayReport = {
    v: 1,
    id: crypto.randomUUID(),
    programId: played.programId,
    revision: played.revision,
    commandId: played.commandId,
    startedAt: played.since,
    endedAt: Math.max(played.since, panel.now()),
    reason,
  };
  panel.plays.push(report);
  void panel.outbox
    .send('play', report)
    .catch((err: unknown) => panel.options.log(`${panel.serial}: play report: ${String(err)}`));
}
