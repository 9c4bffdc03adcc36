import { useRef, useState } from 'react';
import { App, Button, Checkbox, Form, Input, Modal, Space, Upload } from 'antd';
import type { InputRef } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { apk } from '@panelfleet/contract';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { CONTRACT_NS } from '../../i18n';
import type { UploadProgress } from '../../uploads/resumableUpload';
import { UploadProgressModal } from '../../uploads/UploadProgressModal';

/** What the form dialogs hand to the upload flow. */
export interface UploadRequest {
  file: File;
  mark?: string;
  remark?: string;
  downgrade?: boolean;
}

export type UploadMode = 'apk' | 'version' | 'sub';

/** One APK file picked (kept in the browser: the flow uploads it after the dialog closes). */
function FilePick({ file, onChange, testId }: { file?: File; onChange: (f?: File) => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Upload
      accept=".apk,application/vnd.android.package-archive"
      maxCount={1}
      beforeUpload={(f) => {
        onChange(f);
        return false;
      }}
      onRemove={() => onChange(undefined)}
      fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
    >
      <Button icon={<UploadOutlined />} data-testid={testId}>
        {t('apkPage.chooseFile')}
      </Button>
    </Upload>
  );
}

/** Chinese characters are stripped and each box takes at most 4 characters (spec 3 section 5). */
const cleanPart = (text: string) =>
  text.replace(/[\u3400-\u9fff\uf900-\ufaff]/g, '').slice(0, apk.MARK_PART_MAX);

/**
 * The three form dialogs: upload APK (file, four-box mark, 4-row description), upload a new
 * version (file, description, deliberate downgrade), upload an auxiliary app (file only). Confirm
 * checks the file (and the mark); the dialog then closes and the progress dialog takes over.
 */
export function UploadFormModal({
  mode,
  open,
  onCancel,
  onConfirm,
}: {
  mode: UploadMode;
  open: boolean;
  onCancel: () => void;
  onConfirm: (request: UploadRequest) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File>();
  const [mark, setMark] = useState(['', '', '', '']);
  const [remark, setRemark] = useState('');
  const [downgrade, setDowngrade] = useState(false);
  const boxes = useRef<Array<InputRef | null>>([]);

  const reset = () => {
    setFile(undefined);
    setMark(['', '', '', '']);
    setRemark('');
    setDowngrade(false);
  };
  const confirm = () => {
    if (!file) {
      void message.warning(
        t(mode === 'sub' ? 'apk.fileNull' : 'notNull', { ns: CONTRACT_NS }),
        NOTICE_SECONDS,
      );
      return;
    }
    if (mode === 'apk' && mark.some((p) => p.trim() === '')) {
      void message.warning(t('apk.markNull', { ns: CONTRACT_NS }), NOTICE_SECONDS);
      return;
    }
    onConfirm({
      file,
      ...(mode === 'apk' ? { mark: mark.map((p) => p.trim()).join('-') } : {}),
      ...(mode !== 'sub' ? { remark } : {}),
      ...(mode === 'version' ? { downgrade } : {}),
    });
    reset();
  };
  const titles = {
    apk: 'apkPage.uploadApk',
    version: 'apkPage.uploadVersion',
    sub: 'apkPage.uploadSub',
  } as const;
  return (
    <Modal
      open={open}
      width={600}
      title={t(titles[mode])}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      onOk={confirm}
      onCancel={() => {
        reset();
        onCancel();
      }}
      destroyOnHidden
      data-testid={`apk-form-${mode}`}
    >
      <Form layout="vertical">
        <Form.Item label={t('apkPage.file')} required>
          <FilePick file={file} onChange={setFile} testId={`apk-file-${mode}`} />
        </Form.Item>
        {mode === 'apk' && (
          <Form.Item label={t('apkPage.mark')} required>
            <Space.Compact>
              {mark.map((part, i) => (
                <Input
                  key={i}
                  ref={(el) => {
                    boxes.current[i] = el;
                  }}
                  value={part}
                  style={{ width: 80, textAlign: 'center' }}
                  data-testid={`apk-mark-${i}`}
                  onChange={(e) => {
                    const value = cleanPart(e.target.value);
                    setMark((m) => m.map((p, j) => (j === i ? value : p)));
                    // Focus moves on after 4 characters.
                    if (value.length >= apk.MARK_PART_MAX) boxes.current[i + 1]?.focus();
                  }}
                />
              ))}
            </Space.Compact>
          </Form.Item>
        )}
        {mode !== 'sub' && (
          <Form.Item label={t('apkPage.description')}>
            <Input.TextArea
              rows={4}
              value={remark}
              maxLength={apk.APK_REMARK_MAX}
              onChange={(e) => setRemark(e.target.value)}
              data-testid={`apk-remark-${mode}`}
            />
          </Form.Item>
        )}
        {mode === 'version' && (
          <Form.Item extra={t('apkPage.downgradeHelp')}>
            <Checkbox
              checked={downgrade}
              onChange={(e) => setDowngrade(e.target.checked)}
              data-testid="apk-downgrade"
            >
              {t('apkPage.downgrade')}
            </Checkbox>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/** The APK upload's progress dialog (the shared resumable-upload dialog with the APK page's texts). */
export function ProgressModal({
  open,
  fileName,
  progress,
  stage,
  onCancel,
}: {
  open: boolean;
  fileName: string;
  progress: UploadProgress;
  stage: 'uploading' | 'checking';
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <UploadProgressModal
      open={open}
      title={t('apkPage.uploading')}
      fileName={fileName}
      progress={progress}
      stage={stage}
      checkingText={t('apkPage.checking')}
      testIdPrefix="apk"
      onCancel={onCancel}
    />
  );
}
