import { Alert, Button, Descriptions, Modal, Progress, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OPEN_TASK_STATES, ota, type TargetState } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { SESSION_QUERY_KEY } from '../../../app/queryClient';
import { formatDateTime } from '../../../format/dateTime';
import { countsOf, TaskProgress, TaskStateTag } from './states';
import { useLiveTaskProgress } from './useLiveProgress';
import { useTaskActions } from './useTaskActions';

type Wave = ReturnType<typeof ota.otaWave.parse>;

const WAVE_STATE_COLORS = { pending: 'default', running: 'processing', done: 'success' } as const;

/** The view dialog: the task, its timed start (and the late window), and its waves with progress bars. */
export function TaskViewModal({
  taskId,
  onClose,
  onChanged,
}: {
  taskId: number | undefined;
  onClose(): void;
  onChanged(): void;
}) {
  const { t } = useTranslation();
  const open = taskId !== undefined;
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'otaTask', taskId],
    enabled: open,
    staleTime: 0,
    queryFn: () => call(ota.getOtaTask, { otaTaskId: taskId! }),
  });
  const task = query.data?.dataObject;
  const running = !!task && OPEN_TASK_STATES.includes(task.state);
  useLiveTaskProgress(() => void query.refetch(), open && running);
  const changed = () => {
    void query.refetch();
    onChanged();
  };
  const actions = useTaskActions(changed);
  const steer = task?.canManage === '1' && task.deviceUpgradeState === '0';

  const columns: TableColumnsType<Wave> = [
    { title: t('ota.task.wave'), dataIndex: 'wave', render: (_, w) => w.wave + 1 },
    { title: t('ota.task.waveSize'), dataIndex: 'size' },
    {
      title: t('ota.task.state'),
      dataIndex: 'state',
      render: (_, w) => <Tag color={WAVE_STATE_COLORS[w.state]}>{t(`ota.task.waveStates.${w.state}`)}</Tag>,
    },
    {
      title: t('ota.task.progress'),
      key: 'progress',
      render: (_, w) => <TaskProgress {...countsOf(w.counts)} />,
    },
    {
      title: t('ota.task.inFlight'),
      key: 'inFlight',
      render: (_, w) => {
        const n = (s: TargetState) => w.counts[s] ?? 0;
        return t('ota.task.inFlightText', {
          downloading: n('sent') + n('downloading'),
          installing: n('verifying') + n('installing'),
          waiting: n('queued') + n('waiting'),
        });
      },
    },
    { title: t('ota.task.startedAt'), dataIndex: 'startedAt', render: (_, w) => formatDateTime(w.startedAt) },
  ];

  return (
    <Modal
      title={t('ota.task.viewTitle', { id: taskId ?? '' })}
      open={open}
      onCancel={onClose}
      width={850}
      destroyOnHidden
      footer={
        steer && task ? (
          <Space>
            {task.state === 'running' && (
              <Button data-testid="task-view-pause" onClick={() => actions.pause(task)}>
                {t('ota.task.pause')}
              </Button>
            )}
            {task.state === 'paused' && (
              <Button type="primary" data-testid="task-view-resume" onClick={() => actions.resume(task)}>
                {t('ota.task.resume')}
              </Button>
            )}
            <Button danger data-testid="task-view-cancel" onClick={() => actions.cancel(task)}>
              {t('ota.task.cancelAll')}
            </Button>
          </Space>
        ) : null
      }
    >
      {task && (
        <div data-testid="task-view-dialog">
          {task.stateReason && (
            <Alert
              type={task.state === 'paused' ? 'warning' : 'error'}
              showIcon
              title={task.stateReason}
              style={{ marginBottom: 12 }}
              data-testid="task-state-reason"
            />
          )}
          <Descriptions
            bordered
            size="small"
            column={2}
            items={[
              { key: 'file', label: t('ota.task.file'), children: `${task.fileName} (${task.otaVersion})` },
              { key: 'state', label: t('ota.task.state'), children: <TaskStateTag state={task.state} /> },
              { key: 'machineType', label: t('ota.task.machineType'), children: task.machineType },
              { key: 'operateMan', label: t('ota.task.operateMan'), children: task.operateMan },
              {
                key: 'time',
                label: task.timeEnable === '1' ? t('ota.task.scheduledAt') : t('ota.task.upgradeTime'),
                children: formatDateTime(task.upgradeTime),
              },
              {
                key: 'fireBy',
                label: t('ota.task.fireBy'),
                children: task.timeEnable === '1' && task.fireBy ? formatDateTime(task.fireBy) : '-',
              },
              { key: 'firedAt', label: t('ota.task.firedAt'), children: formatDateTime(task.firedAt) || '-' },
              {
                key: 'limits',
                label: t('ota.force.maxDownloads'),
                children: task.maxDownloads ?? t('ota.task.serverCap'),
              },
              {
                key: 'thresholds',
                label: t('ota.force.thresholds'),
                children:
                  task.waveMode === 'none'
                    ? t('ota.force.waveModes.none')
                    : t('ota.task.thresholdText', {
                        success: task.successShare,
                        failure: task.failureShare,
                        min: task.minResults,
                      }),
              },
              {
                key: 'downgrade',
                label: t('ota.force.allowDowngrade'),
                children: task.allowDowngrade === '1' ? t('ota.task.yes') : t('ota.task.no'),
              },
              {
                key: 'keepAdding',
                label: t('labels.keepAdding.label'),
                children: task.keepAdding === '1' ? t('ota.task.yes') : t('ota.task.no'),
              },
              {
                key: 'progress',
                label: t('ota.task.progress'),
                span: 2,
                children: (
                  <Progress
                    percent={
                      task.total
                        ? Math.floor(
                            ((countsOf(task.counts).done + countsOf(task.counts).failed) / task.total) * 100,
                          )
                        : 0
                    }
                    success={{
                      percent: task.total ? Math.floor((countsOf(task.counts).done / task.total) * 100) : 0,
                    }}
                  />
                ),
              },
            ]}
          />
          <Table<Wave>
            style={{ marginTop: 16 }}
            rowKey="wave"
            size="small"
            data-testid="task-waves"
            columns={columns}
            dataSource={task.waves}
            pagination={false}
            scroll={{ x: 'max-content' }}
          />
        </div>
      )}
    </Modal>
  );
}
