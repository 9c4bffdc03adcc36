import { useState } from 'react';
import { Button, Space, type TableColumnsType } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { settings } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { operationsColumn, PagedTable, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { AddSettingModal } from './AddSettingModal';
import { useSettingNames } from './names';
import { SourceEditor } from './SourceEditor';
import { TemplateEditor } from './TemplateEditor';
import { usePush } from './usePush';

type Row = settings.SettingRow;

/**
 * One tab of the setting page: templates (type '0': series name opening its editor, Push) or
 * source settings (type '1': system opening its editor, series, source, Push), paged on the server.
 */
export function SavedSettingsTab({ type }: { type: '0' | '1' }) {
  const { t } = useTranslation();
  const names = useSettingNames();
  const confirm = useConfirmAction();
  const list = usePagedList(type === '0' ? 'settingTemplates' : 'sourceSettings', (start, size) =>
    call(settings.listSetting, { start, size, type }),
  );
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Row>();
  const { push, element: pushDialogs } = usePush();
  const isTemplate = type === '0';

  const open = (row: Row, label: string) => (
    <Button
      type="link"
      size="small"
      data-testid="setting-open"
      data-id={row.id}
      onClick={() => setEditing(row)}
    >
      {label}
    </Button>
  );
  const columns: TableColumnsType<Row> = isTemplate
    ? [
        {
          title: t('settingPage.seriesName'),
          dataIndex: 'series',
          render: (_, row) => open(row, row.series),
        },
        { title: t('settingPage.number'), dataIndex: 'id', width: 90 },
      ]
    : [
        {
          title: t('settingPage.system'),
          dataIndex: 'platform',
          render: (_, row) => open(row, names.system(row.platform)),
        },
        { title: t('settingPage.series'), dataIndex: 'series' },
        {
          title: t('settingPage.source'),
          dataIndex: 'sourceType',
          render: (_, row) => names.source(row.sourceType),
        },
      ];
  columns.push(
    {
      title: t('settingPage.updated'),
      dataIndex: 'updateTime',
      render: (_, row) => formatDateTime(row.updateTime),
    },
    operationsColumn<Row>(t('lists.operations'), (row) => (
      <>
        <RowAction label={t('settingPage.push')} testId="setting-push" onClick={() => push(row)} />
        <RowAction
          label={t('lists.delete')}
          testId="setting-delete"
          danger
          onClick={() =>
            confirm(
              isTemplate
                ? t('settingPage.deleteTemplate', { id: row.id, series: row.series })
                : t('settingPage.deleteSource', {
                    system: names.system(row.platform),
                    series: row.series,
                    source: names.source(row.sourceType),
                  }),
              () => call(settings.deleteSetting, { id: row.id }),
              list.reload,
            )
          }
        />
      </>
    )),
  );

  return (
    <div data-testid={isTemplate ? 'templates-tab' : 'sources-tab'}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setAdding(true)}
          data-testid="setting-add"
        >
          {t(isTemplate ? 'settingPage.addTemplate' : 'settingPage.addSource')}
        </Button>
        <Button icon={<ReloadOutlined />} onClick={list.refresh} data-testid="list-refresh">
          {t('lists.refresh')}
        </Button>
      </Space>
      <PagedTable<Row> rowKey="id" columns={columns} list={list} />
      <AddSettingModal
        type={adding ? type : undefined}
        onClose={() => setAdding(false)}
        onAdded={(row) => {
          list.reload();
          setEditing(row);
        }}
      />
      {isTemplate ? (
        <TemplateEditor row={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
      ) : (
        <SourceEditor row={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
      )}
      {pushDialogs}
    </div>
  );
}
