import { useState } from 'react';
import { Card, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { ListToolbar } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction, textColumn } from '../../lists/RowActions';
import { EnabledTag, OnlineTag } from '../../lists/StatusTags';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { AccessActions } from './AccessActions';
import { usePagedList } from '../../lists/usePagedList';
import { AddUserModal } from './AddUserModal';
import { EditUserModal } from './EditUserModal';
import { roleLabelKey } from './programRoles';

type ConsoleUser = accounts.ConsoleUser;

/** A customer's own console users (view `customer`). */
export default function ConsoleUsersView() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const list = usePagedList('consoleUsers', (start, size, userName) =>
    call(accounts.userList, { start, size, userName }),
  );
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ConsoleUser>();

  const columns: TableColumnsType<ConsoleUser> = [
    textColumn(t('accounts.userName'), 'userName', 110),
    {
      title: t('lists.onlineState'),
      dataIndex: 'isOnline',
      width: 72,
      render: (_, row) => <OnlineTag online={row.isOnline} />,
    },
    { title: t('accounts.phone'), dataIndex: 'phone', width: 135 },
    textColumn(t('accounts.email'), 'email'),
    {
      title: t('accounts.validBegin'),
      dataIndex: 'validBeginTime',
      width: 100,
      render: (_, row) => formatDateTime(row.validBeginTime),
    },
    {
      title: t('accounts.validEnd'),
      dataIndex: 'validEndTime',
      width: 100,
      render: (_, row) => formatDateTime(row.validEndTime),
    },
    {
      title: t('accounts.state'),
      dataIndex: 'state',
      width: 72,
      render: (_, row) => <EnabledTag state={row.state} />,
    },
    {
      title: t('accounts.role'),
      dataIndex: 'role',
      width: 105,
      render: (_, row) => t(roleLabelKey(row.role)),
    },
    textColumn(t('accounts.remark'), 'remark'),
    operationsColumn(
      t('lists.operations'),
      (row) => (
        <>
          <RowAction label={t('lists.edit')} testId="row-edit" onClick={() => setEditing(row)} />
          <AccessActions user={row} onDone={list.reload} />
          <RowAction
            label={t('lists.delete')}
            testId="row-delete"
            danger
            onClick={() =>
              confirm(
                t('lists.deleteConfirm', { name: row.userName }),
                () => call(accounts.deleteUser, { userId: row.userId }),
                list.reload,
              )
            }
          />
        </>
      ),
      300,
    ),
  ];

  return (
    <Card title={t('accounts.usersTitle')}>
      <ListToolbar
        searchPlaceholder={t('accounts.searchUserName')}
        onSearch={list.search}
        onRefresh={list.refresh}
        onAdd={() => setAdding(true)}
      />
      <PagedTable<ConsoleUser> rowKey="userId" columns={columns} list={list} />
      <AddUserModal open={adding} onClose={() => setAdding(false)} onSaved={list.reload} />
      <EditUserModal user={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
    </Card>
  );
}
