import type * as programs from '@panelfleet/contract/programs';

type Step = programs.ApprovalStep;

export interface ProgressItem {
  /** i18n key of the title. */
  title: string;
  step?: Step;
}

/**
 * How the approval-progress dialog shows a round (spec 2 section 4): no steps is a notice; a
 * last step refused (status 0) is an error at that step; a last pass by role "2" ends with an
 * extra "审批结束" step; any other last pass waits at the next level.
 */
export type ProgressView =
  | { kind: 'none' }
  | {
      kind: 'error' | 'end' | 'waiting';
      items: ProgressItem[];
      current: number;
      status: 'error' | 'finish' | 'process';
    };

export function progressView(steps: Step[]): ProgressView {
  const last = steps.at(-1);
  if (!last) return { kind: 'none' };
  const items: ProgressItem[] = steps.map((step) => ({ title: `programs.steps.roles.${step.role}`, step }));
  if (last.status === 0) return { kind: 'error', items, current: items.length - 1, status: 'error' };
  if (last.role === '2')
    return {
      kind: 'end',
      items: [...items, { title: 'programs.steps.end' }],
      current: items.length,
      status: 'finish',
    };
  const next = last.role === '0' ? 'programs.steps.waiting1' : 'programs.steps.waiting2';
  return { kind: 'waiting', items: [...items, { title: next }], current: items.length, status: 'process' };
}

/** The pass reason the dialog proposes (spec 2 section 4), by the program's current status. */
export function defaultPassReason(status: programs.ProgramStatus): string {
  if (status === 'submitApproval') return 'programs.reason.defaultPass1';
  if (status === 'approval1') return 'programs.reason.defaultPass2';
  return 'programs.reason.defaultPass';
}

/** What a user of a program role may do with a program in its status (the server decides again). */
export function allowedActions(role: string, status: programs.ProgramStatus) {
  const creator = role === '0';
  const approverTurn =
    (role === '1' && status === 'submitApproval') || (role === '2' && status === 'approval1');
  const editable = status === 'create' || status === 'approval2';
  return {
    edit: creator && editable,
    remove: creator && editable,
    submit: creator && status === 'create',
    publish: creator && status === 'approval2',
    pass: approverTurn,
    refuse: approverTurn,
  };
}
