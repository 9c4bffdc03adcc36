import type { materials } from '@panelfleet/contract';
import { BASE_HEAD_BYTES, detectAudioFormat, headBytesNeeded } from './audio-type.js';

const ascii = (head: Buffer, start: number, text: string) =>
  head.length >= start + text.length && head.subarray(start, start + text.length).toString('latin1') === text;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** An image format from the first bytes (SVG is not taken: it is a document that may run script). */
export function detectImageFormat(head: Buffer): materials.ImageFormat | undefined {
  if (head.length >= 8 && head.subarray(0, 8).equals(PNG_MAGIC)) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return 'gif';
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return 'webp';
  return undefined;
}

/** ISO base media brands that hold audio only (an .m4a is not a video). */
const AUDIO_ONLY_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ', 'F4B ']);

/** A video container from the first bytes. */
export function detectVideoFormat(head: Buffer): materials.VideoFormat | undefined {
  if (ascii(head, 4, 'ftyp') && head.length >= 12) {
    const brand = head.subarray(8, 12).toString('latin1');
    if (AUDIO_ONLY_BRANDS.has(brand)) return undefined;
    return brand === 'qt  ' ? 'mov' : 'mp4';
  }
  if (head.length >= 4 && head.subarray(0, 4).equals(EBML_MAGIC))
    return head.includes(Buffer.from('webm', 'latin1')) ? 'webm' : 'mkv';
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'AVI ')) return 'avi';
  return undefined;
}

export interface FormatDetector {
  /** Bytes needed to decide, given the first ones (an ID3 tag asks for more). */
  headBytesNeeded(head: Buffer): number;
  detect(head: Buffer): materials.MediaFormat | undefined;
  /** The message keys of a refused format and of a file over the kind's limit. */
  refusal: string;
  tooLarge: string;
}

export const DETECTORS: Record<materials.MaterialKind, FormatDetector> = {
  audio: {
    headBytesNeeded,
    detect: detectAudioFormat,
    refusal: 'deviceManage.FileFormat',
    tooLarge: 'deviceManage.FileSize',
  },
  image: {
    headBytesNeeded: () => BASE_HEAD_BYTES,
    detect: detectImageFormat,
    refusal: 'material.imageFormat',
    tooLarge: 'deviceManage.FileSize',
  },
  video: {
    headBytesNeeded: () => BASE_HEAD_BYTES,
    detect: detectVideoFormat,
    refusal: 'material.videoFormat',
    tooLarge: 'material.videoTooLarge',
  },
};

/** The media type the console's elements (and panels) are given for each format. */
export const MEDIA_TYPES: Record<materials.MediaFormat, string> = {
  mp3: 'audio/mpeg',
  wma: 'audio/x-ms-wma',
  wav: 'audio/wav',
  amr: 'audio/amr',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  flac: 'audio/flac',
  ape: 'audio/x-ape',
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  mov: 'video/quicktime',
};

/** Audio's mp4 is served as audio (the notification preview plays it in an <audio> element). */
export function mediaTypeOf(kind: number, format: materials.MediaFormat): string {
  if (format === 'mp4' && kind === 2) return 'audio/mp4';
  return MEDIA_TYPES[format];
}
