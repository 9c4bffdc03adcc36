import { useState } from 'react';
import { Button, Modal, Select, Space, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { OPEN_TASK_STATES, ota, TARGET_STATES, type TargetState } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { formatDateTime } from '../../../format/dateTime';
import { operationsColumn, RowAction } from '../../../lists/RowActions';
import { OnlineTag } from '../../../lists/StatusTags';
import { useConfirmAction } from '../../../lists/useConfirmAction';
import { useFilteredList } from '../../../lists/usePagedList';
import { TargetStateTag } from './states';
import { useLiveTaskProgress } from './useLiveProgress';
import { useTaskActions } from './useTaskActions';

type TaskDevice = ReturnType<typeof ota.otaTaskDevice.parse>;

/** A panel can still be cancelled until it verifies or installs. */
const CANCELLABLE: readonly TargetState[] = ['queued', 'waiting', 'sent', 'downloading'];

/** The manage dialog: each panel of a task with its state, filtered by state; cancel all or one. */
export function TaskDevicesModal({
  task,
  onClose,
  onChanged,
}: {
  task: ota.OtaTask | undefined;
  onClose(): void;
  onChanged(): void;
}) {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const taskId = task?.otaTaskId;
  const [state, setState] = useState<TargetState>();
  const list = useFilteredList<TaskDevice, TargetState | undefined>(
    `otaTaskDevices-${taskId ?? 0}`,
    (start, size, filter) =>
      taskId
        ? call(ota.listOtaTaskDevices, { start, size, otaTaskId: taskId, state: filter })
        : Promise.resolve({ listObject: [], totalRecords: 0 }),
  );
  const open = task !== undefined;
  const running = !!task && OPEN_TASK_STATES.includes(task.state);
  useLiveTaskProgress(list.reload, open && running);
  const changed = () => {
    list.reload();
    onChanged();
  };
  const actions = useTaskActions(changed);
  const steer = task?.canManage === '1' && task.deviceUpgradeState === '0';

  const columns: TableColumnsType<TaskDevice> = [
    { title: t('ota.task.deviceName'), dataIndex: 'deviceName' },
    { title: t('ota.task.deviceKey'), dataIndex: 'deviceKey' },
    {
      title: t('lists.onlineState'),
      dataIndex: 'isOnline',
      render: (_, r) => <OnlineTag online={r.isOnline === '1' ? 1 : 0} />,
    },
    { title: t('ota.task.versionCurrent'), dataIndex: 'otaVersionCurrent' },
    { title: t('ota.task.versionUpdate'), dataIndex: 'otaVersionUpdate' },
    { title: t('ota.task.wave'), dataIndex: 'wave', render: (_, r) => r.wave + 1 },
    {
      title: t('ota.task.state'),
      dataIndex: 'state',
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <TargetStateTag state={r.state} reason={r.reason} progress={r.progress} />
          {r.state === 'waiting' && r.notBefore
            ? t('ota.task.notBefore', { time: formatDateTime(r.notBefore) })
            : null}
        </Space>
      ),
    },
    {
      title: t('ota.task.lastUpdateDate'),
      dataIndex: 'updatedAt',
      render: (_, r) => formatDateTime(r.updatedAt),
    },
    ...(task?.canManage === '1'
      ? [
          operationsColumn<TaskDevice>(t('lists.operations'), (r) => (
            <RowAction
              label={t('ota.task.cancelOne')}
              testId="task-device-cancel"
              danger
              disabled={!steer || !CANCELLABLE.includes(r.state)}
              onClick={() =>
                confirm(
                  t('ota.task.cancelOneConfirm', { name: r.deviceName || r.deviceKey }),
                  () => call(ota.cancelOtaTaskDevice, { otaTaskId: taskId!, deviceId: r.deviceId }),
                  changed,
                )
              }
            />
          )),
        ]
      : []),
  ];

  return (
    <Modal
      title={t('ota.task.manageTitle', {
        id: taskId ?? '',
        name: task ? `${task.fileName} (${task.otaVersion})` : '',
      })}
      open={open}
      onCancel={() => {
        setState(undefined);
        onClose();
      }}
      width={1000}
      destroyOnHidden
      footer={null}
    >
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
          <Button onClick={list.reload} data-testid="task-devices-refresh">
            {t('lists.refresh')}
          </Button>
          {task?.canManage === '1' && (
            <Button
              danger
              disabled={!steer}
              data-testid="task-devices-cancel-all"
              onClick={() => task && actions.cancel(task)}
            >
              {t('ota.task.cancelAll')}
            </Button>
          )}
        </Space>
        <Table<TaskDevice>
          rowKey="deviceId"
          size="small"
          columns={columns}
          dataSource={list.rows}
          loading={list.loading}
          pagination={list.pagination}
          scroll={{ x: 'max-content' }}
        />
      </div>
    </Modal>
  );
}
