import { useState } from 'react';
import { Card, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { ota } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { formatDateTime } from '../../../format/dateTime';
import { ListToolbar } from '../../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../../lists/RowActions';
import { EnabledTag } from '../../../lists/StatusTags';
import { useConfirmAction } from '../../../lists/useConfirmAction';
import { usePagedList } from '../../../lists/usePagedList';
import { CatalogReadOnlyNotice } from '../../sources/CatalogNotice';
import { useOtaAccess } from '../manage/useOtaAccess';
import { OtaVersionModal } from './OtaVersionModal';

type OtaVersion = ReturnType<typeof ota.otaVersion.parse>;

/**
 * OTA versions (view otaVersion, spec 3 section 2.4): search, add, refresh, paging; edit and
 * delete are greyed while files or panels refer to a version. The platform writes; others read.
 */
export default function OtaVersionsView() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const { catalogEditor } = useOtaAccess();
  const list = usePagedList('otaVersions', (start, size, otaVersion) =>
    call(ota.listOtaVersions, { start, size, otaVersion }),
  );
  const [editing, setEditing] = useState<OtaVersion | null>();

  const columns: TableColumnsType<OtaVersion> = [
    { title: t('ota.version.otaVersion'), dataIndex: 'otaVersion' },
    {
      title: t('ota.version.enable'),
      dataIndex: 'enable',
      render: (_, r) => <EnabledTag state={r.enable === '1' ? 1 : 0} />,
    },
    {
      title: t('ota.version.referenceCount'),
      dataIndex: 'referenceCount',
      render: (_, r) => <span data-testid="ota-version-references">{r.referenceCount}</span>,
    },
    {
      title: t('ota.version.creationDate'),
      dataIndex: 'creationDate',
      render: (_, r) => formatDateTime(r.creationDate),
    },
    {
      title: t('ota.version.lastUpdateDate'),
      dataIndex: 'lastUpdateDate',
      render: (_, r) => formatDateTime(r.lastUpdateDate),
    },
    { title: t('ota.version.lastUpdateMan'), dataIndex: 'lastUpdateMan' },
    ...(catalogEditor
      ? [
          operationsColumn<OtaVersion>(t('lists.operations'), (r) => {
            const locked = r.referenceCount !== 0;
            const why = locked ? t('ota.version.locked', { count: r.referenceCount }) : undefined;
            return (
              <>
                <RowAction
                  label={t('lists.edit')}
                  testId="row-edit"
                  disabled={locked}
                  title={why}
                  onClick={() => setEditing(r)}
                />
                <RowAction
                  label={t('lists.delete')}
                  testId="row-delete"
                  danger
                  disabled={locked}
                  title={why}
                  onClick={() =>
                    confirm(
                      t('lists.deleteConfirm', { name: r.otaVersion }),
                      () => call(ota.deleteOtaVersion, { otaVersionId: r.otaVersionId }),
                      list.reload,
                    )
                  }
                />
              </>
            );
          }),
        ]
      : []),
  ];

  return (
    <Card title={t('views.otaVersion')}>
      {!catalogEditor && <CatalogReadOnlyNotice catalog="otaVersions" />}
      <ListToolbar
        searchPlaceholder={t('ota.version.search')}
        onSearch={list.search}
        onRefresh={list.refresh}
        onAdd={catalogEditor ? () => setEditing(null) : undefined}
      />
      <PagedTable<OtaVersion> rowKey="otaVersionId" columns={columns} list={list} />
      <OtaVersionModal version={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
    </Card>
  );
}
