import { OTA_TTL_MS } from '../commands/service.js';
import type { Decision, RolloutKind } from '../rollouts/kind.js';
import type { TaskRecord } from '../rollouts/repository.js';
import type { Candidate } from '../rollouts/target-repository.js';

/**
 * Program publishing as a rollout kind: the command is `PROGRAM` with the playlist and the files
 * registered at publish (signed per panel when sent); every chosen panel goes. The task keeps
 * the value it was published with, so a later edit of the program does not change it.
 */
export class ProgramRolloutKind implements RolloutKind {
  readonly kind = 'program';
  readonly order = 'PROGRAM' as const;
  /** A cancelled panel stops downloading or playing (protocol 6.5). */
  readonly cancelOrder = 'PROGRAM_STOP' as const;
  /** A program plays on after `succeeded` until its play time is over (`finished`). */
  readonly runsOn = true;
  readonly ttlMs = OTA_TTL_MS;

  commandValue(task: TaskRecord) {
    return Promise.resolve((JSON.parse(task.payload) as { value: unknown }).value);
  }

  admit(_task: TaskRecord, candidates: Candidate[]): Promise<Map<number, Decision>> {
    return Promise.resolve(new Map(candidates.map((c) => [c.targetId, { go: true } as Decision])));
  }
}
