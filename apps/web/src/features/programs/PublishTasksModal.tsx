import { useState } from 'react';
import {
  Button,
  Modal,
  Progress,
  Segmented,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import * as programs from '@panelfleet/contract/programs';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { formatDateTime } from '../../format/dateTime';
import { PAGE_SIZE_OPTIONS } from '../../lists/paging';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { normalizeProgramRole, PROGRAM_ROLE_KEY } from '../auth/programRole';

interface PublishTasksModalProps {
  program: programs.Program | undefined;
  /** The task to show first (the one just made); the newest otherwise. */
  taskId?: number | undefined;
  onClose(): void;
}

/** Spec 2 section 9: lists refresh every 5 seconds. */
const REFRESH_MS = 5000;

const STATE_COLORS: Record<programs.PublishTarget['state'], string> = {
  queued: 'default',
  sent: 'processing',
  downloading: 'processing',
  verifying: 'processing',
  ready: 'cyan',
  playing: 'success',
  finished: 'green',
  failed: 'error',
  cancelled: 'default',
  skipped: 'warning',
};

/** Panels a cancel still stops: downloading, ready or playing (protocol 6.5, PROGRAM_STOP). */
const STOPPABLE: ReadonlySet<programs.PublishTarget['state']> = new Set([
  'queued',
  'sent',
  'downloading',
  'verifying',
  'ready',
  'playing',
]);

/**
 * A program's publish tasks and, for the chosen one, every panel's state, refreshed while open.
 * Creators (program role 0) stop the whole task or one panel, after a confirmation.
 */
export function PublishTasksModal({ program, taskId, onClose }: PublishTasksModalProps) {
  const { t } = useTranslation();
  const open = program !== undefined;
  const [chosen, setChosen] = useState<number>();
  const [page, setPage] = useState({ page: 1, size: 10 });
  const tasks = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'publishTasks', program?.programId],
    queryFn: async () =>
      (await call(programs.listPublishTasks, { programId: program!.programId })).listObject,
    enabled: open,
    refetchInterval: REFRESH_MS,
  });
  const current = chosen ?? taskId ?? tasks.data?.[0]?.taskId;
  const targets = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'publishTargets', current, page.page, page.size],
    queryFn: () => call(programs.listPublishTargets, { taskId: current!, start: page.page, size: page.size }),
    enabled: open && current !== undefined,
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const task = tasks.data?.find((x) => x.taskId === current);
  const confirm = useConfirmAction();
  const mayCancel = normalizeProgramRole(localStorage.getItem(PROGRAM_ROLE_KEY)) === '0';
  const reload = () => {
    void tasks.refetch();
    void targets.refetch();
  };
  const running = task
    ? Object.keys(task.counts).some((s) => STOPPABLE.has(s as programs.PublishTarget['state']))
    : false;

  const columns: TableColumnsType<programs.PublishTarget> = [
    { title: t('programs.publish.deviceName'), dataIndex: 'deviceName', ellipsis: true },
    { title: t('programs.publish.deviceKey'), dataIndex: 'deviceKey', width: 140 },
    {
      title: t('programs.publish.state'),
      dataIndex: 'state',
      width: 220,
      render: (_, row) => (
        <Space data-testid="publish-target-state" data-device-key={row.deviceKey} data-state={row.state}>
          <Tag color={STATE_COLORS[row.state]}>{t(`programs.publish.states.${row.state}`)}</Tag>
          {row.state === 'downloading' && row.percent !== null && (
            <Progress percent={row.percent} size="small" style={{ width: 90 }} />
          )}
        </Space>
      ),
    },
    {
      title: t('programs.publish.reason'),
      dataIndex: 'reason',
      render: (_, row) =>
        row.reason && (
          <Typography.Text type={row.state === 'failed' ? 'danger' : 'secondary'}>
            {t(`programs.publish.reasons.${row.reason}`, { defaultValue: row.reason })}
          </Typography.Text>
        ),
    },
    {
      title: t('programs.publish.updateTime'),
      dataIndex: 'updateTime',
      width: 170,
      render: (_, row) => formatDateTime(row.updateTime),
    },
    ...(mayCancel
      ? [
          {
            title: t('programs.publish.actions'),
            key: 'cancel',
            width: 90,
            render: (_: unknown, row: programs.PublishTarget) =>
              STOPPABLE.has(row.state) && (
                <Button
                  size="small"
                  type="link"
                  danger
                  data-testid="publish-target-cancel"
                  data-cancel-key={row.deviceKey}
                  onClick={() =>
                    confirm(
                      t('programs.publish.cancelDeviceConfirm', { name: row.deviceName }),
                      () => call(programs.cancelPublishDevice, { taskId: current!, deviceId: row.deviceId }),
                      reload,
                    )
                  }
                >
                  {t('programs.publish.cancelDevice')}
                </Button>
              ),
          },
        ]
      : []),
  ];

  return (
    <Modal
      open={open}
      title={program ? t('programs.publish.tasksTitle', { name: program.name }) : ''}
      onCancel={() => {
        setChosen(undefined);
        onClose();
      }}
      footer={null}
      width={920}
      destroyOnHidden
    >
      <div data-testid="publish-tasks-modal">
        {tasks.data && tasks.data.length === 0 && (
          <Typography.Paragraph type="secondary">{t('programs.publish.noTasks')}</Typography.Paragraph>
        )}
        {tasks.data && tasks.data.length > 1 && (
          <Segmented
            style={{ marginBottom: 12 }}
            value={current}
            onChange={(value) => {
              setChosen(Number(value));
              setPage((p) => ({ ...p, page: 1 }));
            }}
            options={tasks.data.map((x) => ({ value: x.taskId, label: formatDateTime(x.createTime) }))}
          />
        )}
        {task && (
          <Typography.Paragraph data-testid="publish-task-summary">
            {t('programs.publish.summary', {
              time: formatDateTime(task.createTime),
              user: task.creatorName,
              total: task.total,
            })}{' '}
            {Object.entries(task.counts).map(([state, n]) => (
              <Tag key={state} color={STATE_COLORS[state as programs.PublishTarget['state']]}>
                {t(`programs.publish.states.${state}`)}: {n}
              </Tag>
            ))}
            {mayCancel && running && (
              <Button
                danger
                size="small"
                data-testid="publish-task-cancel"
                onClick={() =>
                  confirm(
                    t('programs.publish.cancelTaskConfirm', { time: formatDateTime(task.createTime) }),
                    () => call(programs.cancelPublishTask, { taskId: task.taskId }),
                    reload,
                  )
                }
              >
                {t('programs.publish.cancelTask')}
              </Button>
            )}
          </Typography.Paragraph>
        )}
        {current !== undefined && (
          <Table<programs.PublishTarget>
            size="small"
            rowKey="deviceId"
            columns={columns}
            dataSource={targets.data?.listObject ?? []}
            loading={targets.isLoading}
            pagination={{
              current: page.page,
              pageSize: page.size,
              total: targets.data?.totalRecords ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZE_OPTIONS,
              onChange: (p, size) => setPage({ page: p, size }),
            }}
          />
        )}
      </div>
    </Modal>
  );
}
