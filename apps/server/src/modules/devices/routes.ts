import { device, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { DeviceEditService } from './edit-service.js';
import type { EnrollmentService } from './enrollment-service.js';
import type { DeviceListService } from './list-service.js';
import type { DeviceService } from './service.js';

export interface DeviceRouteDeps {
  enrollment: EnrollmentService;
  devices: DeviceService;
  list: DeviceListService;
  edit: DeviceEditService;
  isOnline: (deviceKey: string) => boolean;
}

export function deviceRoutes(router: Router, deps: DeviceRouteDeps) {
  router.add(device.enroll, async ({ params }) => ({
    hhtStatus: 'success',
    dataObject: await deps.enrollment.enroll(params),
  }));

  router.add(device.getEnrollmentSecret, async ({ session }) => ({
    hhtStatus: 'success',
    dataObject: await deps.devices.enrollmentSecret(session.user.orgId),
  }));

  router.add(device.rotateEnrollmentSecret, async ({ session }) => ({
    hhtStatus: 'success',
    dataObject: await deps.devices.rotateEnrollmentSecret(session.user.orgId),
  }));

  router.add(device.listDevices, async ({ session, params }) => {
    const page = await deps.list.page(session.user.orgId, params, deps.isOnline);
    return {
      hhtStatus: 'success',
      listObject: page.rows,
      totalRecords: page.total,
      ...(page.cursor ? { cursor: page.cursor } : {}),
      ...(page.totalCapped ? { totalCapped: true } : {}),
    };
  });

  router.add(device.listIsOnlineByDeviceKey, async ({ session, params }) => {
    const asked = params.deviceKeyList
      .split(',')
      .map((k) => k.trim())
      .filter((k) => device.DEVICE_KEY_PATTERN.test(k))
      .slice(0, 1000);
    const keys = await deps.devices.ownedKeys(session.user.orgId, asked);
    const listObject = keys.map((deviceKey) => ({
      deviceKey,
      isOnline: deps.isOnline(deviceKey) ? ('1' as const) : ('0' as const),
    }));
    return { hhtStatus: 'success', listObject, totalRecords: listObject.length };
  });

  router.add(device.updateDevice, async ({ session, params, ip, language }) => {
    await deps.edit.update(session.user, ip, {
      deviceId: params.deviceId,
      deviceName: params.deviceName,
      deviceKey: params.deviceKey,
      labelNames: params.tag,
      remark: params.remark,
      location: params.location,
      state: params.state,
    });
    return { hhtStatus: 'success', hhtMsg: translate(language, 'deviceManage.updated') };
  });

  router.add(device.removeDevice, async ({ session, params, ip, language }) => {
    const keep = params.keepHistory === '1';
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, keep ? 'deviceManage.removed' : 'deviceManage.removedWithHistory'),
      dataObject: await deps.edit.remove(session.user, ip, params.deviceId, keep),
    };
  });
}
