import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';

// The spec does not show the material paths; they are chosen here in its style.

const tag = 'materials';

/** Material file types; 2 is audio (notification sounds). */
export const MATERIAL_FILE_TYPES = { audio: 2 } as const;

/** Audio uploads (spec 2 section 5): at most 20 MB, one of these formats, recognised by content. */
export const AUDIO_MAX_BYTES = 20 * 1024 * 1024;
export const AUDIO_FORMATS = ['mp3', 'wma', 'wav', 'amr', 'aac', 'ogg', 'mp4', 'flac', 'ape'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** The file-name extension of `name`, lower case, or '' when it has none. */
export const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};
export const isAudioFileName = (name: string) =>
  (AUDIO_FORMATS as readonly string[]).includes(extensionOf(name));

export const material = z.object({
  materialId: z.number().int(),
  /** The name the file was uploaded with. */
  fileName: z.string(),
  fileType: z.number().int(),
  /** The format recognised from the content. */
  format: z.enum(AUDIO_FORMATS),
  fileSize: z.number().int(),
  sha256: z.string(),
  createTime: z.number(),
});
export type Material = z.infer<typeof material>;

const materialId = z.coerce
  .number({ error: 'material.notFound' })
  .int({ error: 'material.notFound' })
  .positive({ error: 'material.notFound' });

export const listMaterials = defineCall({
  method: 'GET',
  path: '/material/listMaterial',
  summary: "The company's materials of one file type (2: audio), newest first",
  tag,
  access: callers.deviceOperators,
  params: z.object({
    fileType: z.coerce
      .number()
      .pipe(z.literal(MATERIAL_FILE_TYPES.audio, { error: 'material.fileTypeInvalid' })),
  }),
  reply: listReply(material),
});

export const insertMaterial = defineCall({
  method: 'POST',
  path: '/material/insertMaterial',
  summary:
    'Multipart: field fileType (2) first, then file uiFile (at most 20 MB; mp3, wma, wav, amr, aac, ogg, mp4, flac or ape, checked by content). Stored under a generated name with its SHA-256.',
  tag,
  access: callers.deviceOperators,
  params: z.object({}),
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
  // The server streams the file; the console hands the address to an <audio> element.
  reply: z.custom<Uint8Array | AsyncIterable<Uint8Array>>(
    (value) =>
      value instanceof Uint8Array ||
      (typeof value === 'object' && value !== null && Symbol.asyncIterator in value),
  ),
  produces: 'audio/*',
});
