import { useState } from 'react';
import { Card, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { sources } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { ListToolbar } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { CatalogReadOnlyNotice } from './CatalogNotice';
import { SourceModal } from './SourceModal';
import { useCatalogEditor } from './useCatalogEditor';

type SignalSource = sources.SignalSource;

/** Signal source management (view sourceManage): search by name; the platform adds, edits and deletes. */
export default function SourcesView() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const editor = useCatalogEditor();
  const list = usePagedList('signalSources', (start, size, name) =>
    call(sources.listSource, { start, size, name }),
  );
  const [editing, setEditing] = useState<SignalSource | null>();

  const columns: TableColumnsType<SignalSource> = [
    { title: t('sources.name'), dataIndex: 'name' },
    {
      title: t('sources.key'),
      dataIndex: 'sourceKey',
      render: (_, row) => <Typography.Text code>{row.sourceKey}</Typography.Text>,
    },
    {
      title: t('sources.insertTime'),
      dataIndex: 'insertTime',
      render: (_, row) => formatDateTime(row.insertTime),
    },
    ...(editor
      ? [
          operationsColumn<SignalSource>(t('lists.operations'), (row) => (
            <>
              <RowAction label={t('lists.edit')} testId="row-edit" onClick={() => setEditing(row)} />
              <RowAction
                label={t('lists.delete')}
                testId="row-delete"
                danger
                onClick={() =>
                  confirm(
                    t('lists.deleteConfirm', { name: row.name }),
                    () => call(sources.deleteSource, { id: row.id }),
                    list.reload,
                  )
                }
              />
            </>
          )),
        ]
      : []),
  ];

  return (
    <Card title={t('sources.title')}>
      {!editor && <CatalogReadOnlyNotice />}
      <ListToolbar
        searchPlaceholder={t('sources.searchName')}
        onSearch={list.search}
        onRefresh={list.refresh}
        onAdd={editor ? () => setEditing(null) : undefined}
      />
      <PagedTable<SignalSource> rowKey="id" columns={columns} list={list} />
      <SourceModal source={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
    </Card>
  );
}
