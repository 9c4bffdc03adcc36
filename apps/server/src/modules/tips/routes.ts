import { tips, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { TipService } from './service.js';

export function tipRoutes(router: Router, service: TipService) {
  router.add(tips.listTips, async ({ params }) => {
    const { rows, total } = await service.listTips(params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });
  router.add(tips.addTips, async ({ session, params, ip, language }) => {
    const id = await service.addTip(session.user, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'errorTips.added'), dataObject: { id } };
  });
  router.add(tips.updateTips, async ({ session, params, ip, language }) => {
    await service.updateTip(session.user, params.id, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'errorTips.updated') };
  });
  router.add(tips.deleteTips, async ({ session, params, ip, language }) => {
    await service.deleteTip(session.user, params.id, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'errorTips.deleted') };
  });

  router.add(tips.listWarning, async ({ session, params }) => {
    const { rows, total } = await service.listWarnings(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });
  router.add(tips.addWarning, async ({ session, params, ip, language }) => {
    const warningId = await service.addWarning(session.user, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'warning.added'), dataObject: { warningId } };
  });
  router.add(tips.updateWarning, async ({ session, params, ip, language }) => {
    await service.updateWarning(session.user, params.warningId, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'warning.updated') };
  });
  router.add(tips.deleteWarning, async ({ session, params, ip, language }) => {
    await service.deleteWarning(session.user, params.warningId, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'warning.deleted') };
  });
  router.add(tips.listWarningMessage, async ({ session, params }) => {
    const { rows, total } = await service.listMessages(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });
  router.add(tips.addWarningMessage, async ({ session, params, ip, language }) => {
    const warningMessageId = await service.addMessage(session.user, params, ip);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, 'warning.added'),
      dataObject: { warningMessageId },
    };
  });
  router.add(tips.updateWarningMessage, async ({ session, params, ip, language }) => {
    await service.updateMessage(session.user, params.warningMessageId, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'warning.updated') };
  });
  router.add(tips.deleteWarningMessage, async ({ session, params, ip, language }) => {
    await service.deleteMessage(session.user, params.warningMessageId, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'warning.deleted') };
  });
}
