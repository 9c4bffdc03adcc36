import { useState } from 'react';
import { Input, Select, Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { OTA_LOG_STATUSES, ota, type OtaLogStatus } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { CONTRACT_NS } from '../../../i18n';
import { formatDateTime } from '../../../format/dateTime';
import { FilterToolbar } from '../../../lists/ListToolbar';
import { outcomeKey } from './outcome';
import { PagedTable } from '../../../lists/RowActions';
import { useFilteredList } from '../../../lists/usePagedList';

type LogRow = ReturnType<typeof ota.otaLogRow.parse>;

interface LogFilter {
  deviceKey?: string;
  otaVersion?: string;
  status?: OtaLogStatus;
}

const STATUS_COLORS: Record<OtaLogStatus, string> = {
  '0': 'processing',
  '1': 'success',
  '2': 'error',
  '3': 'default',
};

/** The OTA log (spec 3 section 2.8): one row per panel and task; by device key, version and status. */
export function OtaLogPanel() {
  const { t } = useTranslation();
  const list = useFilteredList<LogRow, LogFilter>('otaLog', (start, size, filter) =>
    call(ota.listOtaLog, { start, size, ...filter }),
  );
  const [deviceKey, setDeviceKey] = useState('');
  const [otaVersion, setOtaVersion] = useState('');
  const [status, setStatus] = useState<OtaLogStatus>();

  const search = () =>
    list.filter({
      deviceKey: deviceKey.trim() || undefined,
      otaVersion: otaVersion.trim() || undefined,
      status,
    });
  const refresh = () => {
    setDeviceKey('');
    setOtaVersion('');
    setStatus(undefined);
    list.refresh();
  };
  const columns: TableColumnsType<LogRow> = [
    {
      title: t('ota.log.deviceKey'),
      dataIndex: 'deviceKey',
      render: (_, r) =>
        r.deviceName && r.deviceName !== r.deviceKey ? `${r.deviceKey} (${r.deviceName})` : r.deviceKey,
    },
    { title: t('ota.log.machineType'), dataIndex: 'machineType', width: 100 },
    { title: t('ota.log.otaVersion'), dataIndex: 'otaVersion', width: 90 },
    { title: t('ota.log.otaNewVersion'), dataIndex: 'otaNewVersion', width: 100 },
    {
      title: t('ota.log.status'),
      dataIndex: 'status',
      render: (_, r) => (
        <Tag
          color={STATUS_COLORS[r.status]}
          data-testid="ota-log-status"
          data-status={r.status}
          data-state={r.state}
        >
          {t(outcomeKey(r))}
        </Tag>
      ),
    },
    {
      title: t('ota.log.detail'),
      key: 'detail',
      render: (_, r) =>
        [
          t(`ota.task.targetStates.${r.state}`),
          r.reason ? t(`ota.reason.${r.reason}`, { ns: CONTRACT_NS, defaultValue: r.reason }) : '',
        ]
          .filter(Boolean)
          .join(': '),
    },
    { title: t('ota.log.task'), dataIndex: 'otaTaskId', width: 70, render: (_, r) => `#${r.otaTaskId}` },
    {
      title: t('ota.log.creationDate'),
      dataIndex: 'creationDate',
      render: (_, r) => formatDateTime(r.creationDate),
    },
    {
      title: t('ota.log.updateDate'),
      dataIndex: 'updateDate',
      render: (_, r) => formatDateTime(r.updateDate),
    },
  ];
  return (
    <>
      <FilterToolbar onSearch={search} onRefresh={refresh}>
        <Input
          data-testid="ota-log-device"
          allowClear
          placeholder={t('ota.log.deviceKey')}
          value={deviceKey}
          onChange={(e) => setDeviceKey(e.target.value)}
          onPressEnter={search}
          style={{ width: 180 }}
        />
        <Input
          data-testid="ota-log-version"
          allowClear
          placeholder={t('ota.log.version')}
          value={otaVersion}
          onChange={(e) => setOtaVersion(e.target.value)}
          onPressEnter={search}
          style={{ width: 160 }}
        />
        <Select<OtaLogStatus>
          data-testid="ota-log-status-filter"
          allowClear
          placeholder={t('ota.log.status')}
          value={status}
          onChange={setStatus}
          style={{ width: 180 }}
          options={OTA_LOG_STATUSES.map((s) => ({ value: s, label: t(`ota.log.statuses.${s}`) }))}
        />
      </FilterToolbar>
      <PagedTable<LogRow> rowKey="id" columns={columns} list={list} />
    </>
  );
}
