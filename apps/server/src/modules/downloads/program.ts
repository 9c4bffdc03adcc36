import type { device } from '@panelfleet/contract';
import { z } from 'zod';
import type { DownloadService } from './service.js';

const storedFile = z.object({
  path: z.string().min(1),
  size: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/**
 * A program command as the database keeps it: each media item's registered file (never a URL),
 * a web item's address. Every publish signs the files anew for the target panel.
 */
export const storedProgramValue = z.object({
  programId: z.number().int().positive(),
  revision: z.number().int().nonnegative(),
  name: z.string().min(1).max(100),
  playTime: z.number().int().positive(),
  items: z
    .array(
      z.discriminatedUnion('type', [
        z.object({
          type: z.enum(['image', 'video', 'audio']),
          duration: z.number().int().positive(),
          file: storedFile,
          mediaType: z.string().min(3).max(64),
          name: z.string().min(1).max(255).optional(),
        }),
        z.object({ type: z.literal('web'), duration: z.number().int().positive(), url: z.string().url() }),
      ]),
    )
    .min(1),
});
export type StoredProgramValue = z.infer<typeof storedProgramValue>;

/** What the panel receives (docs/device-protocol.md section 6.5). */
export function programEnvelopeValue(
  downloads: DownloadService,
  stored: unknown,
  deviceKey: string,
): device.ProgramValue {
  const { items, ...program } = storedProgramValue.parse(stored);
  return {
    ...program,
    items: items.map((item) => {
      if (item.type === 'web') return item;
      const signed = downloads.signedUrl(item.file, deviceKey);
      return {
        type: item.type,
        duration: item.duration,
        url: signed.url,
        size: signed.size,
        sha256: signed.sha256,
        mediaType: item.mediaType,
        ...(item.name ? { name: item.name } : {}),
      };
    }),
  };
}
