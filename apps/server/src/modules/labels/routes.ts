import { device, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import { requireDeviceOperator } from '../devices/policy.js';
import type { LabelService } from './service.js';

export function labelRoutes(router: Router, deps: { labels: LabelService; isOnline: (deviceKey: string) => boolean }) {
  router.add(device.listGroups, async ({ session }) => {
    const rows = await deps.labels.list(requireDeviceOperator(session.user));
    return { hhtStatus: 'success', listObject: rows.map((g) => ({ groupId: g.id, groupName: g.name })), totalRecords: rows.length };
  });

  router.add(device.insertGroup, async ({ session, params, ip }) => {
    requireDeviceOperator(session.user);
    const groupId = await deps.labels.create(session.user, ip, params.groupName);
    return { hhtStatus: 'success', dataObject: { groupId, groupName: params.groupName } };
  });

  router.add(device.saveGroupsAndDevices, async ({ session, params, ip, language }) => {
    requireDeviceOperator(session.user);
    await deps.labels.saveDevices(session.user, ip, params.deviceIds, params.groupIds);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'group.saved') };
  });

  router.add(device.selectByTag, async ({ session, params }) => {
    const { rows, total } = await deps.labels.devicePage(requireDeviceOperator(session.user), params, deps.isOnline);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });
}
