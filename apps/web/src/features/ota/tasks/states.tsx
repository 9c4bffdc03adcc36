import { Progress, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TargetState, TaskState } from '@panelfleet/contract';
import { CONTRACT_NS } from '../../../i18n';

const TASK_COLORS: Record<TaskState, string> = {
  scheduled: 'purple',
  running: 'processing',
  paused: 'warning',
  completed: 'success',
  cancelled: 'default',
  missed: 'error',
};

export function TaskStateTag({ state, reason }: { state: TaskState; reason?: string }) {
  const { t } = useTranslation();
  const tag = (
    <Tag color={TASK_COLORS[state]} data-testid="task-state" data-state={state}>
      {t(`ota.task.states.${state}`)}
    </Tag>
  );
  return reason ? <Tooltip title={reason}>{tag}</Tooltip> : tag;
}

const TARGET_COLORS: Record<TargetState, string> = {
  queued: 'default',
  waiting: 'purple',
  sent: 'blue',
  downloading: 'processing',
  verifying: 'cyan',
  installing: 'geekblue',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'default',
  skipped: 'warning',
};

/** One panel's state in a task, with the reason of a skip, failure or cancel (ota.reason.<key>). */
export function TargetStateTag({
  state,
  reason,
  progress,
}: {
  state: TargetState;
  reason?: string;
  progress?: number | null;
}) {
  const { t } = useTranslation();
  const label =
    state === 'downloading' && progress !== null && progress !== undefined
      ? t('ota.task.downloadingPercent', { percent: progress })
      : t(`ota.task.targetStates.${state}`);
  return (
    <span data-testid="target-state" data-state={state}>
      <Tag color={TARGET_COLORS[state]}>{label}</Tag>
      {reason ? <span>{t(`ota.reason.${reason}`, { ns: CONTRACT_NS, defaultValue: reason })}</span> : null}
    </span>
  );
}

export interface TaskCounts {
  done: number;
  failed: number;
  total: number;
}

/** Finished share of a task: green for done (succeeded, skipped, cancelled), red for failed. */
export function TaskProgress({ done, failed, total }: TaskCounts) {
  const { t } = useTranslation();
  const finished = done + failed;
  const percent = total ? Math.floor((finished / total) * 100) : 0;
  return (
    <Tooltip title={t('ota.task.progressTip', { done, failed, total })}>
      <div
        style={{ minWidth: 120, width: '100%' }}
        data-testid="task-progress"
        data-done={done}
        data-failed={failed}
        data-total={total}
      >
        <Progress
          size="small"
          percent={percent}
          success={{ percent: total ? Math.floor((done / total) * 100) : 0 }}
          status={failed > 0 ? 'exception' : percent === 100 ? 'success' : 'active'}
          format={() => `${finished}/${total}`}
        />
      </div>
    </Tooltip>
  );
}

/** done/failed/total of a task's per-state counts, as the live events count them. */
export function countsOf(counts: Partial<Record<TargetState, number>>): TaskCounts {
  const n = (s: TargetState) => counts[s] ?? 0;
  const total = Object.values(counts).reduce<number>((sum, v) => sum + (v ?? 0), 0);
  return { done: n('succeeded') + n('skipped') + n('cancelled'), failed: n('failed'), total };
}
