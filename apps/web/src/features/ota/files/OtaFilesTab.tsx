import { useState } from 'react';
import { Badge, Button, Card, Typography, type TableColumnsType } from 'antd';
import { CloudUploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ota } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { formatDateTime } from '../../../format/dateTime';
import { ListToolbar } from '../../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction, textColumn } from '../../../lists/RowActions';
import { useConfirmAction } from '../../../lists/useConfirmAction';
import { usePagedList } from '../../../lists/usePagedList';
import { ForceUpgradeModal } from '../force/ForceUpgradeModal';
import { useOtaAccess } from '../manage/useOtaAccess';
import { DescriptionsModal } from './DescriptionsModal';
import { EditFileModal } from './EditFileModal';
import { formatFileSize } from '../../../format/fileSize';
import { OneLine, TwoLines } from '../../../lists/TwoLines';
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

  // Thirteen fields fit 1366 px (fixed layout) in eight columns: pairs share a column on two lines,
  // and a long file name or remark ends in "…" with the whole of it on hover.
  const columns: TableColumnsType<OtaFile> = [
    {
      title: t('ota.file.fileName'),
      dataIndex: 'fileName',
      render: (_, row) => (
        <TwoLines
          first={
            <>
              <OneLine text={row.fileName} testId="ota-file-name" />
              {row.finishUpgradeDeviceCount === 0 && (
                <Badge count={t('ota.file.new')} color="red" data-testid="ota-file-new" />
              )}
            </>
          }
          second={row.otaVersion}
        />
      ),
    },
    {
      title: t('ota.file.sizeMd5'),
      dataIndex: 'fileSize',
      width: 100,
      render: (_, row) => (
        <TwoLines
          first={formatFileSize(row.fileSize)}
          second={
            <Typography.Text code title={row.fileMd5}>
              {row.fileMd5.slice(0, 8)}…
            </Typography.Text>
          }
        />
      ),
    },
    {
      title: t('ota.file.fits'),
      dataIndex: 'fitMachineType',
      width: 140,
      render: (_, row) => (
        <TwoLines
          first={<OneLine text={row.fitMachineType} />}
          second={row.fitOtaVersion || t('ota.file.anyVersion')}
        />
      ),
    },
    {
      title: t('ota.file.rule'),
      dataIndex: 'otaFileRuleName',
      width: 120,
      render: (_, row) => <OneLine text={row.otaFileRuleName} />,
    },
    { title: t('ota.file.finished'), dataIndex: 'finishUpgradeDeviceCount', width: 90 },
    {
      title: t('ota.file.uploaded'),
      dataIndex: 'createDate',
      width: 160,
      render: (_, row) => <TwoLines first={formatDateTime(row.createDate)} second={row.userName} />,
    },
    textColumn<OtaFile>(t('ota.file.remark'), 'remarkFileName', 110),
    operationsColumn<OtaFile>(
      t('lists.operations'),
      (row) => (
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
      ),
      190,
    ),
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
