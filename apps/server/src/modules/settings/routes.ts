import { settings, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { MatchingPushService } from './matching-push.js';
import type { SettingsService } from './service.js';

export function settingsRoutes(router: Router, service: SettingsService, matching: MatchingPushService) {
  router.add(settings.listSetting, async ({ session, params }) => {
    const { rows, total } = await service.list(session.user.orgId, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });

  router.add(settings.addSetting, async ({ session, params, ip, language }) => {
    const row = await service.add({ user: session.user, ip }, params);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, 'settingTemplate.added'),
      id: row.id,
      dataObject: row,
    };
  });

  router.add(settings.updateSetting, async ({ session, params, ip, language }) => {
    const row = await service.update({ user: session.user, ip }, params.id, params.jsonData);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'settingTemplate.saved'), dataObject: row };
  });

  router.add(settings.deleteSetting, async ({ session, params, ip, language }) => {
    await service.remove({ user: session.user, ip }, params.id);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'settingTemplate.deleted') };
  });

  const pushed = (language: Parameters<typeof translate>[0], result: { pushId: number; count: number }) => ({
    hhtStatus: 'success' as const,
    hhtMsg: translate(language, 'settingTemplate.pushed', { count: result.count }),
    dataObject: result,
  });

  router.add(settings.sendSetting, async ({ session, params, ip, language }) => {
    const caller = { user: session.user, ip };
    return pushed(
      language,
      params.matching
        ? await matching.push(caller, '0', params.id, params.matching)
        : await service.pushSaved(caller, '0', params.id, params.deviceIds ?? []),
    );
  });

  router.add(settings.sendSourceSetting, async ({ session, params, ip, language }) => {
    const caller = { user: session.user, ip };
    return pushed(
      language,
      params.matching
        ? await matching.push(caller, '1', params.id, params.matching)
        : await service.pushSaved(caller, '1', params.id, params.deviceIds ?? []),
    );
  });

  router.add(settings.sendSettingsToDevice, async ({ session, params, ip, language }) =>
    pushed(language, await service.pushToDevice({ user: session.user, ip }, params.deviceId, params.ids)),
  );

  router.add(settings.updateDeviceSourceSetting, async ({ session, params, ip, language }) =>
    pushed(
      language,
      await service.pushPicture(
        { user: session.user, ip },
        params.deviceId,
        params.sourceType,
        params.jsonData,
      ),
    ),
  );

  router.add(settings.selectSettingPush, async ({ session, params }) => {
    const result = await service.pushResults(session.user.orgId, params.pushId, params.start, params.size);
    return {
      hhtStatus: 'success',
      listObject: result.rows,
      totalRecords: result.total,
      counts: result.counts,
      expiresAt: result.expiresAt,
    };
  });

  router.add(settings.cancelSettingPush, async ({ session, params, ip, language }) => {
    const cancelled = await service.cancelPush({ user: session.user, ip }, params.pushId);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, 'settingTemplate.cancelled', { count: cancelled }),
      dataObject: { cancelled },
    };
  });

  router.add(settings.listDeviceSourceSetting, async ({ session, params }) => {
    const result = await service.devicePictures(session.user.orgId, params.deviceId);
    return {
      hhtStatus: 'success',
      listObject: result.rows,
      totalRecords: result.rows.length,
      series: result.series,
      system: result.system,
    };
  });
}
