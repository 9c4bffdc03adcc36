import { materials } from '@panelfleet/contract';

/** What the file picker offers; the server still checks the content. */
export const AUDIO_ACCEPT = materials.AUDIO_FORMATS.map((format) => `.${format}`).join(',');

/**
 * The console's own check before an upload starts (spec 2: failed uploads are not sent): the
 * message key of the first problem, or undefined when the file may go.
 */
export function audioFileProblem(file: {
  name: string;
  size: number;
}): 'deviceManage.FileFormat' | 'deviceManage.FileSize' | undefined {
  if (!materials.isAudioFileName(file.name)) return 'deviceManage.FileFormat';
  if (file.size > materials.AUDIO_MAX_BYTES) return 'deviceManage.FileSize';
  return undefined;
}

/** Bytes as KB or MB with one decimal. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
