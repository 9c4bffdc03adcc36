import { deviceDetail, translate } from '@panelfleet/contract';
import { AppError } from '../../http/app-error.js';
import type { Router } from '../../http/router.js';
import { requireDeviceOperator } from '../devices/policy.js';
import type { DeviceAppsService } from './service.js';

export function deviceAppsRoutes(router: Router, service: DeviceAppsService) {
  router.add(deviceDetail.listDeviceApps, async ({ session, params }) => {
    const apps = await service.list(requireDeviceOperator(session.user), params.deviceId);
    return { hhtStatus: 'success', listObject: apps, totalRecords: apps.length };
  });

  router.add(deviceDetail.uninstallApk, async ({ session, params, ip, language }) => {
    requireDeviceOperator(session.user);
    const outcome = await service.uninstall({ user: session.user, ip }, params.deviceId, params.packageNames);
    if (outcome.kind === 'refused') throw new AppError('deviceManage.uninstallFailed', 200, { detail: outcome.detail });
    const confirmed = outcome.appList.every((a) => a.uninstallStatus);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, confirmed ? 'deviceManage.uninstallDone' : 'deviceManage.uninstallPending'),
      appList: outcome.appList,
    };
  });
}
