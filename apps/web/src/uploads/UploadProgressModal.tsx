import { Button, Modal, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { megabytes } from '../format/fileSize';
import type { UploadProgress } from './resumableUpload';

/**
 * The non-closable progress dialog of a resumable upload: a bar, uploaded MB / total MB (1
 * decimal) and Cancel; while the server checks the finished file, a line says so and Cancel waits.
 */
export function UploadProgressModal({
  open,
  title,
  fileName,
  progress,
  stage,
  checkingText,
  testIdPrefix,
  onCancel,
}: {
  open: boolean;
  title: string;
  fileName: string;
  progress: UploadProgress;
  stage: 'uploading' | 'checking';
  checkingText: string;
  /** Test ids `<prefix>-progress`, `<prefix>-progress-mb`, `<prefix>-upload-cancel`. */
  testIdPrefix: string;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const percent = progress.total ? Math.floor((progress.sent * 100) / progress.total) : 0;
  return (
    <Modal
      open={open}
      closable={false}
      maskClosable={false}
      keyboard={false}
      title={title}
      footer={
        <Button
          onClick={onCancel}
          disabled={stage === 'checking'}
          data-testid={`${testIdPrefix}-upload-cancel`}
        >
          {t('common.cancel')}
        </Button>
      }
      data-testid={`${testIdPrefix}-progress`}
    >
      <Typography.Paragraph ellipsis>{fileName}</Typography.Paragraph>
      <Progress percent={percent} status="active" />
      <Typography.Text data-testid={`${testIdPrefix}-progress-mb`}>
        {megabytes(progress.sent, 1)} MB / {megabytes(progress.total, 1)} MB
      </Typography.Text>
      {stage === 'checking' && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {checkingText}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
