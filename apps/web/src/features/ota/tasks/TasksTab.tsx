import { useState } from 'react';
import { Alert, Card, DatePicker, Space, Tag, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { OPEN_TASK_STATES, ota } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { formatDateTime } from '../../../format/dateTime';
import { FilterToolbar } from '../../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../../lists/RowActions';
import { OneLine, TwoLines } from '../../../lists/TwoLines';
import { useFilteredList } from '../../../lists/usePagedList';
import { countsOf, TaskProgress, TaskStateTag, type TaskCounts } from './states';
import { TaskDevicesModal } from './TaskDevicesModal';
import { TaskViewModal } from './TaskViewModal';
import { useLiveTaskProgress } from './useLiveProgress';
import { useTaskActions } from './useTaskActions';

type Task = ota.OtaTask;

interface TaskFilter {
  operateDate?: string;
  utcOffset?: number;
}

/** The later of two views of a task's progress (a panel only ever finishes once). */
const newer = (a: TaskCounts, b: TaskCounts | undefined) =>
  b && b.done + b.failed > a.done + a.failed ? b : a;

/**
 * The OTA task list (tab `renew`, spec 3 section 2.3): filter by operation day, live progress,
 * the view dialog (timed start, waves) and the manage dialog (each panel; cancel all or one);
 * pause, resume and cancel with a confirmation for those who steer the task.
 */
export default function TasksTab() {
  const { t } = useTranslation();
  const list = useFilteredList<Task, TaskFilter>('otaTasks', (start, size, filter) =>
    call(ota.listOtaTasks, { start, size, ...filter }),
  );
  const [day, setDay] = useState<Dayjs | null>(null);
  const [viewing, setViewing] = useState<number>();
  const [managing, setManaging] = useState<Task>();
  const actions = useTaskActions(list.reload);
  const anyOpen = list.rows.some((r) => OPEN_TASK_STATES.includes(r.state));
  const live = useLiveTaskProgress(list.reload, anyOpen);

  const search = () =>
    list.filter(
      day ? { operateDate: day.format('YYYY-MM-DD'), utcOffset: day.startOf('day').utcOffset() } : undefined,
    );
  const refresh = () => {
    setDay(null);
    list.refresh();
  };

  // The list fits its card at 1366 px (fixed layout): the version and machine type sit under the
  // file, the wave under the progress bar, so no label spills into the next column.
  const columns: TableColumnsType<Task> = [
    { title: t('ota.task.id'), dataIndex: 'otaTaskId', width: 56 },
    {
      title: t('ota.task.file'),
      dataIndex: 'fileName',
      render: (_, row) => (
        <TwoLines first={<OneLine text={row.fileName} />} second={`${row.otaVersion} · ${row.machineType}`} />
      ),
    },
    {
      title: t('ota.task.operateMan'),
      dataIndex: 'operateMan',
      width: 100,
      render: (_, row) => <OneLine text={row.operateMan} />,
    },
    {
      title: t('ota.task.state'),
      dataIndex: 'state',
      width: 100,
      render: (_, row) => <TaskStateTag state={row.state} reason={row.stateReason} />,
    },
    {
      title: t('ota.task.progress'),
      key: 'progress',
      width: 180,
      render: (_, row) => (
        <Space direction="vertical" size={0} style={{ width: '100%' }}>
          <TaskProgress {...newer(countsOf(row.counts), live.progress[row.otaTaskId])} />
          {row.waveMode !== 'none' && (
            <Typography.Text type="secondary" data-testid="task-wave">
              {t('ota.task.waveOf', { wave: row.currentWave + 1, count: row.waveCount })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('ota.task.upgradeTime'),
      dataIndex: 'upgradeTime',
      width: 160,
      render: (_, row) => (
        <Space size={4} wrap>
          {formatDateTime(row.upgradeTime)}
          {row.timeEnable === '1' && <Tag color="purple">{t('ota.task.timed')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('ota.task.lastUpdateDate'),
      dataIndex: 'lastUpdateDate',
      width: 160,
      render: (_, row) => formatDateTime(row.lastUpdateDate),
    },
    operationsColumn<Task>(
      t('lists.operations'),
      (row) => {
        const steer = row.canManage === '1' && row.deviceUpgradeState === '0';
        return (
          <>
            <RowAction
              label={t('ota.task.view')}
              testId="task-view"
              onClick={() => setViewing(row.otaTaskId)}
            />
            <RowAction label={t('ota.task.manage')} testId="task-manage" onClick={() => setManaging(row)} />
            {steer && row.state === 'running' && (
              <RowAction label={t('ota.task.pause')} testId="task-pause" onClick={() => actions.pause(row)} />
            )}
            {steer && row.state === 'paused' && (
              <RowAction
                label={t('ota.task.resume')}
                testId="task-resume"
                onClick={() => actions.resume(row)}
              />
            )}
            {row.canManage === '1' && (
              <RowAction
                label={t('ota.task.cancelAll')}
                testId="task-cancel"
                danger
                disabled={!steer}
                onClick={() => actions.cancel(row)}
              />
            )}
          </>
        );
      },
      150,
    ),
  ];

  return (
    <Card title={t('ota.tabs.tasks')}>
      {anyOpen && !live.connected && (
        <Alert type="info" showIcon title={t('ota.task.polling')} style={{ marginBottom: 12 }} />
      )}
      <FilterToolbar onSearch={search} onRefresh={refresh}>
        <DatePicker
          data-testid="task-filter-date"
          placeholder={t('ota.task.operateDate')}
          value={day}
          onChange={setDay}
        />
      </FilterToolbar>
      <PagedTable<Task> rowKey="otaTaskId" columns={columns} list={list} />
      <TaskViewModal taskId={viewing} onClose={() => setViewing(undefined)} onChanged={list.reload} />
      <TaskDevicesModal
        task={managing && (list.rows.find((r) => r.otaTaskId === managing.otaTaskId) ?? managing)}
        onClose={() => setManaging(undefined)}
        onChanged={list.reload}
      />
    </Card>
  );
}
