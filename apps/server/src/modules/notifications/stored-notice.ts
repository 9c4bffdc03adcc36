import { device } from '@panelfleet/contract';
import { z } from 'zod';
import type { DownloadService, RegisteredFile } from '../downloads/service.js';

type NotifyValue = device.OrderValue<'NOTIFY'>;

/**
 * A NOTIFY command as the database keeps it: a custom audio is the registered file, never a URL.
 * Like an OTA, the URL is signed for the target panel each time the command is published, so
 * every panel of a label gets its own and a retry after an hour still carries a valid one.
 */
export const storedNoticeValue = device.notificationValue
  .omit({ audioUrl: true, audioSize: true, audioSha256: true })
  .extend({
    audioFile: z
      .object({
        path: z.string().min(1),
        size: z.number().int().positive(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      })
      .optional(),
  });
export type StoredNoticeValue = z.infer<typeof storedNoticeValue>;

export function storedNotice(
  value: Omit<StoredNoticeValue, 'audioFile'>,
  file?: RegisteredFile,
): StoredNoticeValue {
  return storedNoticeValue.parse(
    file ? { ...value, audioFile: { path: file.path, size: file.size, sha256: file.sha256 } } : value,
  );
}

/**
 * What the panel receives (docs/device-protocol.md 5.5): the stored value, with a custom audio
 * turned into a URL signed for this panel now, its size and SHA-256. NOTIFY is composed only by
 * /sendMessage/insert (a server-only order), so a value without a stored audio passes unchanged.
 */
export function noticeEnvelopeValue(
  downloads: DownloadService | undefined,
  stored: unknown,
  deviceKey: string,
): unknown {
  const parsed = storedNoticeValue.safeParse(stored);
  if (!parsed.success || !parsed.data.audioFile) return stored;
  if (!downloads) throw new Error('a custom audio needs the download service');
  const { audioFile, ...notice } = parsed.data;
  const signed = downloads.signedUrl(audioFile, deviceKey);
  const value: NotifyValue = {
    ...notice,
    audioUrl: signed.url,
    audioSize: signed.size,
    audioSha256: signed.sha256,
  };
  return value;
}
