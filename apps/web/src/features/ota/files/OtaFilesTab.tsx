import { useState } from 'react';
import { Badge, Button, Card, Space, Typography, type TableColumnsType } from 'antd';
import { CloudUploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ota } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { formatDateTime } from '../../../format/dateTime';
import { ListToolbar } from '../../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../../lists/RowActions';
import { useConfirmAction } from '../../../lists/useConfirmAction';
import { usePagedList } from '../../../lists/usePagedList';
import { ForceUpgradeModal } from '../force/ForceUpgradeModal';
import { useOtaAccess } from '../manage/useOtaAccess';
import { DescriptionsModal } from './DescriptionsModal';
import { EditFileModal } from './EditFileModal';
import { formatFileSize } from '../../../format/fileSize';
import { UploadFlow } from './UploadFlow';
import { ViewFileModal } from './ViewFileModal';

type OtaFile = ota.OtaFile;

/** Tab 1 of OTA management: the OTA files the user sees, searched by file name, paged on the server. */
export default function OtaFilesTab() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const access = useOtaAccess();
  const list = usePagedList('otaFiles', (start, size, fileName) =>
    call(ota.listOtaFiles, { start, size, fileName }),
  );
  const [uploading, setUploading] = useState(false);
  const [viewing, setViewing] = useState<number>();
  const [editing, setEditing] = useState<OtaFile>();
  const [describing, setDescribing] = useState<OtaFile>();
  const [upgrading, setUpgrading] = useState<OtaFile>();

  const columns: TableColumnsType<OtaFile> = [
    {
      title: t('ota.file.fileName'),
      dataIndex: 'fileName',
      render: (_, row) => (
        <Space size={6}>
          <Typography.Text data-testid="ota-file-name">{row.fileName}</Typography.Text>
          {row.finishUpgradeDeviceCount === 0 && (
            <Badge count={t('ota.file.new')} color="red" data-testid="ota-file-new" />
          )}
        </Space>
      ),
    },
    { title: t('ota.file.otaVersion'), dataIndex: 'otaVersion' },
    {
      title: t('ota.file.fileSize'),
      dataIndex: 'fileSize',
      render: (_, row) => formatFileSize(row.fileSize),
    },
    {
      title: t('ota.file.fileMd5'),
      dataIndex: 'fileMd5',
      render: (_, row) => <Typography.Text code>{row.fileMd5.slice(0, 12)}…</Typography.Text>,
    },
    { title: t('ota.file.fitMachineType'), dataIndex: 'fitMachineType' },
    {
      title: t('ota.file.fitOtaVersion'),
      dataIndex: 'fitOtaVersion',
      render: (_, row) => row.fitOtaVersion || t('ota.file.anyVersion'),
    },
    { title: t('ota.file.rule'), dataIndex: 'otaFileRuleName' },
    { title: t('ota.file.finished'), dataIndex: 'finishUpgradeDeviceCount' },
    { title: t('ota.file.userName'), dataIndex: 'userName' },
    { title: t('ota.file.remark'), dataIndex: 'remarkFileName', ellipsis: true, width: 180 },
    {
      title: t('ota.file.createDate'),
      dataIndex: 'createDate',
      render: (_, row) => formatDateTime(row.createDate),
    },
    operationsColumn<OtaFile>(t('lists.operations'), (row) => (
      <>
        {access.operator && (
          <RowAction
            label={t('ota.force.action')}
            testId="row-force-upgrade"
            onClick={() => setUpgrading(row)}
          />
        )}
        <RowAction
          label={t('ota.description.action')}
          testId="row-descriptions"
          onClick={() => setDescribing(row)}
        />
        <RowAction label={t('ota.file.view')} testId="row-view" onClick={() => setViewing(row.id)} />
        {row.owned === '1' && (
          <>
            <RowAction label={t('lists.edit')} testId="row-edit" onClick={() => setEditing(row)} />
            <RowAction
              label={t('lists.delete')}
              testId="row-delete"
              danger
              title={row.openTaskCount > 0 ? t('ota.file.inUse', { count: row.openTaskCount }) : undefined}
              onClick={() =>
                confirm(
                  t('lists.deleteConfirm', { name: `${row.fileName} (${row.otaVersion})` }),
                  () => call(ota.deleteOtaFile, { otaFileId: row.id }),
                  list.reload,
                )
              }
            />
          </>
        )}
      </>
    )),
  ];

  return (
    <Card title={t('ota.tabs.files')}>
      <ListToolbar
        searchPlaceholder={t('ota.file.searchName')}
        onSearch={list.search}
        onRefresh={list.refresh}
        extra={
          <Button
            type="primary"
            icon={<CloudUploadOutlined />}
            data-testid="ota-upload"
            onClick={() => setUploading(true)}
          >
            {t('ota.upload.button')}
          </Button>
        }
      />
      <PagedTable<OtaFile> rowKey="id" columns={columns} list={list} />
      <UploadFlow open={uploading} onClose={() => setUploading(false)} onSaved={list.reload} />
      <ViewFileModal fileId={viewing} onClose={() => setViewing(undefined)} />
      <EditFileModal file={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
      <DescriptionsModal file={describing} onClose={() => setDescribing(undefined)} />
      {/* Only the company's device operators force upgrades (and may read its labels). */}
      {access.operator && <ForceUpgradeModal file={upgrading} onClose={() => setUpgrading(undefined)} />}
    </Card>
  );
}
