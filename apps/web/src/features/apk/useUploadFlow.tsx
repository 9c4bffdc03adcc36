import { useRef, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Language } from '@panelfleet/contract';
import { ApiError } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { ProgressModal, UploadFormModal, type UploadMode, type UploadRequest } from './UploadDialogs';
import {
  startUpload,
  UploadCancelled,
  type RunningUpload,
  type UploadProgress,
} from '../../uploads/resumableUpload';

/**
 * The upload flow of spec 3 section 4: the form dialog validates the file, closes, and the
 * progress dialog opens; the bytes go through the resumable upload, then `finish` hands the
 * upload id to the kind's call (the server reads and checks the APK); the progress dialog closes
 * when that answers. Cancel aborts the upload and deletes its bytes.
 */
export function useUploadFlow(
  finish: (mode: UploadMode, uploadId: string, request: UploadRequest) => Promise<unknown>,
) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [mode, setMode] = useState<UploadMode | undefined>();
  const [formOpen, setFormOpen] = useState(false);
  const [running, setRunning] = useState<{ fileName: string; stage: 'uploading' | 'checking' }>();
  const [progress, setProgress] = useState<UploadProgress>({ sent: 0, total: 0 });
  const current = useRef<RunningUpload | undefined>(undefined);

  const confirm = async (request: UploadRequest) => {
    const kind = mode!;
    setFormOpen(false);
    setProgress({ sent: 0, total: request.file.size });
    setRunning({ fileName: request.file.name, stage: 'uploading' });
    const upload = startUpload(request.file, 'apk', i18n.language as Language, setProgress);
    current.current = upload;
    try {
      const uploadId = await upload.done;
      setRunning({ fileName: request.file.name, stage: 'checking' });
      await finish(kind, uploadId, request);
      void message.success(t('apkPage.uploaded'), NOTICE_SECONDS);
    } catch (error) {
      if (error instanceof UploadCancelled) void message.info(t('common.cancelled'), NOTICE_SECONDS);
      // A refused APK was already told by the call (its hhtMsg); an upload refused by tus is told here.
      else if (!(error instanceof ApiError))
        void message.error((error as Error).message || t('apkPage.uploadFailed'), NOTICE_SECONDS);
    } finally {
      current.current = undefined;
      setRunning(undefined);
    }
  };

  return {
    open: (m: UploadMode) => {
      setMode(m);
      setFormOpen(true);
    },
    dialogs: (
      <>
        {mode && (
          <UploadFormModal
            mode={mode}
            open={formOpen}
            onCancel={() => setFormOpen(false)}
            onConfirm={(r) => void confirm(r)}
          />
        )}
        <ProgressModal
          open={running !== undefined}
          fileName={running?.fileName ?? ''}
          stage={running?.stage ?? 'uploading'}
          progress={progress}
          onCancel={() => void current.current?.cancel()}
        />
      </>
    ),
  };
}
