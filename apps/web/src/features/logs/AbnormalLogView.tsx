import { useState } from 'react';
import { Card, DatePicker, Input, Tag, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { logs } from '@panelfleet/contract';
import { call } from '../../api/client';
import { formatDateTime } from '../../format/dateTime';
import { FilterToolbar } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { useFilteredList } from '../../lists/usePagedList';
import { LogTextModal } from './LogTextModal';

type AbnormalLog = logs.AbnormalLogRecord;

interface AbnormalFilter {
  deviceKey?: string;
  uploadDate?: string;
  utcOffset?: number;
  model?: string;
  appName?: string;
}

/**
 * The abnormal-log list (spec 3 section 2.8): filters, the log text, and processing with a
 * confirmation. Also the "abnormal log" tab of the OTA log screen.
 */
export function AbnormalLogPanel() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const list = useFilteredList<AbnormalLog, AbnormalFilter>('abnormalLog', (start, size, filter) =>
    call(logs.listAbnormalLog, { start, size, ...filter }),
  );
  const [deviceKey, setDeviceKey] = useState('');
  const [uploadDate, setUploadDate] = useState<Dayjs | null>(null);
  const [model, setModel] = useState('');
  const [appName, setAppName] = useState('');
  const [viewing, setViewing] = useState<AbnormalLog>();

  const search = () =>
    list.filter({
      deviceKey: deviceKey.trim() || undefined,
      model: model.trim() || undefined,
      appName: appName.trim() || undefined,
      ...(uploadDate
        ? { uploadDate: uploadDate.format('YYYY-MM-DD'), utcOffset: uploadDate.startOf('day').utcOffset() }
        : {}),
    });
  const refresh = () => {
    setDeviceKey('');
    setUploadDate(null);
    setModel('');
    setAppName('');
    list.refresh();
  };
  const text = (value: string, set: (v: string) => void, placeholder: string, testId: string) => (
    <Input
      data-testid={testId}
      allowClear
      placeholder={placeholder}
      value={value}
      onChange={(e) => set(e.target.value)}
      onPressEnter={search}
      style={{ width: 170 }}
    />
  );

  const columns: TableColumnsType<AbnormalLog> = [
    { title: t('abnormalLog.fileName'), dataIndex: 'fileName' },
    {
      title: t('abnormalLog.deviceKey'),
      dataIndex: 'deviceKey',
      render: (_, row) =>
        row.deviceName && row.deviceName !== row.deviceKey
          ? `${row.deviceKey} (${row.deviceName})`
          : row.deviceKey,
    },
    { title: t('abnormalLog.appName'), dataIndex: 'appName' },
    { title: t('abnormalLog.model'), dataIndex: 'model' },
    {
      title: t('abnormalLog.uploadDate'),
      dataIndex: 'uploadDate',
      render: (_, row) => formatDateTime(row.uploadDate),
    },
    {
      title: t('abnormalLog.status'),
      dataIndex: 'status',
      render: (_, row) => (
        <Tag
          color={row.status === '1' ? 'green' : 'orange'}
          data-testid="abnormal-log-status"
          data-status={row.status}
        >
          {row.status === '1'
            ? t('abnormalLog.processed', { name: row.processedBy })
            : t('abnormalLog.unprocessed')}
        </Tag>
      ),
    },
    operationsColumn<AbnormalLog>(t('lists.operations'), (row) => (
      <>
        <RowAction label={t('abnormalLog.view')} testId="row-view" onClick={() => setViewing(row)} />
        <RowAction
          label={t('abnormalLog.process')}
          testId="row-process"
          disabled={row.status === '1'}
          onClick={() =>
            confirm(
              t('abnormalLog.processConfirm', { name: row.fileName }),
              () => call(logs.updateErrorLogStatus, { id: row.id, status: '1' }),
              list.reload,
            )
          }
        />
      </>
    )),
  ];

  return (
    <>
      <FilterToolbar onSearch={search} onRefresh={refresh}>
        {text(deviceKey, setDeviceKey, t('abnormalLog.deviceKey'), 'abnormal-filter-device')}
        <DatePicker
          data-testid="abnormal-filter-date"
          placeholder={t('abnormalLog.uploadDate')}
          value={uploadDate}
          onChange={setUploadDate}
        />
        {text(model, setModel, t('abnormalLog.model'), 'abnormal-filter-model')}
        {text(appName, setAppName, t('abnormalLog.appName'), 'abnormal-filter-app')}
      </FilterToolbar>
      <PagedTable<AbnormalLog> rowKey="id" columns={columns} list={list} />
      <LogTextModal log={viewing} onClose={() => setViewing(undefined)} />
    </>
  );
}

/** Abnormal log (view abnormalLog). */
export default function AbnormalLogView() {
  const { t } = useTranslation();
  return (
    <Card title={t('abnormalLog.title')}>
      <AbnormalLogPanel />
    </Card>
  );
}
