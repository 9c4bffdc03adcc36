import { useState } from 'react';
import { Alert, Button, Modal, Progress, Result, Space, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { alreadyReported, uploadWithProgress } from '../../../api/client';
import { DeviceImportPreview, ImportCounts } from './DeviceImportPreview';

type Step =
  | { kind: 'pick' }
  | { kind: 'sending'; what: 'preview' | 'apply'; percent: number }
  | { kind: 'previewed'; file: File; preview: device.DeviceImportPreview }
  | { kind: 'done'; counts: device.DeviceImportCounts };

const MiB = 1024 * 1024;

/**
 * The device list's CSV import (docs/device-import.md): pick a file, see what it would change
 * and every bad line, then apply it — the button stays disabled while the file has errors;
 * fix the file and pick it again. The server applies all of it or nothing.
 */
export function DeviceImportModal({
  open,
  onClose,
  onImported,
}: {
  open: boolean;
  onClose(): void;
  onImported(): void;
}) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'pick' });

  const close = () => {
    if (step.kind === 'sending') return;
    setStep({ kind: 'pick' });
    onClose();
  };

  const send = async (file: File) => {
    setStep({ kind: 'sending', what: 'preview', percent: 0 });
    try {
      const body = new FormData();
      body.append('file', file, file.name);
      const reply = await uploadWithProgress(device.previewDeviceImport, body, (sent) =>
        setStep({ kind: 'sending', what: 'preview', percent: Math.floor(sent * 100) }),
      );
      setStep({ kind: 'previewed', file, preview: reply.dataObject });
    } catch (error) {
      setStep({ kind: 'pick' });
      alreadyReported(error);
    }
  };

  const apply = async (file: File, token: string, preview: device.DeviceImportPreview) => {
    setStep({ kind: 'sending', what: 'apply', percent: 0 });
    try {
      const body = new FormData();
      body.append('token', token);
      body.append('file', file, file.name);
      const reply = await uploadWithProgress(device.applyDeviceImport, body, (sent) =>
        setStep({ kind: 'sending', what: 'apply', percent: Math.floor(sent * 100) }),
      );
      setStep({ kind: 'done', counts: reply.dataObject });
      onImported();
    } catch (error) {
      setStep({ kind: 'previewed', file, preview });
      alreadyReported(error);
    }
  };

  const picker = (label: string) => (
    <Upload
      accept=".csv,text/csv"
      showUploadList={false}
      beforeUpload={(file) => {
        void send(file);
        return false;
      }}
    >
      <Button icon={<UploadOutlined />} data-testid="import-pick">
        {label}
      </Button>
    </Upload>
  );

  const footer =
    step.kind === 'previewed'
      ? [
          <Button key="close" onClick={close}>
            {t('common.cancel')}
          </Button>,
          <Button
            key="apply"
            type="primary"
            data-testid="import-apply"
            disabled={step.preview.errors > 0 || step.preview.updated + step.preview.pending === 0}
            onClick={() => void apply(step.file, step.preview.token, step.preview)}
          >
            {t('deviceImport.apply')}
          </Button>,
        ]
      : step.kind === 'done'
        ? [
            <Button key="close" type="primary" data-testid="import-close" onClick={close}>
              {t('deviceImport.close')}
            </Button>,
          ]
        : null;

  return (
    <Modal
      open={open}
      title={t('deviceImport.title')}
      width={860}
      onCancel={close}
      maskClosable={false}
      closable={step.kind !== 'sending'}
      footer={footer}
      destroyOnHidden
    >
      <div data-testid="import-modal">
        {step.kind === 'pick' && (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Typography.Paragraph>
              {t('deviceImport.explain', { size: `${device.DEVICE_IMPORT_MAX_BYTES / MiB} MiB` })}
            </Typography.Paragraph>
            {picker(t('deviceImport.pick'))}
          </Space>
        )}
        {step.kind === 'sending' && (
          <div data-testid="import-progress">
            <Typography.Text>{t(`deviceImport.sending.${step.what}`)}</Typography.Text>
            <Progress percent={step.percent} status="active" />
          </div>
        )}
        {step.kind === 'previewed' && (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Space>
              <Typography.Text strong data-testid="import-file">
                {step.file.name}
              </Typography.Text>
              {picker(t('deviceImport.pickAgain'))}
            </Space>
            <DeviceImportPreview preview={step.preview} />
          </Space>
        )}
        {step.kind === 'done' && (
          <Result
            status="success"
            title={t('deviceImport.done')}
            extra={<ImportCounts counts={step.counts} />}
            data-testid="import-done"
          >
            {step.counts.pending > 0 && <Alert type="info" showIcon title={t('deviceImport.pendingNote')} />}
          </Result>
        )}
      </div>
    </Modal>
  );
}
