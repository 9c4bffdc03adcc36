import { spawn } from 'node:child_process';

/** A poster frame is a still image: more than this on ffmpeg's output is not one. */
const MAX_FRAME_BYTES = 32 * 1024 * 1024;

export interface PosterSettings {
  /** The ffmpeg program (FFMPEG_PATH; `ffmpeg` from PATH by default). */
  ffmpegPath: string;
  /** ffmpeg is stopped after this long (a damaged file may make it spin). */
  timeoutMs: number;
}

export type PosterFrame = { ok: true; png: Buffer } | { ok: false; reason: string };

/**
 * The first frame of a video as PNG bytes, read by ffmpeg from the file (never from the
 * network: protocols other than `file` are refused). When ffmpeg is missing, fails, runs past
 * its time or yields nothing, the reason is answered instead; nothing is thrown.
 */
export function extractPosterFrame(file: string, settings: PosterSettings): Promise<PosterFrame> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (frame: PosterFrame) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(frame);
    };
    const child = spawn(
      settings.ffmpegPath,
      [
        '-nostdin',
        '-v',
        'error',
        '-protocol_whitelist',
        'file',
        '-i',
        file,
        '-frames:v',
        '1',
        '-f',
        'image2pipe',
        '-vcodec',
        'png',
        'pipe:1',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ ok: false, reason: `ffmpeg ran past ${settings.timeoutMs} ms` });
    }, settings.timeoutMs);
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FRAME_BYTES) {
        child.kill('SIGKILL');
        finish({ ok: false, reason: 'ffmpeg wrote more than a frame' });
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => finish({ ok: false, reason: `ffmpeg could not start: ${error.message}` }));
    child.on('close', (code) => {
      if (code !== 0)
        return finish({ ok: false, reason: `ffmpeg exited with ${code}: ${stderr.trim().slice(0, 300)}` });
      if (!size) return finish({ ok: false, reason: 'ffmpeg found no video frame' });
      finish({ ok: true, png: Buffer.concat(chunks) });
    });
  });
}
