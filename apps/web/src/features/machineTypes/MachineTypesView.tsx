import { useState } from 'react';
import { Card, Space, Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { machineTypes } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { ListToolbar } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../lists/RowActions';
import { EnabledTag } from '../../lists/StatusTags';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { CatalogReadOnlyNotice } from '../sources/CatalogNotice';
import { useCatalogEditor } from '../sources/useCatalogEditor';
import { MachineTypeModal } from './MachineTypeModal';

type MachineType = machineTypes.MachineType;

/** Machine type management (view machineManage): machine types with their input sources. */
export default function MachineTypesView() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const editor = useCatalogEditor();
  const list = usePagedList('machineTypes', (start, size, machineType) =>
    call(machineTypes.listMachineTypes, { start, size, machineType }),
  );
  const [editing, setEditing] = useState<MachineType | null>();

  const columns: TableColumnsType<MachineType> = [
    { title: t('machineTypes.name'), dataIndex: 'machineType' },
    {
      title: t('machineTypes.inputSources'),
      dataIndex: 'inputSources',
      render: (_, row) => (
        <Space size={[0, 4]} wrap data-testid="machine-type-inputs">
          {row.inputSources.map((s) => (
            <Tag key={s.id} title={s.sourceKey}>
              {s.name}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('machineTypes.state'),
      dataIndex: 'enable',
      render: (_, row) => <EnabledTag state={row.enable === '1' ? 1 : 0} />,
    },
    {
      title: t('machineTypes.referenceCount'),
      dataIndex: 'referenceCount',
      render: (_, row) => <span data-testid="machine-type-references">{row.referenceCount}</span>,
    },
    { title: t('machineTypes.createMan'), dataIndex: 'createMan' },
    {
      title: t('machineTypes.creationDate'),
      dataIndex: 'creationDate',
      render: (_, row) => formatDateTime(row.creationDate),
    },
    ...(editor
      ? [
          operationsColumn<MachineType>(t('lists.operations'), (row) => (
            <>
              <RowAction label={t('lists.edit')} testId="row-edit" onClick={() => setEditing(row)} />
              <RowAction
                label={t('lists.delete')}
                testId="row-delete"
                danger
                disabled={row.referenceCount !== 0}
                title={
                  row.referenceCount !== 0
                    ? t('machineTypes.deleteLocked', { count: row.referenceCount })
                    : undefined
                }
                onClick={() =>
                  confirm(
                    t('lists.deleteConfirm', { name: row.machineType }),
                    () => call(machineTypes.deleteMachineType, { machineTypeId: row.machineTypeId }),
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
    <Card title={t('machineTypes.title')}>
      {!editor && <CatalogReadOnlyNotice catalog="machineTypes" />}
      <ListToolbar
        searchPlaceholder={t('machineTypes.searchName')}
        onSearch={list.search}
        onRefresh={list.refresh}
        onAdd={editor ? () => setEditing(null) : undefined}
      />
      <PagedTable<MachineType> rowKey="machineTypeId" columns={columns} list={list} />
      <MachineTypeModal machineType={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
    </Card>
  );
}
