import { device, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { MatchingCommandService } from './matching-service.js';
import type { OperatorCommandService } from './operator-service.js';

/** Error tips by code in a language; `describe` is filled in at wiring by the tips module. */
export interface ErrorTips {
  describe(codes: string[], language: string): Promise<Map<string, string>>;
}

export function commandRoutes(
  router: Router,
  service: OperatorCommandService,
  errorTips: ErrorTips,
  matching: MatchingCommandService,
) {
  router.add(device.sendCommandToMatching, async ({ session, params, ip, language }) => {
    const count = await matching.send(
      { user: session.user, ip },
      params.matching,
      params.order,
      params.value,
      params.idempotencyKey,
    );
    return { hhtStatus: 'success', hhtMsg: translate(language, 'command.sent'), dataObject: { count } };
  });

  router.add(device.sendCommandByDeviceId, async ({ session, params, ip, language }) => {
    const commandId = await service.sendToDevice(
      { user: session.user, ip },
      params.deviceId,
      params.order,
      params.value,
    );
    return { hhtStatus: 'success', hhtMsg: translate(language, 'command.sent'), dataObject: { commandId } };
  });

  router.add(device.sendPowerUpByDeviceId, async ({ session, params, ip, language }) => {
    const commandId = await service.powerUpDevice({ user: session.user, ip }, params.deviceId);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'command.sent'), dataObject: { commandId } };
  });

  router.add(device.sendCommandByTagIds, async ({ session, params, ip, language }) => {
    const count = await service.sendToLabels(
      { user: session.user, ip },
      params.tagIds,
      params.order,
      params.value,
      params.idempotencyKey,
    );
    return { hhtStatus: 'success', hhtMsg: translate(language, 'command.sent'), dataObject: { count } };
  });

  router.add(device.sendPowerUpByTagIds, async ({ session, params, ip, language }) => {
    const count = await service.powerUpLabels(
      { user: session.user, ip },
      params.tagIds,
      params.idempotencyKey,
    );
    return { hhtStatus: 'success', hhtMsg: translate(language, 'command.sent'), dataObject: { count } };
  });

  // A failed command shows the tip for its error code (the panel's detail) in the operator's language.
  router.add(device.listFeedback, async ({ session, params, language }) => {
    const { rows, total } = await service.feedback(session.user.orgId, params);
    const found = await errorTips.describe(
      rows.filter((r) => r.status === 'fail').map((r) => r.detail),
      language,
    );
    return {
      hhtStatus: 'success',
      listObject: rows.map((r) => ({ ...r, tip: r.status === 'fail' ? (found.get(r.detail) ?? '') : '' })),
      totalRecords: total,
    };
  });
}
