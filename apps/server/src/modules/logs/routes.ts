import { Readable } from 'node:stream';
import { logs, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { LogService } from './service.js';
import type { AbnormalLogUpload } from './upload.js';

export function logRoutes(router: Router, service: LogService, upload: AbnormalLogUpload) {
  router.add(logs.listOperationLog, async ({ session, params, language }) => {
    const { rows, total } = await service.operations(session.user.orgId, params, language);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });

  router.add(logs.listAbnormalLog, async ({ session, params }) => {
    const { rows, total } = await service.abnormal(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });

  router.add(logs.viewErrorLog, async ({ session, params }) => {
    const { text, ...page } = await service.view(session.user, params.id, params.page);
    return { hhtStatus: 'success', listObject: text, dataObject: page };
  });

  router.add(logs.downloadErrorLog, async ({ session, params, reply }) => {
    const { fileName, body } = await service.download(session.user, params.id);
    const safe = fileName.replace(/[^A-Za-z0-9._-]/g, '_');
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .header(
        'content-disposition',
        `attachment; filename="${safe}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      );
    return Readable.from(body);
  });

  router.add(logs.updateErrorLogStatus, async ({ session, params, ip, language }) => {
    await service.process(session.user, params.id, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'abnormalLog.processed') };
  });

  router.add(
    logs.uploadAbnormalLog,
    async ({ panel, params }) => {
      service.checkUpload(params);
      const stored = await upload(panel.deviceKey, params);
      return { hhtStatus: 'success', dataObject: { id: params.id, stored } };
    },
    // JSON escaping may double the text's bytes; the text itself is checked against 16 MiB.
    { bodyLimit: logs.MAX_LOG_UPLOAD_BODY_BYTES },
  );
}
