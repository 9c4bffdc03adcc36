import { useState } from 'react';
import { Button, Card, Space, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { ListToolbar } from '../../lists/ListToolbar';
import { EnabledTag, OnlineTag } from '../../lists/StatusTags';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { CustomerStateModal } from './CustomerStateModal';
import { QuotaModal } from './QuotaModal';

type Customer = accounts.Customer;

/** Customer accounts under the caller's organisation (view `customerManage`, types 1 and 3). */
export default function CustomersView() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const list = usePagedList('customers', (start, size, userName) => call(accounts.customerList, { start, size, userName }));
  const [editing, setEditing] = useState<Customer>();
  const [quotaOf, setQuotaOf] = useState<Customer>();

  const columns: TableColumnsType<Customer> = [
    { title: t('accounts.userName'), dataIndex: 'userName' },
    { title: t('accounts.companyName'), dataIndex: 'companyName' },
    { title: t('lists.onlineState'), dataIndex: 'isOnline', render: (_, row) => <OnlineTag online={row.isOnline} /> },
    { title: t('accounts.phone'), dataIndex: 'phone' },
    { title: t('accounts.email'), dataIndex: 'email' },
    { title: t('accounts.accountState'), dataIndex: 'state', render: (_, row) => <EnabledTag state={row.state} /> },
    {
      title: t('lists.operations'),
      key: 'operations',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setEditing(row)} data-testid="row-edit">
            {t('lists.edit')}
          </Button>
          <Button
            type="link"
            size="small"
            data-testid="row-reset-password"
            onClick={() => confirm(t('accounts.resetConfirm', { name: row.userName }), () => call(accounts.userResetPassword, { userId: row.userId }), list.reload)}
          >
            {t('accounts.resetPassword')}
          </Button>
          <Button type="link" size="small" onClick={() => setQuotaOf(row)} data-testid="row-quota">
            {t('accounts.userAmount')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('views.customerManage')}>
      <ListToolbar searchPlaceholder={t('accounts.searchUserName')} onSearch={list.search} onRefresh={list.refresh} />
      <Table<Customer> rowKey="userId" columns={columns} dataSource={list.rows} loading={list.loading} pagination={list.pagination} scroll={{ x: 'max-content' }} />
      <CustomerStateModal customer={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
      <QuotaModal customer={quotaOf} onClose={() => setQuotaOf(undefined)} />
    </Card>
  );
}
