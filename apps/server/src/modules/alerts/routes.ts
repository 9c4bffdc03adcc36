import { PassThrough } from 'node:stream';
import { alerts } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import type { Router } from '../../http/router.js';
import { writeAlertWorkbook } from './export.js';
import type { AlertRuleService } from './rule-service.js';
import type { AlertService } from './service.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function alertRoutes(
  router: Router,
  rules: AlertRuleService,
  service: AlertService,
  clock: Clock,
  seen: (userId: number, language: string) => void,
) {
  router.add(alerts.listAlertRules, async ({ session, params }) => {
    // `start` is the 1-based page, as every list call of the console sends it.
    const { rows, total } = await rules.page(
      session.user,
      pageOffset(params.start, params.size),
      params.size,
    );
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });
  router.add(alerts.saveAlertRule, async ({ session, params, language, ip }) => ({
    hhtStatus: 'success',
    dataObject: await rules.save(session.user, params, language, ip),
  }));
  router.add(alerts.deleteAlertRule, async ({ session, params, ip }) => {
    await rules.delete(session.user, params.id, ip);
    return { hhtStatus: 'success' };
  });
  router.add(alerts.listAlerts, async ({ session, params }) => {
    const { start, size, ...filter } = params;
    const { rows, total } = await service.page(session.user, filter, pageOffset(start, size), size);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });
  router.add(alerts.countAlerts, async ({ session, language }) => {
    seen(session.user.id, language);
    return { hhtStatus: 'success', dataObject: await service.counts(session.user) };
  });
  router.add(alerts.acknowledgeAlerts, async ({ session, params, ip }) => ({
    hhtStatus: 'success',
    dataObject: { changed: await service.acknowledge(session.user, params.ids, params.note, ip) },
  }));
  router.add(alerts.clearAlerts, async ({ session, params, ip }) => ({
    hhtStatus: 'success',
    dataObject: { changed: await service.clear(session.user, params.ids, ip) },
  }));
  router.add(alerts.exportAlerts, async ({ session, params, language, request, reply }) => {
    const reach = await service.reach(session.user);
    const now = clock.now();
    const out = new PassThrough();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) out.destroy();
    });
    writeAlertWorkbook(language, session.user.userName, now, service.exportRows(reach, params), out).catch(
      (err: unknown) => {
        request.log.error({ err }, 'alert export failed');
        out.destroy(err instanceof Error ? err : new Error(String(err)));
      },
    );
    const name = `alerts-${new Date(now).toISOString().slice(0, 10)}.xlsx`;
    reply.header('cache-control', 'private, no-store');
    reply.type(XLSX).header('content-disposition', `attachment; filename="${name}"`);
    return out;
  });
}
