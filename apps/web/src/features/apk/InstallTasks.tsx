import { useState } from 'react';
import { Button, Modal, Table, Tag, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apk, OPEN_TASK_STATES } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { formatDateTime } from '../../format/dateTime';
import { operationsColumn, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { useFilteredList } from '../../lists/usePagedList';
import { countsOf, TaskProgress, TaskStateTag } from '../ota/tasks/states';
import { TaskTargetsTable } from '../ota/tasks/TaskTargetsTable';
import { useLiveTaskProgress } from '../ota/tasks/useLiveProgress';

type TaskDevice = apk.ApkTaskDevice;

/**
 * One install task, a row per panel (the OTA task's table): state, download %, the panel's
 * failure reason, the version it reports now; the task's progress above; cancel while it runs.
 */
export function InstallTaskModal({ taskId, onClose }: { taskId: number | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const open = taskId !== undefined;
  const task = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'apk', 'task', taskId],
    queryFn: () => call(apk.getApkTask, { apkTaskId: taskId! }),
    enabled: open,
  });
  const data = task.data?.dataObject;
  const running = !!data && OPEN_TASK_STATES.includes(data.state);
  useLiveTaskProgress(() => void task.refetch(), open && running, 'apk');
  const columns: TableColumnsType<TaskDevice> = [
    { title: t('apkTask.versionCurrent'), dataIndex: 'versionCurrent', render: (v: string) => v || '—' },
    { title: t('apkTask.versionUpdate'), dataIndex: 'versionUpdate' },
  ];
  return (
    <Modal
      open={open}
      width={1000}
      footer={null}
      destroyOnHidden
      onCancel={onClose}
      title={t('apkTask.title', {
        id: taskId ?? '',
        name: data ? `${data.packageName} ${data.versionName}` : '',
      })}
    >
      {open && (
        <div data-testid="apk-task">
          {data && (
            <div style={{ display: 'flex', gap: 16, alignItems: 'center', marginBottom: 12 }}>
              <TaskStateTag state={data.state} />
              <Tag>{t(`apkTask.target.${data.target}`)}</Tag>
              <div style={{ width: 260 }}>
                <TaskProgress {...countsOf(data.counts)} />
              </div>
            </div>
          )}
          <TaskTargetsTable<TaskDevice>
            name={`apkTaskDevices-${taskId}`}
            kind="apk"
            live={running}
            load={(start, size, state) =>
              call(apk.listApkTaskDevices, { start, size, apkTaskId: taskId, state })
            }
            columns={columns}
            onReload={() => void task.refetch()}
            actions={(reload) =>
              data?.canManage === '1' && (
                <Button
                  danger
                  data-testid="apk-task-cancel"
                  onClick={() =>
                    confirm(
                      t('apkTask.cancelConfirm', { id: taskId }),
                      () => call(apk.cancelApkTask, { apkTaskId: taskId }),
                      reload,
                    )
                  }
                >
                  {t('apkTask.cancel')}
                </Button>
              )
            }
          />
        </div>
      )}
    </Modal>
  );
}

/**
 * The company's install tasks (of one version when given), newest first, each opening its panels.
 * Mounted while open, so that each opening reads the list anew.
 */
export function InstallTasksModal({ apkVersionId, onClose }: { apkVersionId?: number; onClose(): void }) {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState<number>();
  const list = useFilteredList<apk.ApkTask, undefined>(`apkTasks-${apkVersionId ?? 'all'}`, (start, size) =>
    call(apk.listApkTasks, { start, size, apkVersionId }),
  );
  useLiveTaskProgress(
    list.reload,
    list.rows.some((r) => r.canManage === '1'),
    'apk',
  );
  const columns: TableColumnsType<apk.ApkTask> = [
    { title: t('apkTask.id'), dataIndex: 'apkTaskId' },
    { title: t('apkTask.app'), key: 'app', render: (_, r) => `${r.packageName} ${r.versionName}` },
    { title: t('apkTask.targets'), dataIndex: 'target', render: (_, r) => t(`apkTask.target.${r.target}`) },
    { title: t('ota.task.operateMan'), dataIndex: 'operateMan' },
    { title: t('ota.task.state'), dataIndex: 'state', render: (_, r) => <TaskStateTag state={r.state} /> },
    {
      title: t('ota.task.progress'),
      key: 'progress',
      render: (_, r) => <TaskProgress {...countsOf(r.counts)} />,
    },
    { title: t('apkTask.created'), dataIndex: 'createDate', render: (_, r) => formatDateTime(r.createDate) },
    operationsColumn<apk.ApkTask>(t('lists.operations'), (r) => (
      <RowAction label={t('ota.task.view')} testId="apk-task-view" onClick={() => setViewing(r.apkTaskId)} />
    )),
  ];
  return (
    <Modal open width={1100} footer={null} destroyOnHidden onCancel={onClose} title={t('apkTask.listTitle')}>
      <div data-testid="apk-tasks">
        <Table<apk.ApkTask>
          rowKey="apkTaskId"
          size="small"
          columns={columns}
          dataSource={list.rows}
          loading={list.loading}
          pagination={list.pagination}
          scroll={{ x: 'max-content' }}
        />
      </div>
      <InstallTaskModal taskId={viewing} onClose={() => setViewing(undefined)} />
    </Modal>
  );
}
