import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { pageParams } from '../rules.js';
import { recordId } from '../ids.js';

// The spec does not show the material paths; they are chosen here in its style.

const tag = 'materials';

/** Material file types: 2 is audio (notification sounds, spec 2); 1 images and 3 videos feed programs. */
export const MATERIAL_FILE_TYPES = { image: 1, audio: 2, video: 3 } as const;
export type MaterialKind = keyof typeof MATERIAL_FILE_TYPES;
export const MATERIAL_KIND_OF: Record<number, MaterialKind> = { 1: 'image', 2: 'audio', 3: 'video' };

/** Audio uploads (spec 2 section 5): at most 20 MB, one of these formats, recognised by content. */
export const AUDIO_MAX_BYTES = 20 * 1024 * 1024;
export const AUDIO_FORMATS = ['mp3', 'wma', 'wav', 'amr', 'aac', 'ogg', 'mp4', 'flac', 'ape'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** Program media (not in the spec, which shows audio only): recognised by content, never by name. */
export const IMAGE_FORMATS = ['png', 'jpg', 'gif', 'webp'] as const;
export const VIDEO_FORMATS = ['mp4', 'webm', 'mkv', 'avi', 'mov'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export type VideoFormat = (typeof VIDEO_FORMATS)[number];
export type MediaFormat = AudioFormat | ImageFormat | VideoFormat;
export const MEDIA_FORMATS = [...new Set([...AUDIO_FORMATS, ...IMAGE_FORMATS, ...VIDEO_FORMATS])] as [
  MediaFormat,
  ...MediaFormat[],
];
/** Names an image may carry (jpeg is jpg). */
export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;
export const VIDEO_EXTENSIONS = ['mp4', 'm4v', 'webm', 'mkv', 'avi', 'mov'] as const;
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const VIDEO_MAX_BYTES = 200 * 1024 * 1024;
export const MAX_BYTES_OF: Record<MaterialKind, number> = {
  image: IMAGE_MAX_BYTES,
  audio: 20 * 1024 * 1024,
  video: VIDEO_MAX_BYTES,
};

/** The file-name extension of `name`, lower case, or '' when it has none. */
export const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};
export const isAudioFileName = (name: string) =>
  (AUDIO_FORMATS as readonly string[]).includes(extensionOf(name));
const EXTENSIONS_OF: Record<MaterialKind, readonly string[]> = {
  image: IMAGE_EXTENSIONS,
  audio: AUDIO_FORMATS,
  video: VIDEO_EXTENSIONS,
};
/** True when the name's extension is one of the kind's (the content is checked as well). */
export const fitsKind = (kind: MaterialKind, name: string) => EXTENSIONS_OF[kind].includes(extensionOf(name));

export const material = z.object({
  materialId: z.number().int(),
  /** The name the file was uploaded with. */
  fileName: z.string(),
  fileType: z.number().int(),
  /** The format recognised from the content. */
  format: z.enum(MEDIA_FORMATS),
  /** Images: a small preview exists at /material/thumbnail. */
  hasThumbnail: z.boolean(),
  fileSize: z.number().int(),
  sha256: z.string(),
  createTime: z.number(),
});
export type Material = z.infer<typeof material>;

const materialId = recordId('material.notFound');

export const listMaterials = defineCall({
  method: 'GET',
  path: '/material/listMaterial',
  summary: "The company's materials of one file type (1 image, 2 audio, 3 video), newest first",
  tag,
  access: callers.deviceOperators,
  params: z.object({
    fileType: z.coerce
      .number()
      .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'material.fileTypeInvalid' })),
  }),
  reply: listReply(material),
});

/** The longest name search of the materials tab. */
export const MATERIAL_SEARCH_MAX = 64;

export const pageMaterials = defineCall({
  method: 'GET',
  path: '/material/pageMaterial',
  summary:
    "One page of the company's materials (the materials tab), newest first: of one file type or all (0), names containing `fileName`",
  tag,
  access: callers.deviceOperators,
  params: pageParams.extend({
    fileType: z.coerce
      .number()
      .pipe(
        z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
          error: 'material.fileTypeInvalid',
        }),
      )
      .default(0),
    fileName: z.string().trim().max(MATERIAL_SEARCH_MAX, { error: 'material.searchTooLong' }).optional(),
  }),
  reply: listReply(material),
});

export const insertMaterial = defineCall({
  method: 'POST',
  path: '/material/insertMaterial',
  summary:
    'Multipart: fileType (1 image, 2 audio, 3 video), then file uiFile; checked by content, stored under a generated name',
  tag,
  access: callers.deviceOperators,
  params: z.object({}),
  reply: itemReply(material),
});

export const insertVideo = defineCall({
  method: 'POST',
  path: '/material/insertVideo',
  summary:
    'A video material from a finished resumable upload (kind video, /upload/tus): checked by content like insertMaterial, then stored; an unfinished upload is refused and never listed',
  tag,
  access: callers.deviceOperators,
  params: z.object({
    uploadId: z
      .string({ error: 'upload.notFound' })
      .trim()
      .regex(/^[0-9a-f]{32}$/, { error: 'upload.notFound' }),
  }),
  reply: itemReply(material),
});

export const deleteMaterial = defineCall({
  method: 'POST',
  path: '/material/deleteMaterial',
  summary: 'Delete a material and its file',
  tag,
  access: callers.deviceOperators,
  params: z.object({ materialId }),
  reply: emptyReply,
});

export const materialFile = defineCall({
  method: 'GET',
  path: '/material/file',
  summary: "A material's file for preview in the console (Range requests allowed)",
  tag,
  access: callers.deviceOperators,
  params: z.object({ materialId }),
  // The server streams the file; the console hands the address to an <audio>, <img> or <video> element.
  reply: z.custom<Uint8Array | AsyncIterable<Uint8Array>>(
    (value) =>
      value instanceof Uint8Array ||
      (typeof value === 'object' && value !== null && Symbol.asyncIterator in value),
  ),
  produces: 'audio/*, image/*, video/*',
});

export const materialThumbnail = defineCall({
  method: 'GET',
  path: '/material/thumbnail',
  summary:
    "An image material's thumbnail, or a video's poster frame when one was made (WebP, at most 320 px wide)",
  tag,
  access: callers.deviceOperators,
  params: z.object({ materialId }),
  reply: z.custom<Uint8Array | AsyncIterable<Uint8Array>>(
    (value) =>
      value instanceof Uint8Array ||
      (typeof value === 'object' && value !== null && Symbol.asyncIterator in value),
  ),
  produces: 'image/webp',
});
