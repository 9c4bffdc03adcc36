import { Button, Modal, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { OPEN_TASK_STATES, ota, type TargetState } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { formatDateTime } from '../../../format/dateTime';
import { operationsColumn, RowAction } from '../../../lists/RowActions';
import { useConfirmAction } from '../../../lists/useConfirmAction';
import { TaskTargetsTable } from './TaskTargetsTable';
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
  const open = task !== undefined;
  const running = !!task && OPEN_TASK_STATES.includes(task.state);
  const steer = task?.canManage === '1' && task.deviceUpgradeState === '0';

  const columns: TableColumnsType<TaskDevice> = [
    { title: t('ota.task.versionCurrent'), dataIndex: 'otaVersionCurrent' },
    { title: t('ota.task.versionUpdate'), dataIndex: 'otaVersionUpdate' },
    { title: t('ota.task.wave'), dataIndex: 'wave', render: (_, r) => (r.wave === null ? '-' : r.wave + 1) },
  ];

  return (
    <Modal
      title={t('ota.task.manageTitle', {
        id: taskId ?? '',
        name: task ? `${task.fileName} (${task.otaVersion})` : '',
      })}
      open={open}
      onCancel={onClose}
      width={1000}
      destroyOnHidden
      footer={null}
    >
      {open && (
        <Targets
          task={task}
          steer={steer}
          running={running}
          columns={columns}
          confirm={confirm}
          onChanged={onChanged}
        />
      )}
    </Modal>
  );
}

function Targets({
  task,
  steer,
  running,
  columns,
  confirm,
  onChanged,
}: {
  task: ota.OtaTask;
  steer: boolean;
  running: boolean;
  columns: TableColumnsType<TaskDevice>;
  confirm: ReturnType<typeof useConfirmAction>;
  onChanged(): void;
}) {
  const { t } = useTranslation();
  const taskId = task.otaTaskId;
  const actions = useTaskActions(onChanged);
  return (
    <TaskTargetsTable<TaskDevice>
      name={`otaTaskDevices-${taskId}`}
      kind="ota"
      live={running}
      load={(start, size, state) => call(ota.listOtaTaskDevices, { start, size, otaTaskId: taskId, state })}
      columns={columns}
      onReload={onChanged}
      stateNote={(r) =>
        r.state === 'waiting' && r.notBefore
          ? t('ota.task.notBefore', { time: formatDateTime(r.notBefore) })
          : null
      }
      trailing={(reload) =>
        task.canManage === '1'
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
                      () => call(ota.cancelOtaTaskDevice, { otaTaskId: taskId, deviceId: r.deviceId }),
                      reload,
                    )
                  }
                />
              )),
            ]
          : []
      }
      actions={() =>
        task.canManage === '1' && (
          <Button
            danger
            disabled={!steer}
            data-testid="task-devices-cancel-all"
            onClick={() => actions.cancel(task)}
          >
            {t('ota.task.cancelAll')}
          </Button>
        )
      }
    />
  );
}
