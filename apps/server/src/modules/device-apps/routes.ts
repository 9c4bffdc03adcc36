import { deviceDetail, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { DeviceAppsService } from './service.js';

export function deviceAppsRoutes(router: Router, service: DeviceAppsService) {
  router.add(deviceDetail.listDeviceApps, async ({ session, params }) => {
    const apps = await service.list(session.user.orgId, params.deviceId);
    return { hhtStatus: 'success', listObject: apps, totalRecords: apps.length };
  });

  router.add(deviceDetail.uninstallApk, async ({ session, params, ip, language }) => {
    const outcome = await service.uninstall({ user: session.user, ip }, params.deviceId, params.packageNames);
    const confirmed = outcome.appList.every((a) => a.uninstallStatus);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, confirmed ? 'deviceManage.uninstallDone' : 'deviceManage.uninstallPending'),
      appList: outcome.appList,
    };
  });

  router.add(deviceDetail.upgradeApk, async ({ session, params, ip, language }) => {
    const outcome = await service.upgrade({ user: session.user, ip }, params.deviceId, params.packageNames);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, 'apk.renewStarted', { names: outcome.names.join(', ') }),
      dataObject: { tasks: outcome.tasks },
    };
  });
}
