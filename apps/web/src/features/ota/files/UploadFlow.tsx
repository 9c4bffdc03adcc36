import { useEffect, useRef, useState } from 'react';
import { App, Alert, Button, Form, Input, Modal, Upload, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ota, uploads } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { SESSION_QUERY_KEY } from '../../../app/queryClient';
import { CONTRACT_NS } from '../../../i18n';
import { testHook } from '../../../lists/FormModal';
import { FileFields, type FileFieldValues } from './FileFields';
import { formatFileSize } from '../../../format/fileSize';
import { idCsv } from './useFileOptions';
import { UploadProgressModal } from './UploadProgressModal';
import {
  hasUnfinishedUpload,
  startUpload,
  UploadCancelled,
  type RunningUpload,
} from '../../../uploads/resumableUpload';
import { useRevalidateOnLanguageChange } from '../../../forms/useRevalidateOnLanguageChange';

interface UploadValues extends FileFieldValues {
  /** The chosen file's name (the File itself is kept aside). */
  file?: string;
  otaVersion: string;
}

type Stage = 'closed' | 'form' | 'uploading' | 'saving';

/**
 * Upload a firmware image (spec 3 section 2.1): the form (file, version, what it fits), then the
 * progress dialog while tus sends the bytes, then /otaFile/insert. A refused insert (a version
 * already published, say) brings the form back with the upload kept, so nothing is sent twice.
 */
export function UploadFlow({ open, onClose, onSaved }: { open: boolean; onClose(): void; onSaved(): void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<UploadValues>();
  useRevalidateOnLanguageChange(form);
  const [file, setFile] = useState<File>();
  const [resumable, setResumable] = useState(false);
  const [stage, setStage] = useState<Stage>('closed');
  const [progress, setProgress] = useState({ sent: 0, total: 0 });
  const [cancelling, setCancelling] = useState(false);
  const [uploadId, setUploadId] = useState<string>();
  const running = useRef<RunningUpload | undefined>(undefined);
  const limits = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'uploadLimits'],
    enabled: open,
    queryFn: () => call(uploads.uploadLimits, {}),
  });
  const limit = limits.data?.dataObject.firmware;
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  if (open && stage === 'closed') setStage('form');
  if (!open && stage !== 'closed') {
    setStage('closed');
    setFile(undefined);
    setUploadId(undefined);
    setResumable(false);
  }

  const choose = (chosen: File) => {
    setFile(chosen);
    setUploadId(undefined);
    setResumable(false);
    void hasUnfinishedUpload(chosen).then(setResumable);
    form.setFieldValue('file', chosen.name);
    void form.validateFields(['file']);
    return false;
  };

  const insert = async (id: string, values: UploadValues) => {
    setStage('saving');
    try {
      const reply = await call(ota.insertOtaFile, {
        uploadId: id,
        otaVersion: values.otaVersion.trim(),
        fitMachineTypeId: idCsv(values.fitMachineTypeId),
        fitOtaVersionId: idCsv(values.fitOtaVersionId),
        otaRuleId: values.otaRuleId,
        remarkFileName: values.remarkFileName ?? '',
      });
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      onClose();
      onSaved();
    } catch (error) {
      // The bytes stay on the server: correcting the form makes the file without sending them again.
      setStage('form');
      alreadyReported(error);
    }
  };

  const submit = async (values: UploadValues) => {
    if (!file) return;
    if (uploadId) return insert(uploadId, values);
    setProgress({ sent: 0, total: file.size });
    setStage('uploading');
    const upload = startUpload(file, 'firmware', i18n.language, setProgress);
    running.current = upload;
    try {
      const id = await upload.done;
      running.current = undefined;
      setUploadId(id);
      void insert(id, values);
    } catch (error) {
      // A cancel ends the flow itself (below); anything else is the server's or the network's word.
      if (error instanceof UploadCancelled) return;
      running.current = undefined;
      setStage('form');
      void message.error((error as Error).message, NOTICE_SECONDS);
    }
  };

  const cancel = async () => {
    setCancelling(true);
    try {
      await running.current?.cancel();
    } catch (error) {
      // The bytes may already be gone (expired); the upload has stopped either way.
      console.warn('upload cancel', error);
    } finally {
      running.current = undefined;
      setCancelling(false);
      setStage('form');
      void message.info(t('ota.upload.cancelled'), NOTICE_SECONDS);
    }
  };

  const rule = (key: string) => [{ required: true, whitespace: true, message: t(key, { ns: CONTRACT_NS }) }];
  return (
    <>
      <Modal
        title={t('ota.upload.title')}
        open={stage === 'form'}
        width={600}
        onCancel={onClose}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        okButtonProps={{ htmlType: 'submit', ...testHook('ota-upload-ok') }}
        modalRender={(node) => (
          <Form<UploadValues>
            form={form}
            layout="horizontal"
            labelCol={{ span: 7 }}
            wrapperCol={{ span: 16 }}
            onFinish={(values) => void submit(values)}
          >
            <div data-testid="ota-upload-form">{node}</div>
          </Form>
        )}
      >
        <Form.Item
          name="file"
          label={t('ota.upload.file')}
          rules={[
            { required: true, message: t('ota.upload.fileNull') },
            {
              validator: () =>
                file && file.size === 0
                  ? Promise.reject(new Error(t('upload.empty', { ns: CONTRACT_NS })))
                  : file && limit !== undefined && file.size > limit
                    ? Promise.reject(new Error(t('ota.upload.tooLarge', { limit: formatFileSize(limit) })))
                    : Promise.resolve(),
            },
          ]}
          required
          extra={limit !== undefined ? t('ota.upload.limit', { limit: formatFileSize(limit) }) : undefined}
        >
          <Upload beforeUpload={choose} showUploadList={false} maxCount={1} data-testid="ota-upload-input">
            <Button icon={<UploadOutlined />} data-testid="ota-upload-choose">
              {t('ota.upload.choose')}
            </Button>
          </Upload>
        </Form.Item>
        {file && (
          <Form.Item wrapperCol={{ offset: 7, span: 16 }}>
            <Typography.Text data-testid="ota-upload-chosen">
              {file.name} ({formatFileSize(file.size)})
            </Typography.Text>
            {resumable && !uploadId && (
              <Alert
                type="info"
                showIcon
                data-testid="ota-upload-resumable"
                title={t('ota.upload.resumes')}
                style={{ marginTop: 8 }}
              />
            )}
            {uploadId && (
              <Alert type="success" showIcon title={t('ota.upload.uploaded')} style={{ marginTop: 8 }} />
            )}
          </Form.Item>
        )}
        <Form.Item
          name="otaVersion"
          label={t('ota.file.otaVersion')}
          rules={rule('ota.versionNull')}
          required
        >
          <Input data-testid="ota-upload-version" maxLength={64} placeholder="1.5.0" />
        </Form.Item>
        <FileFields open={open} />
      </Modal>
      <UploadProgressModal
        open={stage === 'uploading' || stage === 'saving'}
        fileName={file?.name ?? ''}
        sent={progress.sent}
        total={progress.total}
        saving={stage === 'saving'}
        cancelling={cancelling}
        onCancel={() => void cancel()}
      />
    </>
  );
}
