import { z } from 'zod';
import { defineCall } from '../call.js';
import { users } from '../access.js';
import type { UserType } from '../menus.js';
import { itemReply } from '../envelope.js';

/**
 * Resumable uploads (the tus 1.0.0 protocol, https://tus.io/protocols/resumable-upload), used for
 * firmware today and for APKs and program media later. The console uses tus-js-client against
 * `/upload/tus`: a POST creates an upload (headers `Upload-Length` and `Upload-Metadata` with
 * `kind` and `filename`), PATCH sends bytes from `Upload-Offset`, HEAD tells the offset after a
 * cut (closed tab, network drop, server restart), DELETE cancels. The server streams the bytes to
 * its store (never into memory: a directory, or the S3 bucket where any instance takes any
 * request) and hashes them (SHA-256; MD5 for firmware) as they arrive; a finished upload
 * becomes a file only when the call of its kind takes it (e.g. /otaFile/insert with its
 * uploadId). An unfinished upload is never listed or offered to panels, and is deleted after a day.
 * Each kind has its own size limit (GET /upload/limits).
 */

const tag = 'uploads';

export const UPLOAD_KINDS = ['firmware', 'apk', 'video'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/**
 * Who may start an upload of each kind: firmware and APKs whoever manages OTA files and APKs;
 * videos (program materials, /material/insertVideo) a company account or its console users.
 */
export const UPLOAD_KIND_USER_TYPES: Record<UploadKind, readonly UserType[]> = {
  firmware: ['0', '1', '3', '4'],
  apk: ['0', '1', '3', '4'],
  video: ['2', '4'],
};

/** Who may upload: anyone who may upload some kind; the kind's own list is checked at creation. */
export const uploaders = users(['0', '1', '2', '3', '4'], { deployment: 'any' });

/** The tus endpoint; tus-js-client's `endpoint`. */
export const TUS_PATH = '/upload/tus';

const tusReply = z.unknown();

export const createUpload = defineCall({
  method: 'POST',
  path: TUS_PATH,
  summary:
    'tus creation: Tus-Resumable 1.0.0, Upload-Length (bytes, > 0, within the kind\'s limit), Upload-Metadata "kind <base64>,filename <base64>"; answers 201 with Location /upload/tus/{uploadId}',
  tag,
  access: uploaders,
  params: z.object({}),
  reply: tusReply,
  produces: 'tus',
});

export const uploadOffset = defineCall({
  method: 'HEAD',
  path: `${TUS_PATH}/:uploadId`,
  summary:
    "tus: the upload's Upload-Offset and Upload-Length (resume after a cut); another company's upload is 404",
  tag,
  access: uploaders,
  params: z.object({}),
  reply: tusReply,
  produces: 'tus',
});

export const uploadChunk = defineCall({
  method: 'PATCH',
  path: `${TUS_PATH}/:uploadId`,
  summary:
    'tus: bytes from Upload-Offset (Content-Type application/offset+octet-stream), streamed to disk and hashed as they arrive',
  tag,
  access: uploaders,
  params: z.object({}),
  reply: tusReply,
  produces: 'tus',
});

export const cancelUpload = defineCall({
  method: 'DELETE',
  path: `${TUS_PATH}/:uploadId`,
  summary: 'tus termination: cancel an upload and delete its bytes (not once a file was made of it)',
  tag,
  access: uploaders,
  params: z.object({}),
  reply: tusReply,
  produces: 'tus',
});

export const uploadState = z.object({
  uploadId: z.string(),
  kind: z.enum(UPLOAD_KINDS),
  fileName: z.string(),
  /** Bytes announced (Upload-Length). */
  size: z.number().int(),
  /** Bytes stored so far. */
  offset: z.number().int(),
  /** receiving, complete (hashed, waiting for its kind's call), used (a file was made of it). */
  state: z.enum(['receiving', 'complete', 'used']),
  sha256: z.string(),
  md5: z.string(),
  createdAt: z.number(),
});
export type UploadState = z.infer<typeof uploadState>;

export const getUpload = defineCall({
  method: 'GET',
  path: '/upload/state',
  summary: "One of the caller's company's uploads: bytes stored, state, and the hashes once complete",
  tag,
  access: uploaders,
  params: z.object({
    uploadId: z
      .string()
      .trim()
      .regex(/^[0-9a-f]{32}$/, { error: 'upload.notFound' }),
  }),
  reply: itemReply(uploadState),
});

export const uploadLimits = defineCall({
  method: 'GET',
  path: '/upload/limits',
  summary:
    'The largest upload of each kind, in bytes (UPLOAD_MAX_FIRMWARE_BYTES, UPLOAD_MAX_APK_BYTES; a video material at most 200 MB)',
  tag,
  access: uploaders,
  params: z.object({}),
  reply: itemReply(z.object({ firmware: z.number().int(), apk: z.number().int(), video: z.number().int() })),
});
