import { device, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { DeviceEditService } from './edit-service.js';
import type { DeviceListService } from './list-service.js';
import { requireDeviceOperator } from './policy.js';
import type { DeviceService } from './service.js';

export interface DeviceRouteDeps {
  devices: DeviceService;
  list: DeviceListService;
  edit: DeviceEditService;
  isOnline: (deviceKey: string) => boolean;
}

export function deviceRoutes(router: Router, deps: DeviceRouteDeps) {
  router.add(device.enroll, async ({ params }) => ({ hhtStatus: 'success', dataObject: await deps.devices.enroll(params) }));

  router.add(device.getEnrollmentSecret, async ({ session }) => ({
    hhtStatus: 'success',
    dataObject: await deps.devices.enrollmentSecret(requireDeviceOperator(session.user)),
  }));

  router.add(device.rotateEnrollmentSecret, async ({ session }) => ({
    hhtStatus: 'success',
    dataObject: await deps.devices.rotateEnrollmentSecret(requireDeviceOperator(session.user)),
  }));

  router.add(device.listDevices, async ({ session, params }) => {
    const page = await deps.list.page(requireDeviceOperator(session.user), params, deps.isOnline);
    return { hhtStatus: 'success', listObject: page.rows, totalRecords: page.total, ...(page.cursor ? { cursor: page.cursor } : {}) };
  });

  router.add(device.listIsOnlineByDeviceKey, async ({ session, params }) => {
    const asked = params.deviceKeyList.split(',').map((k) => k.trim()).filter((k) => device.DEVICE_KEY_PATTERN.test(k)).slice(0, 1000);
    const keys = await deps.devices.ownedKeys(requireDeviceOperator(session.user), asked);
    const listObject = keys.map((deviceKey) => ({ deviceKey, isOnline: deps.isOnline(deviceKey) ? ('1' as const) : ('0' as const) }));
    return { hhtStatus: 'success', listObject, totalRecords: listObject.length };
  });

  router.add(device.updateDevice, async ({ session, params, ip, language }) => {
    requireDeviceOperator(session.user);
    await deps.edit.update(session.user, ip, params);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'deviceManage.updated') };
  });
}
