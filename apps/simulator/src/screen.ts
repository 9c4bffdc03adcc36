import sharp from 'sharp';
import type { device } from '@panelfleet/contract';
import type { PanelHost } from './panel-host.js';

const WIDTH = 1280;
const HEIGHT = 720;

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** A colour of its own for each panel (by its serial), so that screens differ panel by panel. */
function hueOf(serial: string) {
  // FNV-1a: serials that differ in one character get hues far apart.
  let h = 2166136261;
  for (const c of serial) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h % 360;
}

/**
 * The panel's screen as SVG: its serial, the source it shows, the program it plays with its
 * materials, a notification band (or an emergency sheet) on top, all dimmed by its brightness.
 */
export function screenSvg(panel: PanelHost, width = WIDTH, height = HEIGHT): string {
  const { state, playing } = panel;
  const hue = hueOf(panel.serial);
  const lines: string[] = [];
  if (playing) {
    lines.push(`Program: ${playing.name}`);
    playing.materials.slice(0, 8).forEach((m, at) => lines.push(`${at + 1}. ${m}`));
  } else lines.push(state.source === 'home' ? 'Home screen' : `Input: ${state.source}`);
  const notice = panel.lastNotification as device.OrderValue<'NOTIFY'> | undefined;
  const body = lines
    .map(
      (line, at) =>
        `<text x="80" y="${260 + at * 48}" font-size="${at === 0 ? 44 : 34}" fill="#ffffff">${escape(line.slice(0, 80))}</text>`,
    )
    .join('');
  const band = !notice
    ? ''
    : notice.level === 0
      ? `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#b00020"/>` +
        `<text x="80" y="300" font-size="64" fill="#ffffff">${escape(notice.title)}</text>` +
        `<text x="80" y="400" font-size="40" fill="#ffffff">${escape(notice.text)}</text>`
      : `<rect x="0" y="${notice.position === 'bottom' ? HEIGHT - 90 : 0}" width="${WIDTH}" height="90" fill="#fff8c4"/>` +
        `<text x="40" y="${notice.position === 'bottom' ? HEIGHT - 32 : 58}" font-size="36" fill="${notice.color ?? '#000000'}">${escape(`${notice.title}: ${notice.text}`.slice(0, 90))}</text>`;
  // Brightness 0-100 as a black veil over everything: 100 shows the screen as it is.
  const veil = Math.min(1, Math.max(0, 1 - state.brightness / 100)).toFixed(3);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="hsl(${hue},55%,38%)"/>` +
    `<rect x="40" y="150" width="${WIDTH - 80}" height="${HEIGHT - 230}" rx="16" fill="hsl(${(hue + 40) % 360},45%,28%)"/>` +
    `<text x="80" y="${notice?.level === 1 && notice.position !== 'bottom' ? 134 : 110}" font-size="40" fill="#ffffff" font-family="sans-serif">${escape(panel.serial)}</text>` +
    `<g font-family="sans-serif">${body}</g>` +
    `<g font-family="sans-serif">${band}</g>` +
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#000000" fill-opacity="${veil}"/>` +
    `</svg>`
  );
}

/** The screen as a JPEG within the order's limits (smaller and lower quality until it fits). */
export async function captureScreen(panel: PanelHost, value: device.ScreenshotValue): Promise<Buffer> {
  const scale = Math.min(1, value.maxWidth / WIDTH, value.maxHeight / HEIGHT);
  const width = Math.max(64, Math.floor(WIDTH * scale));
  const height = Math.max(64, Math.floor(HEIGHT * scale));
  const svg = Buffer.from(screenSvg(panel, width, height));
  for (const quality of [80, 60, 40, 20]) {
    const jpeg = await sharp(svg).jpeg({ quality }).toBuffer();
    if (jpeg.length <= value.maxBytes) return jpeg;
  }
  throw new Error('the screen does not fit maxBytes');
}

const UPLOAD_TIMEOUT_MS = 15_000;

/**
 * SCREENSHOT (protocol 5.10): capture, upload once to the signed URL with the panel's own
 * credentials, then acknowledge; `capture` when the screen is off, `upload: <status>` when the
 * server refused or the upload failed.
 */
export async function takeScreenshot(panel: PanelHost, id: string, value: device.ScreenshotValue) {
  if (panel.state.power !== 'on') return panel.ack({ v: 1, id, result: 'failed', detail: 'capture' });
  let picture: Buffer;
  try {
    picture = await captureScreen(panel, value);
  } catch (err) {
    panel.options.log(`${panel.serial}: screenshot capture failed: ${String(err)}`);
    return panel.ack({ v: 1, id, result: 'failed', detail: 'capture' });
  }
  const creds = panel.credentials();
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(picture)], { type: 'image/jpeg' }), 'screen.jpg');
  let status: number | string;
  try {
    const response = await fetch(value.url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
      },
      body: form,
      signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    status = response.status;
  } catch (err) {
    status = err instanceof Error ? err.name : 'network';
  }
  if (status === 200)
    return panel.ack({ v: 1, id, result: 'succeeded', detail: `uploaded ${picture.length} bytes` });
  return panel.ack({ v: 1, id, result: 'failed', detail: `upload: ${status}` });
}
