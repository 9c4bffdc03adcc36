/** The avatar types spec 1 allows, recognised by content, never by file name. */
export type AvatarSourceType = 'gif' | 'jpeg' | 'png' | 'bmp';

export function detectImageType(head: Buffer): AvatarSourceType | undefined {
  if (
    head.length >= 6 &&
    (head.subarray(0, 6).toString('latin1') === 'GIF87a' ||
      head.subarray(0, 6).toString('latin1') === 'GIF89a')
  )
    return 'gif';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (
    head.length >= 8 &&
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (head.length >= 2 && head[0] === 0x42 && head[1] === 0x4d) return 'bmp';
  return undefined;
}

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3;
}

/**
 * Decodes an uncompressed 24- or 32-bit BMP (what image editors save by default) into RGB rows,
 * since the image library reads every other allowed type but not BMP. Anything else is refused.
 */
export function decodeBmp(file: Buffer, maxSide: number): RawImage | undefined {
  if (file.length < 54) return undefined;
  const pixelOffset = file.readUInt32LE(10);
  const width = file.readInt32LE(18);
  const rawHeight = file.readInt32LE(22);
  const bitsPerPixel = file.readUInt16LE(28);
  const compression = file.readUInt32LE(30);
  const height = Math.abs(rawHeight);
  if (width <= 0 || height === 0 || width > maxSide || height > maxSide) return undefined;
  if ((bitsPerPixel !== 24 && bitsPerPixel !== 32) || (compression !== 0 && compression !== 3))
    return undefined;
  const bytesPerPixel = bitsPerPixel / 8;
  const rowSize = Math.ceil((width * bytesPerPixel) / 4) * 4;
  if (pixelOffset + rowSize * height > file.length) return undefined;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    // Positive height: rows are stored bottom-up.
    const sourceRow = rawHeight > 0 ? height - 1 - y : y;
    const rowStart = pixelOffset + sourceRow * rowSize;
    for (let x = 0; x < width; x++) {
      const s = rowStart + x * bytesPerPixel;
      const d = (y * width + x) * 3;
      data[d] = file[s + 2]!;
      data[d + 1] = file[s + 1]!;
      data[d + 2] = file[s]!;
    }
  }
  return { data, width, height, channels: 3 };
}
