import type { device } from '@panelfleet/contract';
import { z } from 'zod';
import type { SignedManifest } from '../../security/firmware-signing.js';
import type { DownloadService, RegisteredFile } from './service.js';

/**
 * An OTA command as the database keeps it: the registered file, the version, the signed
 * manifest and the task's downgrade permission, never a URL. The URL is signed for the target
 * panel each time the command is published, so a command published again after a restart or a
 * retry carries a fresh, unexpired URL.
 */
export const storedOtaValue = z.object({
  file: z.object({
    path: z.string().min(1),
    size: z.number().int().positive(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  version: z.string().min(1).max(64),
  manifest: z.string(),
  signature: z.string(),
  allowDowngrade: z.boolean(),
  /** The reminder for this panel's machine type, in its language (spec 3 section 2.10), when one is configured. */
  reminder: z.string().min(1).max(2000).optional(),
});
export type StoredOtaValue = z.infer<typeof storedOtaValue>;

export function storedOta(
  file: RegisteredFile,
  version: string,
  signed: SignedManifest,
  allowDowngrade = false,
): StoredOtaValue {
  return storedOtaValue.parse({
    file: { path: file.path, size: file.size, sha256: file.sha256 },
    version,
    manifest: signed.manifest,
    signature: signed.signature,
    allowDowngrade,
  });
}

/** What the panel receives (docs/device-protocol.md section 6). */
export function otaEnvelopeValue(
  downloads: DownloadService,
  stored: unknown,
  deviceKey: string,
): device.OtaValue {
  const { file, version, manifest, signature, allowDowngrade, reminder } = storedOtaValue.parse(stored);
  const signed = downloads.signedUrl(file, deviceKey);
  return {
    url: signed.url,
    size: signed.size,
    sha256: signed.sha256,
    version,
    manifest,
    signature,
    allowDowngrade,
    ...(reminder ? { reminder } : {}),
  };
}
