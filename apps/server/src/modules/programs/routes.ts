import { programs, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import { ZIP_LIMITS } from './program-zip.js';
import type { ProgramZipService } from './zip-service.js';
import type { PublishService } from './publish-service.js';
import type { ProgramService } from './service.js';

const ok = { hhtStatus: 'success' } as const;

const PASS_MESSAGES: Record<programs.ProgramStatus, string> = {
  create: 'program.refused',
  submitApproval: 'program.submitted',
  approval1: 'program.passed',
  approval2: 'program.passed',
};

const drain = async (stream: AsyncIterable<unknown>) => {
  for await (const chunk of stream) void chunk;
};

export function programRoutes(
  router: Router,
  s: ProgramService,
  publishing: PublishService,
  zips: ProgramZipService,
) {
  router.add(programs.importZip, async ({ request, session, ip, language }) => {
    if (Number(request.headers['content-length'] ?? 0) > ZIP_LIMITS.uploadBytes + 64 * 1024)
      throw new Refusal('program.zipTooLarge', 'tooLarge');
    if (!request.isMultipart()) throw new Refusal('program.zipMissing', 'invalid');
    const part = await request.file({
      limits: { fileSize: ZIP_LIMITS.uploadBytes, files: 1 },
      throwFileSizeLimit: false,
    });
    if (!part) throw new Refusal('program.zipMissing', 'invalid');
    try {
      if (part.fieldname !== 'importZip') throw new Refusal('program.zipMissing', 'invalid');
      const imported = await zips.importZip(session.user, ip, part.filename, {
        stream: part.file,
        truncated: () => part.file.truncated,
      });
      return {
        ...ok,
        hhtMsg: translate(language, 'program.imported', { count: imported.materialCount }),
        dataObject: imported,
      };
    } finally {
      // Whatever was refused, the browser is still sending: read the rest so it gets the reply.
      await drain(part.file);
    }
  });
  router.add(programs.exportZip, async ({ session, params }) => ({
    ...ok,
    dataObject: { url: await zips.exportUrl(session.user.orgId, params.programId) },
  }));
  router.add(programs.programZip, async ({ session, params, reply }) => {
    const zip = await zips.zipOf(session.user.orgId, params.programId);
    reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${zip.name}"`)
      .header('cache-control', 'private, no-store');
    return zip.stream;
  });
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
  router.add(programs.cancelPublishTask, async ({ session, params, ip, language }) => {
    const cancelled = await publishing.cancel(session.user, ip, params.taskId);
    return {
      ...ok,
      hhtMsg: translate(language, 'program.cancelledTask', { count: cancelled }),
      dataObject: { cancelled },
    };
  });
  router.add(programs.cancelPublishDevice, async ({ session, params, ip, language }) => {
    await publishing.cancelDevice(session.user, ip, params.taskId, params.deviceId);
    return { ...ok, hhtMsg: translate(language, 'program.cancelledDevice') };
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
