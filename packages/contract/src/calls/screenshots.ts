import { z } from 'zod';
import { defineCall, type MultipartFile } from '../call.js';
import { callers } from '../access.js';
import { itemReply, listReply } from '../envelope.js';
import { recordId } from '../ids.js';

// Screenshots of panels (issue 27 items 1-3; protocol 5.10): one on request, the live view's
// repeated ones, a label's wall of the latest ones. The console's device operators see the
// pictures of their own company's panels only; a panel uploads only its own.

const tag = 'screenshots';
const deviceId = recordId('device.notFound');
const labelId = recordId('screenshot.labelNotFound');
const screenshotId = recordId('screenshot.notFound');

/** How long a panel has to upload a requested picture (ms): the URL's and the command's life. */
export const SCREENSHOT_TTL_MS = 30_000;
/** The size the server asks panels for (they scale down keeping the aspect). */
export const SCREENSHOT_ASK_WIDTH = 1280;
export const SCREENSHOT_ASK_HEIGHT = 720;
/** Width of the stored thumbnail (pixels). */
export const SCREENSHOT_THUMB_WIDTH = 320;
/** The live view takes a picture this often (ms) and stops after LIVE_VIEW_LIMIT_MS. */
export const LIVE_VIEW_INTERVAL_MS = 5_000;
export const LIVE_VIEW_LIMIT_MS = 5 * 60_000;
/** Rate limits: one request per panel per PANEL_GAP_MS; ORG_BURST per organisation per ORG_WINDOW_MS. */
export const SCREENSHOT_PANEL_GAP_MS = 2_000;
export const SCREENSHOT_ORG_BURST = 120;
export const SCREENSHOT_ORG_WINDOW_MS = 10_000;
/** Most panels a wall view shows. */
export const WALL_MAX_PANELS = 100;

/**
 * A screenshot's life: `pending` (asked; the panel has until expiresAt) -> `stored`, or `failed`
 * with a reason: `offline` (not connected when asked), `timeout` (no upload in time),
 * `capture` (the panel could not capture), `refused` (its upload was refused), `unsupported`
 * (firmware without screenshots).
 */
export const SCREENSHOT_STATES = ['pending', 'stored', 'failed'] as const;
export const SCREENSHOT_FAILURES = ['offline', 'timeout', 'capture', 'refused', 'unsupported'] as const;
export type ScreenshotFailure = (typeof SCREENSHOT_FAILURES)[number];

export const screenshotRecord = z.object({
  screenshotId: z.number().int(),
  deviceId: z.number().int(),
  status: z.enum(SCREENSHOT_STATES),
  failure: z.enum(SCREENSHOT_FAILURES).nullable(),
  /** Epoch ms the user asked. */
  requestedAt: z.number().int(),
  /** Epoch ms the server stored the picture; null until then. */
  takenAt: z.number().int().nullable(),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
});
export type ScreenshotRecord = z.infer<typeof screenshotRecord>;

export const takeScreenshot = defineCall({
  method: 'POST',
  path: '/platform/device/screenshot/take',
  summary:
    "Ask an online panel of the caller's company for a picture of its screen (protocol 5.10); the reply's record is pending until the panel uploads or the time runs out. Rate-limited per panel and per company.",
  tag,
  access: callers.deviceOperators,
  params: z.object({ deviceId }),
  reply: itemReply(screenshotRecord),
});

export const screenshotStatus = defineCall({
  method: 'GET',
  path: '/platform/device/screenshot/status',
  summary: "One screenshot of a panel of the caller's company: pending, stored or failed (with why)",
  tag,
  access: callers.deviceOperators,
  params: z.object({ screenshotId }),
  reply: itemReply(screenshotRecord),
});

export const latestScreenshot = defineCall({
  method: 'GET',
  path: '/platform/device/screenshot/latest',
  summary: "The newest stored screenshot of a panel of the caller's company, or null",
  tag,
  access: callers.deviceOperators,
  params: z.object({ deviceId }),
  reply: itemReply(screenshotRecord.nullable()),
});

export const screenshotImage = defineCall({
  method: 'GET',
  path: '/platform/device/screenshot/image',
  summary:
    'The picture of a stored screenshot (JPEG or WebP as uploaded) or its thumbnail (WebP, 320 px wide)',
  tag,
  access: callers.deviceOperators,
  params: z.object({
    screenshotId,
    size: z.enum(['full', 'thumb'], { error: 'common.invalidParams' }).default('full'),
  }),
  reply: z.unknown(),
  produces: 'image/webp',
});

export const wallTile = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  deviceKey: z.string(),
  online: z.boolean(),
  /** The newest stored screenshot; null when the panel has none. */
  screenshot: screenshotRecord.nullable(),
});
export type WallTile = z.infer<typeof wallTile>;

export const wallOfLabel = defineCall({
  method: 'GET',
  path: '/platform/device/screenshot/wall',
  summary:
    "The wall view of a label: up to 100 panels of the caller's company carrying it, by name, each with its newest screenshot",
  tag,
  access: callers.deviceOperators,
  params: z.object({ labelId }),
  reply: listReply(wallTile).extend({ labelName: z.string() }),
});

/** The panel's upload (protocol 5.10): multipart field `image`; the signed token is the URL's `t`. */
export const uploadScreenshot = defineCall({
  method: 'POST',
  path: '/device/screenshot',
  summary:
    'A panel uploads the picture a SCREENSHOT order asked for, once, to the signed URL it was given (?t=token), as the multipart field `image` (JPEG or WebP)',
  tag,
  access: callers.panel,
  multipartFile: 'image',
  params: z.object({
    image: z.custom<MultipartFile>((v) => typeof v === 'object' && v !== null && 'bytes' in v, {
      error: 'screenshot.notImage',
    }),
  }),
  reply: itemReply(z.object({ width: z.number().int(), height: z.number().int(), bytes: z.number().int() })),
});
