import crypto from 'node:crypto';
import sharp from 'sharp';
import yazl from 'yazl';
import { validCertificate, type Issued } from './x509-fixtures.js';

/**
 * Real APKs made on the spot (Debian has aapt and apksigner but not android.jar, so they could
 * not compile a manifest here): a binary AndroidManifest.xml (Android's AXML chunk format), a
 * resources.arsc with the label and a launcher icon in two densities, PNG icons, a classes.dex,
 * all zipped, then signed with an APK Signature Scheme v2 block (ECDSA P-256 / SHA-256 over the
 * real chunked content digest) by a certificate of x509-fixtures. Android's own parsers read
 * these structures the same way; the server reads them with adbkit-apkreader and its own
 * resources and signature readers.
 */

export interface ApkSpec {
  packageName: string;
  versionCode: number;
  versionName: string;
  label: string;
  minSdk?: number;
  /** Icon colour (each fixture gets a recognisable picture). */
  color?: { r: number; g: number; b: number };
  /** Omit the signing block (an unsigned APK). */
  unsigned?: boolean;
  /** Bytes of filler in an uncompressed asset (for large APKs). */
  padding?: number;
}

export interface ApkSigner {
  certificate: Buffer;
  key: crypto.KeyObject;
  sha256: string;
}

export function apkSigner(subject: string): ApkSigner {
  const issued: Issued = validCertificate(subject, 3650);
  const certificate = new crypto.X509Certificate(issued.pem).raw;
  return {
    certificate,
    key: issued.key,
    sha256: crypto.createHash('sha256').update(certificate).digest('hex'),
  };
}

// ---- binary XML (AXML) ----

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const chunk = (type: number, headerRest: Buffer, body: Buffer) => {
  const headerSize = 8 + headerRest.length;
  return Buffer.concat([u16(type), u16(headerSize), u32(headerSize + body.length), headerRest, body]);
};
const pad4 = (b: Buffer) => (b.length % 4 ? Buffer.concat([b, Buffer.alloc(4 - (b.length % 4))]) : b);

/** A UTF-16 string pool chunk. */
function stringPool(strings: string[]) {
  const offsets: Buffer[] = [];
  const data: Buffer[] = [];
  let at = 0;
  for (const s of strings) {
    offsets.push(u32(at));
    const encoded = Buffer.concat([u16(s.length), Buffer.from(s, 'utf16le'), u16(0)]);
    data.push(encoded);
    at += encoded.length;
  }
  const stringsStart = 28 + strings.length * 4;
  const body = pad4(Buffer.concat([...offsets, ...data]));
  return chunk(0x0001, Buffer.concat([u32(strings.length), u32(0), u32(0), u32(stringsStart), u32(0)]), body);
}

const ANDROID_NS = 'http://schemas.android.com/apk/res/android';
const ATTR_IDS: Record<string, number> = {
  label: 0x01010001,
  icon: 0x01010002,
  name: 0x01010003,
  versionCode: 0x0101021b,
  versionName: 0x0101021c,
  minSdkVersion: 0x0101020c,
  targetSdkVersion: 0x01010270,
};
type AttrValue = { string: string } | { int: number } | { ref: number };
interface XmlElement {
  name: string;
  attrs: Array<{ android: boolean; name: string; value: AttrValue }>;
  children: XmlElement[];
}

function axml(root: XmlElement) {
  // Attribute names with resource ids first (the resource map lines up with them).
  const attrNames = Object.keys(ATTR_IDS);
  const strings = [...attrNames];
  const index = (s: string) => {
    let i = strings.indexOf(s);
    if (i < 0) i = strings.push(s) - 1;
    return i;
  };
  const nsPrefix = index('android');
  const nsUri = index(ANDROID_NS);
  const body: Buffer[] = [];
  const NONE = 0xffffffff;
  const walk = (el: XmlElement) => {
    const attrs = el.attrs.map((a) => {
      const name = index(a.name);
      const ns = a.android ? nsUri : NONE;
      if ('string' in a.value) {
        const s = index(a.value.string);
        return Buffer.concat([u32(ns), u32(name), u32(s), u16(8), Buffer.from([0, 0x03]), u32(s)]);
      }
      if ('int' in a.value)
        return Buffer.concat([
          u32(ns),
          u32(name),
          u32(NONE),
          u16(8),
          Buffer.from([0, 0x10]),
          u32(a.value.int),
        ]);
      return Buffer.concat([u32(ns), u32(name), u32(NONE), u16(8), Buffer.from([0, 0x01]), u32(a.value.ref)]);
    });
    const elName = index(el.name);
    body.push(
      chunk(
        0x0102,
        Buffer.concat([u32(1), u32(NONE)]),
        Buffer.concat([
          u32(NONE),
          u32(elName),
          u16(20),
          u16(20),
          u16(attrs.length),
          u16(0),
          u16(0),
          u16(0),
          ...attrs,
        ]),
      ),
    );
    el.children.forEach(walk);
    body.push(chunk(0x0103, Buffer.concat([u32(1), u32(NONE)]), Buffer.concat([u32(NONE), u32(elName)])));
  };
  const nsStart = chunk(
    0x0100,
    Buffer.concat([u32(1), u32(NONE)]),
    Buffer.concat([u32(nsPrefix), u32(nsUri)]),
  );
  walk(root);
  const nsEnd = chunk(0x0101, Buffer.concat([u32(1), u32(NONE)]), Buffer.concat([u32(nsPrefix), u32(nsUri)]));
  const resourceMap = chunk(0x0180, Buffer.alloc(0), Buffer.concat(attrNames.map((n) => u32(ATTR_IDS[n]!))));
  return chunk(
    0x0003,
    Buffer.alloc(0),
    Buffer.concat([stringPool(strings), resourceMap, nsStart, ...body, nsEnd]),
  );
}

// ---- resources.arsc ----

const LABEL_ID = 0x7f010000;
const ICON_ID = 0x7f020000;
const ICON_PATHS = [
  { density: 160, path: 'res/mipmap-mdpi-v4/ic_launcher.png', size: 48 },
  { density: 480, path: 'res/mipmap-xxhdpi-v4/ic_launcher.png', size: 144 },
];

function typeChunk(typeId: number, density: number, keyIndex: number, valueType: number, data: number) {
  const config = Buffer.alloc(64);
  config.writeUInt32LE(64, 0);
  config.writeUInt16LE(density, 14);
  const entry = Buffer.concat([
    u16(8),
    u16(0),
    u32(keyIndex),
    u16(8),
    Buffer.from([0, valueType]),
    u32(data),
  ]);
  const offsets = u32(0);
  const headerRest = Buffer.concat([
    Buffer.from([typeId, 0]),
    u16(0),
    u32(1),
    u32(8 + 12 + 64 + offsets.length),
    config,
  ]);
  return chunk(0x0201, headerRest, Buffer.concat([offsets, entry]));
}

function specChunk(typeId: number) {
  return chunk(0x0202, Buffer.concat([Buffer.from([typeId, 0]), u16(0), u32(1)]), u32(0));
}

function arsc(label: string) {
  const values = stringPool([label, ...ICON_PATHS.map((i) => i.path)]);
  const typeStrings = stringPool(['string', 'mipmap']);
  const keyStrings = stringPool(['app_name', 'ic_launcher']);
  const name = Buffer.alloc(256);
  name.write('app', 0, 'utf16le');
  const pkgHeaderRest = Buffer.concat([
    u32(0x7f),
    name,
    u32(288),
    u32(2),
    u32(288 + typeStrings.length),
    u32(2),
    u32(0),
  ]);
  const pkgBody = Buffer.concat([
    typeStrings,
    keyStrings,
    specChunk(1),
    typeChunk(1, 0, 0, 0x03, 0),
    specChunk(2),
    ...ICON_PATHS.map((icon, i) => typeChunk(2, icon.density, 1, 0x03, 1 + i)),
  ]);
  const pkg = chunk(0x0200, pkgHeaderRest, pkgBody);
  return chunk(0x0002, u32(1), Buffer.concat([values, pkg]));
}

// ---- the APK ----

export async function buildApk(spec: ApkSpec, signer?: ApkSigner): Promise<Buffer> {
  const manifest = axml({
    name: 'manifest',
    attrs: [
      { android: true, name: 'versionCode', value: { int: spec.versionCode } },
      { android: true, name: 'versionName', value: { string: spec.versionName } },
      { android: false, name: 'package', value: { string: spec.packageName } },
    ],
    children: [
      {
        name: 'uses-sdk',
        attrs: [
          { android: true, name: 'minSdkVersion', value: { int: spec.minSdk ?? 24 } },
          { android: true, name: 'targetSdkVersion', value: { int: 33 } },
        ],
        children: [],
      },
      {
        name: 'application',
        attrs: [
          { android: true, name: 'label', value: { ref: LABEL_ID } },
          { android: true, name: 'icon', value: { ref: ICON_ID } },
        ],
        children: [],
      },
    ],
  });
  const color = spec.color ?? { r: 30, g: 120, b: 220 };
  const zip = new yazl.ZipFile();
  zip.addBuffer(manifest, 'AndroidManifest.xml', { compress: true, mtime: new Date(0) });
  zip.addBuffer(arsc(spec.label), 'resources.arsc', { compress: false, mtime: new Date(0) });
  for (const icon of ICON_PATHS) {
    const png = await sharp({
      create: { width: icon.size, height: icon.size, channels: 4, background: { ...color, alpha: 1 } },
    })
      .png()
      .toBuffer();
    zip.addBuffer(png, icon.path, { compress: false, mtime: new Date(0) });
  }
  zip.addBuffer(Buffer.from(`dex\n035\0${spec.packageName}`), 'classes.dex', { mtime: new Date(0) });
  if (spec.padding)
    zip.addBuffer(crypto.randomBytes(spec.padding), 'assets/payload.bin', {
      compress: false,
      mtime: new Date(0),
    });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream as AsyncIterable<Buffer>) chunks.push(c);
  const unsignedApk = Buffer.concat(chunks);
  if (spec.unsigned || !signer) return unsignedApk;
  return signV2(unsignedApk, signer);
}

/** Inserts an APK Signature Scheme v2 block before the central directory. */
export function signV2(apk: Buffer, signer: ApkSigner): Buffer {
  const eocd = apk.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const cdOffset = apk.readUInt32LE(eocd + 16);
  const entries = apk.subarray(0, cdOffset);
  const cd = apk.subarray(cdOffset, eocd);
  const end = Buffer.from(apk.subarray(eocd));
  const lp = (b: Buffer) => Buffer.concat([u32(b.length), b]);
  const ALG = 0x0201; // ECDSA with SHA2-256

  const chunkDigests: Buffer[] = [];
  const section = (b: Buffer) => {
    for (let at = 0; at < b.length; at += 1024 * 1024) {
      const part = b.subarray(at, at + 1024 * 1024);
      chunkDigests.push(
        crypto
          .createHash('sha256')
          .update(Buffer.from([0xa5]))
          .update(u32(part.length))
          .update(part)
          .digest(),
      );
    }
  };
  // The end record as signed names the central directory at the block's offset, i.e. cdOffset now.
  const signedEnd = Buffer.from(end);
  signedEnd.writeUInt32LE(cdOffset, 16);
  section(entries);
  section(cd);
  section(signedEnd);
  const digest = crypto
    .createHash('sha256')
    .update(Buffer.from([0x5a]))
    .update(u32(chunkDigests.length))
    .update(Buffer.concat(chunkDigests))
    .digest();

  const signedData = Buffer.concat([
    lp(lp(Buffer.concat([u32(ALG), lp(digest)]))),
    lp(lp(signer.certificate)),
    lp(Buffer.alloc(0)),
  ]);
  const signature = crypto.sign('sha256', signedData, signer.key);
  const publicKey = new crypto.X509Certificate(signer.certificate).publicKey.export({
    format: 'der',
    type: 'spki',
  });
  const signerBlock = Buffer.concat([
    lp(signedData),
    lp(lp(Buffer.concat([u32(ALG), lp(signature)]))),
    lp(publicKey),
  ]);
  const v2Value = lp(lp(signerBlock));
  const pair = Buffer.concat([u64(4 + v2Value.length), u32(0x7109871a), v2Value]);
  const blockSize = pair.length + 8 + 16;
  const block = Buffer.concat([
    u64(blockSize),
    pair,
    u64(blockSize),
    Buffer.from('APK Sig Block 42', 'latin1'),
  ]);
  end.writeUInt32LE(cdOffset + block.length, 16);
  return Buffer.concat([entries, block, cd, end]);
}

const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};

/** A zip that inflates 100 MiB of zeros from about 100 KiB (and has a manifest, so it looks like an APK). */
export async function zipBomb(): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('not really a manifest'), 'AndroidManifest.xml');
  zip.addBuffer(Buffer.alloc(100 * 1024 * 1024), 'assets/zeros.bin', { compress: true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}
