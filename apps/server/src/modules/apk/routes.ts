import { apk, apkReplaced } from '@panelfleet/contract';
import { Refusal } from '../../refusal.js';
import type { Router } from '../../http/router.js';
import type { ApkInstallService } from './install-service.js';
import type { ApkService } from './service.js';

const ok = { hhtStatus: 'success' } as const;

export function apkRoutes(router: Router, s: ApkService, installs: ApkInstallService) {
  router.add(apk.listApkCards, async ({ session, params }) => {
    const { rows, total } = await s.list(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(apk.apkDetails, async ({ session, params }) => {
    const { card, rows, total } = await s.details(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total, dataObject: card };
  });
  router.add(apk.uploadApk, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: await s.upload(session.user, ip, params),
  }));
  router.add(apk.uploadNewApkVersion, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: await s.uploadVersion(session.user, ip, params),
  }));
  router.add(apk.uploadApkFileSub, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: { apkFileSubId: await s.uploadSub(session.user, ip, params) },
  }));
  router.add(apk.deleteApkFileSub, async ({ session, params, ip }) => {
    await s.deleteSub(session.user, ip, params.apkFileSubId);
    return ok;
  });
  router.add(apk.updateApkRemark, async ({ session, params, ip }) => {
    await s.updateRemark(session.user, ip, params.apkVersionId, params.remark);
    return ok;
  });
  router.add(apk.deleteApkVersion, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: { cardDeleted: (await s.deleteVersion(session.user, ip, params.apkVersionId)) ? '1' : '0' },
  }));
  router.add(apk.installApk, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: await installs.install(session.user, ip, params),
  }));
  router.add(apk.listApkTasks, async ({ session, params }) => {
    const { rows, total } = await installs.list(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(apk.getApkTask, async ({ session, params }) => ({
    ...ok,
    dataObject: await installs.one(session.user, params.apkTaskId),
  }));
  router.add(apk.listApkTaskDevices, async ({ session, params }) => {
    const { rows, total } = await installs.devices(session.user, params);
    return { ...ok, listObject: rows, totalRecords: total };
  });
  router.add(apk.cancelApkTask, async ({ session, params, ip }) => ({
    ...ok,
    dataObject: { cancelled: await installs.cancel(session.user, ip, params.apkTaskId) },
  }));
  router.add(apk.apkIcon, async ({ session, params, reply }) => {
    const content = await s.icon(session.user, params.kind, params.id);
    reply.type('image/png').header('cache-control', 'private, max-age=86400');
    return content;
  });

  // The calls spec 3 leaves to documents that do not describe them: a refusal naming the call to use.
  for (const call of [
    apkReplaced.apkFileUpload,
    apkReplaced.apkFileDelete,
    apkReplaced.apkFileDownload,
    apkReplaced.sendUpdateApk,
  ])
    router.add(call, () => {
      throw new Refusal('apk.callReplaced', 'gone', {
        call: call.path,
        use: apkReplaced.REPLACED_APK_CALLS[call.path as keyof typeof apkReplaced.REPLACED_APK_CALLS],
      });
    });
}
