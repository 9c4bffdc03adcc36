/**
 * A reader of the compiled resource table (resources.arsc) just deep enough to resolve a
 * manifest's label and icon references (adbkit-apkreader leaves them as `resourceId:0x7f...`):
 * the global string pool, packages, and their type chunks. Each read is bounds-checked; a
 * malformed table throws.
 */

const RES_STRING_POOL = 0x0001;
const RES_TABLE = 0x0002;
const RES_TABLE_PACKAGE = 0x0200;
const RES_TABLE_TYPE = 0x0201;
const TYPE_REFERENCE = 0x01;
const TYPE_STRING = 0x03;
const FLAG_SPARSE = 0x01;
const FLAG_OFFSET16 = 0x02;
const ENTRY_COMPLEX = 0x0001;
const NO_ENTRY = 0xffffffff;

class Reader {
  constructor(readonly buf: Buffer) {}
  check(offset: number, length: number) {
    if (offset < 0 || length < 0 || offset + length > this.buf.length)
      throw new Error('resources: out of bounds');
  }
  u8(o: number) {
    this.check(o, 1);
    return this.buf.readUInt8(o);
  }
  u16(o: number) {
    this.check(o, 2);
    return this.buf.readUInt16LE(o);
  }
  u32(o: number) {
    this.check(o, 4);
    return this.buf.readUInt32LE(o);
  }
}

/** A string pool's strings (UTF-8 or UTF-16), read lazily by index. */
function stringPool(r: Reader, start: number): (index: number) => string {
  const headerSize = r.u16(start + 2);
  const count = r.u32(start + 8);
  const flags = r.u32(start + 16);
  const stringsStart = start + r.u32(start + 20);
  const utf8 = (flags & (1 << 8)) !== 0;
  return (index: number) => {
    if (index >= count) throw new Error('resources: string index');
    let at = stringsStart + r.u32(start + headerSize + index * 4);
    if (utf8) {
      // character count, then byte count, each 1 or 2 bytes
      at += r.u8(at) & 0x80 ? 2 : 1;
      let bytes = r.u8(at);
      if (bytes & 0x80) {
        bytes = ((bytes & 0x7f) << 8) | r.u8(at + 1);
        at += 2;
      } else at += 1;
      r.check(at, bytes);
      return r.buf.toString('utf8', at, at + bytes);
    }
    let chars = r.u16(at);
    if (chars & 0x8000) {
      chars = ((chars & 0x7fff) << 16) | r.u16(at + 2);
      at += 4;
    } else at += 2;
    r.check(at, chars * 2);
    return r.buf.toString('utf16le', at, at + chars * 2);
  };
}

interface Found {
  value: string;
  density: number;
  localized: boolean;
}

/**
 * The values of resource `id` in every configuration, as strings: the default language first,
 * then the densest. References are followed (at most 8 hops); maps (styles) are not values.
 */
export function resolveResource(arsc: Buffer, id: number, depth = 0): string[] {
  const r = new Reader(arsc);
  if (r.u16(0) !== RES_TABLE) throw new Error('resources: not a table');
  const tableHeader = r.u16(2);
  const tableSize = Math.min(r.u32(4), arsc.length);
  let strings: ((i: number) => string) | undefined;
  const found: Found[] = [];
  const pkgId = id >>> 24;
  const typeId = (id >>> 16) & 0xff;
  const entryId = id & 0xffff;
  const refs: Array<{ ref: number; density: number; localized: boolean }> = [];

  for (let at = tableHeader; at + 8 <= tableSize;) {
    const type = r.u16(at);
    const size = r.u32(at + 4);
    if (size < 8) throw new Error('resources: chunk size');
    if (type === RES_STRING_POOL && !strings) strings = stringPool(r, at);
    if (type === RES_TABLE_PACKAGE && r.u32(at + 8) === pkgId) {
      const pkgHeader = r.u16(at + 2);
      const end = Math.min(at + size, tableSize);
      for (let c = at + pkgHeader; c + 8 <= end;) {
        const ctype = r.u16(c);
        const csize = r.u32(c + 4);
        if (csize < 8) throw new Error('resources: chunk size');
        if (ctype === RES_TABLE_TYPE && r.u8(c + 8) === typeId) {
          const flags = r.u8(c + 9);
          const headerSize = r.u16(c + 2);
          const count = r.u32(c + 12);
          const entriesStart = c + r.u32(c + 16);
          const config = c + 20;
          const localized = r.u16(config + 8) !== 0;
          const density = r.u16(config + 14);
          let offset: number | undefined;
          if (flags & FLAG_SPARSE) {
            for (let i = 0; i < count; i++) {
              if (r.u16(c + headerSize + i * 4) === entryId) {
                offset = r.u16(c + headerSize + i * 4 + 2) * 4;
                break;
              }
            }
          } else if (entryId < count) {
            if (flags & FLAG_OFFSET16) {
              const o = r.u16(c + headerSize + entryId * 2);
              offset = o === 0xffff ? undefined : o * 4;
            } else {
              const o = r.u32(c + headerSize + entryId * 4);
              offset = o === NO_ENTRY ? undefined : o;
            }
          }
          if (offset !== undefined) {
            const entry = entriesStart + offset;
            const entrySize = r.u16(entry);
            const entryFlags = r.u16(entry + 2);
            if (!(entryFlags & ENTRY_COMPLEX)) {
              const value = entry + entrySize;
              const dataType = r.u8(value + 3);
              const data = r.u32(value + 4);
              if (dataType === TYPE_STRING) {
                if (!strings) throw new Error('resources: no string pool');
                found.push({ value: strings(data), density, localized });
              } else if (dataType === TYPE_REFERENCE) refs.push({ ref: data, density, localized });
            }
          }
        }
        c += csize;
      }
    }
    at += size;
  }
  if (depth < 8)
    for (const { ref, density, localized } of refs)
      for (const value of resolveResource(arsc, ref, depth + 1)) found.push({ value, density, localized });
  found.sort((a, b) => Number(a.localized) - Number(b.localized) || b.density - a.density);
  return found.map((f) => f.value);
}
