import { useState } from 'react';
import { Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { ListToolbar } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { SalespersonModal } from './SalespersonModal';

type Salesperson = accounts.Salesperson;

export function SalespeopleTab() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const list = usePagedList('salespeople', (start, size, name) =>
    call(accounts.saleManList, { start, size, name }),
  );
  const [editing, setEditing] = useState<Salesperson | null>();

  const columns: TableColumnsType<Salesperson> = [
    { title: t('salespeople.workNumber'), dataIndex: 'work_number' },
    { title: t('salespeople.name'), dataIndex: 'name' },
    { title: t('salespeople.companyName'), dataIndex: 'companyName' },
    { title: t('salespeople.phone'), dataIndex: 'phone' },
    {
      title: t('salespeople.jobState'),
      dataIndex: 'jobState',
      render: (_, row) => (
        <Tag color={row.jobState === 1 ? 'green' : 'default'}>
          {row.jobState === 1 ? t('salespeople.onJob') : t('salespeople.offJob')}
        </Tag>
      ),
    },
    operationsColumn(t('lists.operations'), (row) => (
      <>
        <RowAction label={t('lists.edit')} testId="row-edit" onClick={() => setEditing(row)} />
        <RowAction
          label={t('lists.delete')}
          testId="row-delete"
          danger
          onClick={() =>
            confirm(
              t('lists.deleteConfirm', { name: row.name }),
              () => call(accounts.saleManDelete, { id: row.id }),
              list.reload,
            )
          }
        />
      </>
    )),
  ];

  return (
    <>
      <ListToolbar
        searchPlaceholder={t('salespeople.searchName')}
        onSearch={list.search}
        onRefresh={list.refresh}
        onAdd={() => setEditing(null)}
      />
      <PagedTable<Salesperson> rowKey="id" columns={columns} list={list} />
      <SalespersonModal salesperson={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
    </>
  );
}
