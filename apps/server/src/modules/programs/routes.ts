import { programs, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { PublishService } from './publish-service.js';
import type { ProgramService } from './service.js';

const ok = { hhtStatus: 'success' } as const;

const PASS_MESSAGES: Record<programs.ProgramStatus, string> = {
  create: 'program.refused',
  submitApproval: 'program.submitted',
  approval1: 'program.passed',
  approval2: 'program.passed',
};

export function programRoutes(router: Router, s: ProgramService, publishing: PublishService) {
  router.add(programs.publishProgram, async ({ session, params, ip, language }) => {
    const published = await publishing.publish(session.user, ip, params);
    return {
      ...ok,
      hhtMsg: translate(language, 'program.published', {
        count: published.deviceCount - published.skippedCount,
      }),
      dataObject: published,
    };
  });
  router.add(programs.listPublishTasks, async ({ session, params }) => {
    const tasks = await publishing.tasks(session.user.orgId, params.programId);
    return { ...ok, listObject: tasks, totalRecords: tasks.length };
  });
  router.add(programs.listPublishTargets, async ({ session, params }) => {
    const { list, total } = await publishing.targets(session.user.orgId, params);
    return { ...ok, listObject: list, totalRecords: total };
  });
  router.add(programs.listPrograms, async ({ session, params }) => {
    const { list, total } = await s.page(session.user.orgId, params);
    return { ...ok, listObject: list, totalRecords: total };
  });
  router.add(programs.insertProgram, async ({ session, params, ip, language }) => ({
    ...ok,
    hhtMsg: translate(language, 'program.inserted'),
    dataObject: { programId: await s.create(session.user, ip, params) },
  }));
  router.add(programs.updateProgram, async ({ session, params, ip, language }) => {
    const again = await s.update(session.user, ip, params.programId, params);
    return { ...ok, hhtMsg: translate(language, again ? 'program.updatedNeedsApproval' : 'program.updated') };
  });
  router.add(programs.deleteProgram, async ({ session, params, ip, language }) => {
    await s.remove(session.user, ip, params.programId);
    return { ...ok, hhtMsg: translate(language, 'program.deleted') };
  });
  router.add(programs.listApproval, async ({ session, params }) => {
    const steps = await s.steps(session.user.orgId, params.programId);
    return { ...ok, listObject: steps, totalRecords: steps.length };
  });
  router.add(programs.approvalProcess, async ({ session, params, ip, language }) => {
    const status = await s.act(session.user, ip, params.programId, params.status, params.reason);
    return { ...ok, hhtMsg: translate(language, PASS_MESSAGES[status]), dataObject: { status } };
  });
}
