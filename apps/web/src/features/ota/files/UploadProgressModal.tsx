import { Button, Modal, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { megabytes } from '../../../format/fileSize';

interface UploadProgressModalProps {
  open: boolean;
  fileName: string;
  sent: number;
  total: number;
  /** After the bytes: the file is being made (hashes checked, manifest signed). */
  saving: boolean;
  cancelling: boolean;
  onCancel(): void;
}

/** The upload's progress (spec 3 section 2.1): cannot be closed, only cancelled; MB done of MB total. */
export function UploadProgressModal({
  open,
  fileName,
  sent,
  total,
  saving,
  cancelling,
  onCancel,
}: UploadProgressModalProps) {
  const { t } = useTranslation();
  const percent = total > 0 ? Math.floor((sent / total) * 100) : 0;
  return (
    <Modal
      title={t('ota.upload.progressTitle')}
      open={open}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      width={600}
      footer={
        <Button danger onClick={onCancel} loading={cancelling} disabled={saving} data-testid="upload-cancel">
          {t('common.cancel')}
        </Button>
      }
    >
      <div data-testid="upload-progress">
        <Typography.Paragraph ellipsis>{fileName}</Typography.Paragraph>
        <Progress percent={percent} status={saving ? 'success' : 'active'} />
        <Typography.Text data-testid="upload-progress-mb">
          {t('ota.upload.megabytes', { sent: megabytes(sent), total: megabytes(total) })}
        </Typography.Text>
        {saving && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            {t('ota.upload.saving')}
          </Typography.Paragraph>
        )}
      </div>
    </Modal>
  );
}
