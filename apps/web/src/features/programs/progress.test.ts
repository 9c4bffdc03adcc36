import { describe, expect, it } from 'vitest';
import { allowedActions, defaultPassReason, progressView } from './progress';

const step = (role: string, status: number) => ({
  id: Number(role) + 1,
  userName: `u${role}`,
  addTime: 1_700_000_000_000,
  reason: 'r',
  status,
  role,
});

describe('approval progress display (spec 2 section 4)', () => {
  it('asks for a submission first when there are no steps', () => {
    expect(progressView([])).toEqual({ kind: 'none' });
  });

  it('shows an error at a refused last step', () => {
    const view = progressView([step('0', 1), step('1', 1), step('2', 0)]);
    expect(view).toMatchObject({ kind: 'error', status: 'error', current: 2 });
    if (view.kind !== 'none') expect(view.items).toHaveLength(3);
  });

  it('ends with an extra 审批结束 step after a pass by role 2', () => {
    const view = progressView([step('0', 1), step('1', 1), step('2', 1)]);
    expect(view).toMatchObject({ kind: 'end', status: 'finish', current: 3 });
    if (view.kind !== 'none') expect(view.items.at(-1)!.title).toBe('programs.steps.end');
  });

  it('waits at the next level after a submission or a level-1 pass', () => {
    const submitted = progressView([step('0', 1)]);
    expect(submitted).toMatchObject({ kind: 'waiting', status: 'process', current: 1 });
    if (submitted.kind !== 'none') expect(submitted.items.at(-1)!.title).toBe('programs.steps.waiting1');
    const passed = progressView([step('0', 1), step('1', 1)]);
    if (passed.kind !== 'none') expect(passed.items.at(-1)!.title).toBe('programs.steps.waiting2');
  });

  it('proposes the pass reasons of the spec by status', () => {
    expect(defaultPassReason('submitApproval')).toBe('programs.reason.defaultPass1');
    expect(defaultPassReason('approval1')).toBe('programs.reason.defaultPass2');
    expect(defaultPassReason('create')).toBe('programs.reason.defaultPass');
  });

  it('offers each role only its own steps', () => {
    expect(allowedActions('0', 'create')).toMatchObject({
      edit: true,
      submit: true,
      pass: false,
      publish: false,
    });
    expect(allowedActions('0', 'submitApproval')).toMatchObject({
      edit: false,
      remove: false,
      submit: false,
    });
    expect(allowedActions('1', 'submitApproval')).toMatchObject({ pass: true, refuse: true, edit: false });
    expect(allowedActions('2', 'submitApproval')).toMatchObject({ pass: false });
    expect(allowedActions('2', 'approval1')).toMatchObject({ pass: true });
    expect(allowedActions('0', 'approval2')).toMatchObject({ publish: true, edit: true, submit: false });
  });
});
