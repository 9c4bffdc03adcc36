import { apiTokens, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { ApiTokenService } from './service.js';

export function apiTokenRoutes(router: Router, tokens: ApiTokenService) {
  router.add(apiTokens.listTokens, async ({ session, language }) => {
    const list = await tokens.list(session.user);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, 'common.success'),
      listObject: list,
      totalRecords: list.length,
    };
  });
  router.add(apiTokens.createToken, async ({ params, session, ip, language }) => ({
    hhtStatus: 'success',
    hhtMsg: translate(language, 'apiToken.created'),
    dataObject: await tokens.create(session.user, ip, params),
  }));
  router.add(apiTokens.revokeToken, async ({ params, session, ip, language }) => {
    await tokens.revoke(session.user, ip, params.id);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'apiToken.revoked') };
  });
}
