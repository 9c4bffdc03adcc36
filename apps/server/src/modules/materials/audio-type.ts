import type { materials } from '@panelfleet/contract';

type AudioFormat = materials.AudioFormat;

/** Bytes looked at when nothing asks for more (every signature below fits). */
export const BASE_HEAD_BYTES = 64;

const ASF_HEADER = Buffer.from([
  0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c,
]);
const AMR_MAGICS = ['#!AMR\n', '#!AMR-WB\n', '#!AMR_MC1.0\n', '#!AMR-WB_MC1.0\n'].map((m) =>
  Buffer.from(m, 'latin1'),
);

const ascii = (head: Buffer, start: number, text: string) =>
  head.length >= start + text.length && head.subarray(start, start + text.length).toString('latin1') === text;

/** Length of an ID3v2 tag at `offset` (header, body and footer), or undefined when there is none. */
function id3Length(head: Buffer, offset: number): number | undefined {
  if (!ascii(head, offset, 'ID3') || head.length < offset + 10) return undefined;
  const size = head.subarray(offset + 6, offset + 10);
  // The size is four 7-bit bytes ("synchsafe"); a set top bit means this is no tag.
  if (size.some((b) => b & 0x80)) return undefined;
  const body = (size[0]! << 21) | (size[1]! << 14) | (size[2]! << 7) | size[3]!;
  const footer = head[offset + 5]! & 0x10 ? 10 : 0;
  return 10 + body + footer;
}

/** An MPEG audio layer III frame header (MPEG 1, 2 or 2.5) at `offset`. */
function isMp3Frame(head: Buffer, offset: number): boolean {
  if (head.length < offset + 4) return false;
  const [b0, b1, b2] = [head[offset]!, head[offset + 1]!, head[offset + 2]!];
  const sync = b0 === 0xff && (b1 & 0xe0) === 0xe0;
  const version = (b1 >> 3) & 3; // 1 is reserved
  const layer = (b1 >> 1) & 3; // 1 is layer III
  const bitrate = b2 >> 4; // 15 is invalid
  const sampleRate = (b2 >> 2) & 3; // 3 is reserved
  return sync && version !== 1 && layer === 1 && bitrate !== 15 && sampleRate !== 3;
}

/** An AAC ADTS frame header at `offset`. */
function isAdtsFrame(head: Buffer, offset: number): boolean {
  if (head.length < offset + 7) return false;
  const [b0, b1, b2] = [head[offset]!, head[offset + 1]!, head[offset + 2]!];
  const frequency = (b2 >> 2) & 15; // 13-15 are reserved
  return b0 === 0xff && (b1 & 0xf6) === 0xf0 && frequency < 13;
}

/**
 * How many leading bytes the detector needs: an ID3 tag (which may hold cover art) is skipped,
 * so the audio after it must be in the head too.
 */
export function headBytesNeeded(head: Buffer): number {
  const tag = id3Length(head, 0);
  return tag === undefined ? BASE_HEAD_BYTES : tag + BASE_HEAD_BYTES;
}

/**
 * The audio format of a file, recognised from its first bytes (never from its name), or
 * undefined when it is none of the formats spec 2 allows.
 */
export function detectAudioFormat(head: Buffer, offset = 0): AudioFormat | undefined {
  const tag = id3Length(head, offset);
  // ID3 tags precede MP3 and sometimes AAC or FLAC; the format is what follows the tag.
  if (tag !== undefined) return offset === 0 ? detectAudioFormat(head, tag) : undefined;
  if (ascii(head, offset, 'RIFF') && ascii(head, offset + 8, 'WAVE')) return 'wav';
  if (ascii(head, offset, 'OggS')) return 'ogg';
  if (ascii(head, offset, 'fLaC')) return 'flac';
  if (ascii(head, offset, 'MAC ')) return 'ape';
  if (ascii(head, offset + 4, 'ftyp')) return 'mp4';
  if (head.length >= offset + 16 && head.subarray(offset, offset + 16).equals(ASF_HEADER)) return 'wma';
  if (
    AMR_MAGICS.some(
      (magic) =>
        head.length >= offset + magic.length && head.subarray(offset, offset + magic.length).equals(magic),
    )
  )
    return 'amr';
  if (ascii(head, offset, 'ADIF') || isAdtsFrame(head, offset)) return 'aac';
  if (isMp3Frame(head, offset)) return 'mp3';
  return undefined;
}
