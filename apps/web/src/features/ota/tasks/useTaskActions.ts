import { useTranslation } from 'react-i18next';
import { ota } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { useConfirmAction } from '../../../lists/useConfirmAction';

type Task = ota.OtaTask;

/** Pause, resume and cancel all, each after a confirmation (cancelling it shows the cancelled notice). */
export function useTaskActions(done: () => void) {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const name = (task: Task) => `#${task.otaTaskId} ${task.fileName} (${task.otaVersion})`;
  return {
    pause: (task: Task) =>
      confirm(
        t('ota.task.pauseConfirm', { name: name(task) }),
        () => call(ota.pauseOtaTask, { otaTaskId: task.otaTaskId }),
        done,
      ),
    resume: (task: Task) =>
      confirm(
        t('ota.task.resumeConfirm', { name: name(task) }),
        () => call(ota.resumeOtaTask, { otaTaskId: task.otaTaskId }),
        done,
      ),
    cancel: (task: Task) =>
      confirm(
        t('ota.task.cancelConfirm', { name: name(task) }),
        () => call(ota.cancelOtaTask, { otaTaskId: task.otaTaskId }),
        done,
      ),
  };
}
