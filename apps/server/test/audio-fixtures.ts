/** Small, valid-looking files of every audio format spec 2 allows, and some that only pretend. */

/** A real PCM WAV: mono, 8 kHz, 16-bit, a 440 Hz tone of `seconds`. */
export function wavTone(seconds = 0.5, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 12000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const padded = (head: Buffer | string, total = 512) => {
  const start = typeof head === 'string' ? Buffer.from(head, 'latin1') : head;
  return Buffer.concat([start, Buffer.alloc(Math.max(0, total - start.length), 0x11)]);
};

/** An MPEG-1 layer III frame header (128 kbit/s, 44.1 kHz). */
const MP3_FRAME = Buffer.from([0xff, 0xfb, 0x90, 0x64]);
/** An ID3v2.3 tag of `body` bytes (synchsafe size). */
const id3 = (body: number) =>
  Buffer.concat([
    Buffer.from([
      0x49,
      0x44,
      0x33,
      3,
      0,
      0,
      (body >> 21) & 127,
      (body >> 14) & 127,
      (body >> 7) & 127,
      body & 127,
    ]),
    Buffer.alloc(body),
  ]);

export const AUDIO_SAMPLES: Record<string, Buffer> = {
  mp3: padded(MP3_FRAME),
  wma: padded(
    Buffer.from([
      0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c,
    ]),
  ),
  wav: wavTone(0.1),
  amr: padded('#!AMR\n'),
  aac: padded(Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc])),
  ogg: padded('OggS\0\x02'),
  mp4: padded(Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A ', 'latin1')])),
  flac: padded('fLaC\0\0\0\x22'),
  ape: padded('MAC \x96\x0f'),
};

/** MP3 behind an ID3 tag of 100 KB (cover art), so the format is only known past the tag. */
export const MP3_WITH_LARGE_TAG = Buffer.concat([id3(100_000), padded(MP3_FRAME)]);
/** An ID3 tag followed by text: a tag alone makes no audio file. */
export const ID3_THEN_TEXT = Buffer.concat([
  id3(200),
  Buffer.from('this is not audio at all, just words '.repeat(5)),
]);
export const TEXT_FILE = Buffer.from('Hello, I am a text file wearing an .mp3 name.\n'.repeat(20));
export const PNG_FILE = padded(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
export const JPEG_FILE = padded(Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
