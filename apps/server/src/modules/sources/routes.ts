import { sources, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { SourceService } from './service.js';

export function sourceRoutes(router: Router, service: SourceService) {
  router.add(sources.listSource, async ({ session, params }) => {
    const { rows, total } = await service.list(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });

  router.add(sources.addSource, async ({ session, params, ip, language }) => ({
    hhtStatus: 'success',
    hhtMsg: translate(language, 'source.added'),
    dataObject: await service.add(session.user, params, ip),
  }));

  router.add(sources.updateSource, async ({ session, params, ip, language }) => {
    await service.update(session.user, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'source.updated') };
  });

  router.add(sources.deleteSource, async ({ session, params, ip, language }) => {
    await service.delete(session.user, params.id, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'source.deleted') };
  });
}
