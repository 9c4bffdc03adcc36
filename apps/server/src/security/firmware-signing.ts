import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { device } from '@panelfleet/contract';

export const SIGNING_KEY_FILE = 'firmware-signing-key.pem';

/** A manifest as panels receive it: the exact JSON text signed, and its Ed25519 signature (base64). */
export interface SignedManifest {
  manifest: string;
  signature: string;
}

/**
 * The platform's firmware signing key (Ed25519). FIRMWARE_SIGNING_KEY (a PKCS#8 PEM) if set —
 * required when several instances or a separate build host sign — else a key generated on first
 * start into DATA_DIR/firmware-signing-key.pem (mode 0600). Panels receive the public key at
 * enrollment and install only images whose manifest verifies with it.
 */
export class FirmwareSigner {
  private constructor(
    private readonly privateKey: crypto.KeyObject,
    readonly publicKey: crypto.KeyObject,
  ) {}

  static load(configured: string | undefined, dataDir: string): FirmwareSigner {
    let pem = configured?.trim();
    if (!pem) {
      const file = path.join(dataDir, SIGNING_KEY_FILE);
      if (fs.existsSync(file)) pem = fs.readFileSync(file, 'utf8');
      else {
        fs.mkdirSync(dataDir, { recursive: true });
        const { privateKey } = crypto.generateKeyPairSync('ed25519');
        pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
        try {
          fs.writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
        } catch (err) {
          // Another instance on the same DATA_DIR wrote it first: use that one.
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
          pem = fs.readFileSync(file, 'utf8');
        }
      }
    }
    const privateKey = crypto.createPrivateKey(pem);
    if (privateKey.asymmetricKeyType !== 'ed25519')
      throw new Error('FIRMWARE_SIGNING_KEY must be an Ed25519 private key');
    return new FirmwareSigner(privateKey, crypto.createPublicKey(privateKey));
  }

  /** The raw 32-byte public key, base64, as enrollment hands it to panels. */
  get publicKeyBase64(): string {
    const der = this.publicKey.export({ type: 'spki', format: 'der' });
    return der.subarray(der.length - 32).toString('base64');
  }

  /** Signs a manifest; the text keeps the field order of the protocol document. */
  sign(fields: Omit<device.FirmwareManifest, 'v'>): SignedManifest {
    const manifest = JSON.stringify(
      device.firmwareManifest.parse({
        v: 1,
        version: fields.version,
        size: fields.size,
        sha256: fields.sha256,
        machineTypes: fields.machineTypes,
        fromVersions: fields.fromVersions,
        issuedAt: fields.issuedAt,
      }),
    );
    const signature = crypto.sign(null, Buffer.from(manifest, 'utf8'), this.privateKey).toString('base64');
    return { manifest, signature };
  }
}

/** What a panel does (protocol section 6.1): verifies the manifest text with the raw public key. */
export function verifyManifest(publicKeyBase64: string, signed: SignedManifest): boolean {
  const raw = Buffer.from(publicKeyBase64, 'base64');
  if (raw.length !== 32) return false;
  const key = crypto.createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]),
    format: 'der',
    type: 'spki',
  });
  return crypto.verify(
    null,
    Buffer.from(signed.manifest, 'utf8'),
    key,
    Buffer.from(signed.signature, 'base64'),
  );
}
