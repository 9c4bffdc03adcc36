import { device, deviceDetail, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { DeviceDetailService } from './service.js';

export function deviceDetailRoutes(router: Router, service: DeviceDetailService) {
  router.add(deviceDetail.selectByDeviceId, async ({ session, params }) => ({
    hhtStatus: 'success',
    dataObject: await service.detail(session.user.orgId, params.deviceId),
  }));

  router.add(deviceDetail.listDeviceSetting, async ({ session, params }) => {
    const { platform, rows } = await service.settings(session.user.orgId, params.deviceId);
    return { hhtStatus: 'success', platform, listObject: rows, totalRecords: rows.length };
  });

  router.add(deviceDetail.updateDeviceSetting, async ({ session, params, ip, language }) => {
    const commandId = await service.change(
      { user: session.user, ip, language },
      params.deviceId,
      params.jsonData,
    );
    return { hhtStatus: 'success', hhtMsg: translate(language, 'setting.sent'), dataObject: { commandId } };
  });

  router.add(deviceDetail.sendDeviceSettings, async ({ session, params, ip, language }) => {
    const { count, message } = await service.clone(
      { user: session.user, ip, language },
      params.deviceSettingIds,
      device.selectionOf(params),
    );
    return { hhtStatus: 'success', hhtMsg: message, dataObject: { count } };
  });
}
