import { useState } from 'react';
import { Card, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { ListToolbar } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction, textColumn } from '../../lists/RowActions';
import { EnabledTag, OnlineTag } from '../../lists/StatusTags';
import { usePagedList } from '../../lists/usePagedList';
import { CustomerStateModal } from './CustomerStateModal';
import { QuotaModal } from './QuotaModal';
import { AccessActions } from './AccessActions';

type Customer = accounts.Customer;

/** Customer accounts under the caller's organisation (view `customerManage`, types 1 and 3). */
export default function CustomersView() {
  const { t } = useTranslation();
  const list = usePagedList('customers', (start, size, userName) =>
    call(accounts.customerList, { start, size, userName }),
  );
  const [editing, setEditing] = useState<Customer>();
  const [quotaOf, setQuotaOf] = useState<Customer>();

  const columns: TableColumnsType<Customer> = [
    textColumn(t('accounts.userName'), 'userName'),
    textColumn(t('accounts.companyName'), 'companyName'),
    {
      title: t('lists.onlineState'),
      dataIndex: 'isOnline',
      width: 90,
      render: (_, row) => <OnlineTag online={row.isOnline} />,
    },
    { title: t('accounts.phone'), dataIndex: 'phone', width: 150 },
    textColumn(t('accounts.email'), 'email'),
    {
      title: t('accounts.accountState'),
      dataIndex: 'state',
      width: 110,
      render: (_, row) => <EnabledTag state={row.state} />,
    },
    operationsColumn(
      t('lists.operations'),
      (row) => (
        <>
          <RowAction label={t('lists.edit')} testId="row-edit" onClick={() => setEditing(row)} />
          <AccessActions user={row} onDone={list.reload} />
          <RowAction label={t('accounts.userAmount')} testId="row-quota" onClick={() => setQuotaOf(row)} />
        </>
      ),
      360,
    ),
  ];

  return (
    <Card title={t('views.customerManage')}>
      <ListToolbar
        searchPlaceholder={t('accounts.searchUserName')}
        onSearch={list.search}
        onRefresh={list.refresh}
      />
      <PagedTable<Customer> rowKey="userId" columns={columns} list={list} />
      <CustomerStateModal customer={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
      <QuotaModal customer={quotaOf} onClose={() => setQuotaOf(undefined)} />
    </Card>
  );
}
