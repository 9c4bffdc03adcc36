import { useState, type ReactNode } from 'react';
import { Button, Select, Space, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { TARGET_STATES, type TargetState } from '@panelfleet/contract';
import { formatDateTime } from '../../../format/dateTime';
import { OnlineTag } from '../../../lists/StatusTags';
import { useFilteredList } from '../../../lists/usePagedList';
import { TargetStateTag } from './states';
import { useLiveTaskProgress } from './useLiveProgress';

/** What every kind of task shows of each panel. */
export interface TargetRow {
  deviceId: number;
  deviceName: string;
  deviceKey: string;
  isOnline: '1' | '0';
  state: TargetState;
  reason: string;
  progress: number | null;
  updatedAt: number;
}

type Page<Row> = { listObject: Row[]; totalRecords: number };

/**
 * A task's panels, a row each (OTA tasks, APK installs): name, key, online, the kind's own
 * columns, the state with its download percentage and reason, last change; filtered by state,
 * refreshed by the live task events (or polled) while the task runs. `actions` adds buttons
 * beside the filter and `columns` the kind's own columns after the online state.
 */
export function TaskTargetsTable<Row extends TargetRow>({
  name,
  load,
  live,
  kind,
  columns,
  trailing,
  stateNote,
  actions,
  onReload,
}: {
  name: string;
  load: (start: number, size: number, state: TargetState | undefined) => Promise<Page<Row>>;
  /** Whether the task may still change (live updates and polling). */
  live: boolean;
  /** The live events' kind of task (ota, apk). */
  kind: string;
  columns: TableColumnsType<Row>;
  /** Columns after the last change (operations), given the list's reload. */
  trailing?: (reload: () => void) => TableColumnsType<Row>;
  /** A line under a panel's state (an OTA panel waiting for its window). */
  stateNote?: (row: Row) => ReactNode;
  actions?: (reload: () => void) => ReactNode;
  onReload?: () => void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<TargetState>();
  const list = useFilteredList<Row, TargetState | undefined>(name, load);
  const reload = () => {
    list.reload();
    onReload?.();
  };
  useLiveTaskProgress(list.reload, live, kind);

  const all: TableColumnsType<Row> = [
    { title: t('ota.task.deviceName'), dataIndex: 'deviceName' },
    { title: t('ota.task.deviceKey'), dataIndex: 'deviceKey' },
    {
      title: t('lists.onlineState'),
      dataIndex: 'isOnline',
      render: (_, r) => <OnlineTag online={r.isOnline === '1' ? 1 : 0} />,
    },
    ...columns,
    {
      title: t('ota.task.state'),
      dataIndex: 'state',
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <TargetStateTag state={r.state} reason={r.reason} progress={r.progress} />
          {stateNote?.(r)}
        </Space>
      ),
    },
    {
      title: t('ota.task.lastUpdateDate'),
      dataIndex: 'updatedAt',
      render: (_, r) => formatDateTime(r.updatedAt),
    },
    ...(trailing?.(reload) ?? []),
  ];

  return (
    <div data-testid="task-devices">
      <Space style={{ marginBottom: 12 }} wrap>
        <Select<TargetState>
          allowClear
          data-testid="task-devices-state"
          placeholder={t('ota.task.stateFilter')}
          style={{ width: 200 }}
          value={state}
          onChange={(value) => {
            setState(value);
            list.filter(value);
          }}
          options={TARGET_STATES.map((s) => ({ value: s, label: t(`ota.task.targetStates.${s}`) }))}
        />
        <Button onClick={reload} data-testid="task-devices-refresh">
          {t('lists.refresh')}
        </Button>
        {actions?.(reload)}
      </Space>
      <Table<Row>
        rowKey="deviceId"
        size="small"
        columns={all}
        dataSource={list.rows}
        loading={list.loading}
        pagination={list.pagination}
        scroll={{ x: 'max-content' }}
      />
    </div>
  );
}
