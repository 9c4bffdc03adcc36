import { useState } from 'react';
import { Button, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { ListToolbar } from '../../lists/ListToolbar';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { SalespersonModal } from './SalespersonModal';

type Salesperson = accounts.Salesperson;

export function SalespeopleTab() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const list = usePagedList('salespeople', (start, size, name) => call(accounts.saleManList, { start, size, name }));
  const [editing, setEditing] = useState<Salesperson | null>();

  const columns: TableColumnsType<Salesperson> = [
    { title: t('salespeople.workNumber'), dataIndex: 'work_number' },
    { title: t('salespeople.name'), dataIndex: 'name' },
    { title: t('salespeople.companyName'), dataIndex: 'companyName' },
    { title: t('salespeople.phone'), dataIndex: 'phone' },
    {
      title: t('salespeople.jobState'),
      dataIndex: 'jobState',
      render: (_, row) => <Tag color={row.jobState === 1 ? 'green' : 'default'}>{row.jobState === 1 ? t('salespeople.onJob') : t('salespeople.offJob')}</Tag>,
    },
    {
      title: t('lists.operations'),
      key: 'operations',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(row)} data-testid="row-edit">
            {t('lists.edit')}
          </Button>
          <Button
            type="link"
            size="small"
            danger
            data-testid="row-delete"
            onClick={() => confirm(t('lists.deleteConfirm', { name: row.name }), () => call(accounts.saleManDelete, { id: row.id }), list.reload)}
          >
            {t('lists.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListToolbar searchPlaceholder={t('salespeople.searchName')} onSearch={list.search} onRefresh={list.refresh} onAdd={() => setEditing(null)} />
      <Table<Salesperson> rowKey="id" columns={columns} dataSource={list.rows} loading={list.loading} pagination={list.pagination} scroll={{ x: 'max-content' }} />
      <SalespersonModal salesperson={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
    </>
  );
}
