import type { device } from '@panelfleet/contract';
import { z } from 'zod';
import type { DownloadService, RegisteredFile } from './service.js';

/**
 * An APK install command as the database keeps it: the repository file and what the server read
 * from the APK, never a URL; the URL is signed for the target panel each time the command is
 * published (as for OTA).
 */
export const storedApkValue = z.object({
  file: z.object({
    path: z.string().min(1),
    size: z.number().int().positive(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  packageName: z.string().min(1).max(255),
  versionCode: z.number().int().nonnegative(),
  versionName: z.string().max(128),
  label: z.string().max(255),
  signerSha256: z.string().regex(/^[0-9a-f]{64}$/),
  allowDowngrade: z.boolean(),
});
export type StoredApkValue = z.infer<typeof storedApkValue>;

export function storedApk(
  file: RegisteredFile,
  app: Omit<StoredApkValue, 'file' | 'allowDowngrade'>,
  allowDowngrade = false,
): StoredApkValue {
  return storedApkValue.parse({
    file: { path: file.path, size: file.size, sha256: file.sha256 },
    ...app,
    allowDowngrade,
  });
}

/** What the panel receives (docs/device-protocol.md section 6.4). */
export function apkEnvelopeValue(
  downloads: DownloadService,
  stored: unknown,
  deviceKey: string,
): device.ApkInstallValue {
  const { file, ...app } = storedApkValue.parse(stored);
  const signed = downloads.signedUrl(file, deviceKey);
  return { url: signed.url, size: signed.size, sha256: signed.sha256, ...app };
}
