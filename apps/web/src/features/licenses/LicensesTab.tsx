import { useState } from 'react';
import { Button, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { CONTRACT_NS } from '../../i18n';
import { ListToolbar } from '../../lists/ListToolbar';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { isLicenseUsed, licenseStateKey, licenseTypeKey } from './licenseStates';
import { LicenseModal } from './LicenseModal';

type License = accounts.License;

const STATE_COLOURS = ['default', 'green', 'red'];

export function LicensesTab() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const list = usePagedList('licenses', (start, size, companyName) => call(accounts.licenseList, { start, size, companyName }));
  const [editing, setEditing] = useState<License | null>();

  const columns: TableColumnsType<License> = [
    { title: t('licenses.key'), dataIndex: 'license', render: (_, row) => <Typography.Text copyable code data-testid="license-key">{row.license}</Typography.Text> },
    { title: t('licenses.companyName'), dataIndex: 'companyName' },
    { title: t('licenses.salesperson'), dataIndex: 'saleManName' },
    { title: t('licenses.state'), dataIndex: 'state', render: (_, row) => <Tag color={STATE_COLOURS[row.state]}>{t(licenseStateKey(row.state))}</Tag> },
    { title: t('licenses.validBegin'), dataIndex: 'validBeginTime', render: (_, row) => formatDateTime(row.validBeginTime) },
    { title: t('licenses.validEnd'), dataIndex: 'validEndTime', render: (_, row) => formatDateTime(row.validEndTime) },
    { title: t('licenses.type'), dataIndex: 'type', render: (_, row) => t(licenseTypeKey(row.type)) },
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
            disabled={isLicenseUsed(row)}
            title={isLicenseUsed(row) ? t('license.usedLocked', { ns: CONTRACT_NS }) : undefined}
            data-testid="row-delete"
            onClick={() => confirm(t('lists.deleteConfirm', { name: row.license }), () => call(accounts.licenseDelete, { id: row.id }), list.reload)}
          >
            {t('lists.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListToolbar searchPlaceholder={t('licenses.searchCompany')} onSearch={list.search} onRefresh={list.refresh} onAdd={() => setEditing(null)} />
      <Table<License> rowKey="id" columns={columns} dataSource={list.rows} loading={list.loading} pagination={list.pagination} scroll={{ x: 'max-content' }} />
      <LicenseModal license={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
    </>
  );
}
