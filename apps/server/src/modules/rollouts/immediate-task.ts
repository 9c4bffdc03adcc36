import type { NewTask } from './task-creation-repository.js';

/** A wave number no task reaches: every panel of the task is in its first wave. */
export const ALL_IN_ONE_WAVE = 2_147_483_647;

/** What a task that goes to its panels at once says: who, what, to which labels or panels. */
export type ImmediateTask = Pick<
  NewTask,
  | 'orgId'
  | 'kind'
  | 'payloadId'
  | 'payload'
  | 'payloadLabel'
  | 'labelIds'
  | 'deviceIds'
  | 'createdBy'
  | 'createdByName'
  | 'now'
>;

/**
 * A task sent at once to every enabled panel of its labels or list, in one wave, never paused by
 * a failure share (app installs, program publishing; OTA tasks have their own schedule and waves).
 * Returns the task and its wave plan for RolloutRepository.createTask.
 */
export function immediateTask(task: ImmediateTask): [NewTask, { first: number; step: number }] {
  return [
    {
      ...task,
      deviceIds: task.deviceIds?.length ? task.deviceIds : undefined,
      skip: [{ reason: 'disabled', disabled: true }],
      timeEnable: false,
      fireAt: task.now,
      fireBy: null,
      waves: { mode: 'none' },
      successShare: 100,
      failureShare: 100,
      minResults: 1_000_000,
      maxDownloads: null,
    },
    { first: ALL_IN_ONE_WAVE, step: 1 },
  ];
}
