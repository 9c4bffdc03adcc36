import { useState } from 'react';
import { Card, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { sources } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { ListToolbar } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { SourcesNotice } from './CatalogNotice';
import { SourceModal } from './SourceModal';
import { useCatalogEditor, useSourceAdder } from './useCatalogEditor';

type SignalSource = sources.SignalSource;

const OWNER_COLORS: Record<sources.SourceOwner, string> = {
  catalog: 'blue',
  distributor: 'purple',
  company: 'green',
};

/**
 * Signal source management (view sourceManage): search by name; whoever opens it adds sources
 * (the platform to the catalog, others to their organisation) and edits and deletes its own.
 */
export default function SourcesView() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const keepsCatalog = useCatalogEditor();
  const adder = useSourceAdder();
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
      title: t('sources.owner'),
      dataIndex: 'owner',
      render: (_, row) => (
        <Tag color={OWNER_COLORS[row.owner]} data-owner={row.owner}>
          {t(`sources.owners.${row.owner}`)}
        </Tag>
      ),
    },
    {
      title: t('sources.insertTime'),
      dataIndex: 'insertTime',
      render: (_, row) => formatDateTime(row.insertTime),
    },
    ...(adder
      ? [
          operationsColumn<SignalSource>(t('lists.operations'), (row) =>
            // Rows another organisation keeps (the catalog, a distributor's) are read-only here.
            row.editable ? (
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
            ) : null,
          ),
        ]
      : []),
  ];

  return (
    <Card title={t('sources.title')}>
      <SourcesNotice keepsCatalog={keepsCatalog} />
      <ListToolbar
        searchPlaceholder={t('sources.searchName')}
        onSearch={list.search}
        onRefresh={list.refresh}
        onAdd={adder ? () => setEditing(null) : undefined}
      />
      <PagedTable<SignalSource> rowKey="id" columns={columns} list={list} />
      <SourceModal source={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
    </Card>
  );
}
