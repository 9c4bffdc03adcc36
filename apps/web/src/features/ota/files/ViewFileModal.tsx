import { Descriptions, Modal, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ota } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { SESSION_QUERY_KEY } from '../../../app/queryClient';
import { formatDateTime } from '../../../format/dateTime';
import { formatFileSize } from '../../../format/fileSize';

/** View file: what it is, its hashes, the signed manifest and its Ed25519 signature, and the key that verifies it. */
export function ViewFileModal({ fileId, onClose }: { fileId: number | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const open = fileId !== undefined;
  const file = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'otaFile', fileId],
    enabled: open,
    staleTime: 0,
    queryFn: () => call(ota.getOtaFile, { otaFileId: fileId! }),
  });
  const key = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'otaSigningKey'],
    enabled: open,
    queryFn: () => call(ota.firmwareKey, {}),
  });
  const f = file.data?.dataObject;
  const code = (text: string | undefined) => (
    <Typography.Text code copyable={!!text} style={{ wordBreak: 'break-all' }}>
      {text}
    </Typography.Text>
  );
  return (
    <Modal
      title={t('ota.file.viewTitle')}
      open={open}
      onCancel={onClose}
      footer={null}
      width={850}
      destroyOnHidden
    >
      <Descriptions
        bordered
        size="small"
        column={1}
        data-testid="ota-file-view"
        styles={{ label: { width: 170 } }}
        items={
          f
            ? [
                { key: 'fileName', label: t('ota.file.fileName'), children: f.fileName },
                { key: 'otaVersion', label: t('ota.file.otaVersion'), children: f.otaVersion },
                {
                  key: 'fileSize',
                  label: t('ota.file.fileSize'),
                  children: `${formatFileSize(f.fileSize)} (${f.fileSize} B)`,
                },
                { key: 'fit', label: t('ota.file.fitMachineType'), children: f.fitMachineType },
                {
                  key: 'from',
                  label: t('ota.file.fitOtaVersion'),
                  children: f.fitOtaVersion || t('ota.file.anyVersion'),
                },
                { key: 'rule', label: t('ota.file.rule'), children: f.otaFileRuleName || '-' },
                { key: 'user', label: t('ota.file.userName'), children: f.userName },
                { key: 'date', label: t('ota.file.createDate'), children: formatDateTime(f.createDate) },
                { key: 'remark', label: t('ota.file.remark'), children: f.remarkFileName },
                { key: 'md5', label: 'MD5', children: code(f.fileMd5) },
                { key: 'sha256', label: 'SHA-256', children: code(f.sha256) },
                {
                  key: 'manifest',
                  label: t('ota.file.manifest'),
                  children: (
                    <pre
                      data-testid="ota-file-manifest"
                      style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
                    >
                      {prettyJson(f.manifest)}
                    </pre>
                  ),
                },
                { key: 'signature', label: t('ota.file.signature'), children: code(f.signature) },
                {
                  key: 'key',
                  label: t('ota.file.publicKey'),
                  children: code(
                    key.data ? `${key.data.dataObject.algorithm}: ${key.data.dataObject.publicKey}` : '',
                  ),
                },
              ]
            : []
        }
      />
    </Modal>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
