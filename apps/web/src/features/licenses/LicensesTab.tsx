import { useState } from 'react';
import { Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { CONTRACT_NS } from '../../i18n';
import { ListToolbar } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { isLicenseUsed, licenseStateKey, licenseTypeKey } from './licenseStates';
import { LicenseModal } from './LicenseModal';

type License = accounts.License;

const STATE_COLOURS = ['default', 'green', 'red'];

export function LicensesTab() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const list = usePagedList('licenses', (start, size, companyName) =>
    call(accounts.licenseList, { start, size, companyName }),
  );
  const [editing, setEditing] = useState<License | null>();

  const columns: TableColumnsType<License> = [
    {
      title: t('licenses.key'),
      dataIndex: 'license',
      render: (_, row) => (
        <Typography.Text copyable code data-testid="license-key">
          {row.license}
        </Typography.Text>
      ),
    },
    { title: t('licenses.companyName'), dataIndex: 'companyName' },
    { title: t('licenses.salesperson'), dataIndex: 'saleManName' },
    {
      title: t('licenses.state'),
      dataIndex: 'state',
      render: (_, row) => <Tag color={STATE_COLOURS[row.state]}>{t(licenseStateKey(row.state))}</Tag>,
    },
    {
      title: t('licenses.validBegin'),
      dataIndex: 'validBeginTime',
      render: (_, row) => formatDateTime(row.validBeginTime),
    },
    {
      title: t('licenses.validEnd'),
      dataIndex: 'validEndTime',
      render: (_, row) => formatDateTime(row.validEndTime),
    },
    { title: t('licenses.type'), dataIndex: 'type', render: (_, row) => t(licenseTypeKey(row.type)) },
    operationsColumn(t('lists.operations'), (row) => (
      <>
        <RowAction label={t('lists.edit')} testId="row-edit" onClick={() => setEditing(row)} />
        <RowAction
          label={t('lists.delete')}
          testId="row-delete"
          danger
          disabled={isLicenseUsed(row)}
          title={isLicenseUsed(row) ? t('license.usedLocked', { ns: CONTRACT_NS }) : undefined}
          onClick={() =>
            confirm(
              t('lists.deleteConfirm', { name: row.license }),
              () => call(accounts.licenseDelete, { id: row.id }),
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
        searchPlaceholder={t('licenses.searchCompany')}
        onSearch={list.search}
        onRefresh={list.refresh}
        onAdd={() => setEditing(null)}
      />
      <PagedTable<License> rowKey="id" columns={columns} list={list} />
      <LicenseModal license={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
    </>
  );
}
