import { useRef, useState, type ChangeEvent } from 'react';
import { App, Button, Modal, Progress, Typography } from 'antd';
import { ImportOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import * as programs from '@panelfleet/contract/programs';
import { alreadyReported, uploadWithProgress } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { CONTRACT_NS } from '../../i18n';
import { testHook } from '../../lists/FormModal';

/** Import program zip (role "0"): a .zip only; the upload's progress in a dialog; the server checks the rest. */
export function ZipImportButton({ onImported }: { onImported(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState<{ name: string; percent: number }>();

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) {
      void message.warning(t('program.zipMissing', { ns: CONTRACT_NS }), NOTICE_SECONDS);
      return;
    }
    if (!file.name.toLowerCase().endsWith('.zip')) {
      void message.error(t('program.zipType', { ns: CONTRACT_NS }), NOTICE_SECONDS);
      return;
    }
    setUploading({ name: file.name, percent: 0 });
    try {
      const body = new FormData();
      body.append('importZip', file, file.name);
      const reply = await uploadWithProgress(programs.importZip, body, (sent) =>
        setUploading({ name: file.name, percent: Math.floor(sent * 100) }),
      );
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      onImported();
    } catch (error) {
      alreadyReported(error);
    } finally {
      setUploading(undefined);
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".zip,application/zip"
        style={{ display: 'none' }}
        onChange={(event) => void pick(event)}
        {...testHook('program-import-input')}
      />
      <Button icon={<ImportOutlined />} data-testid="program-import" onClick={() => input.current?.click()}>
        {t('programs.zip.import')}
      </Button>
      <Modal
        open={uploading !== undefined}
        title={t('programs.zip.uploading')}
        footer={null}
        closable={false}
        maskClosable={false}
      >
        <div data-testid="program-import-progress">
          <Typography.Text>{uploading?.name}</Typography.Text>
          <Progress percent={uploading?.percent ?? 0} />
        </div>
      </Modal>
    </>
  );
}
