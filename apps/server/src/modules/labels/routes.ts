import { device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { AppError } from '../../http/app-error.js';
import type { Router } from '../../http/router.js';
import { requireDeviceOperator } from '../devices/policy.js';
import type { LabelRepository } from './repository.js';

export function labelRoutes(router: Router, deps: { labels: LabelRepository; clock: Clock }) {
  router.add(device.listGroups, async ({ session }) => {
    const rows = await deps.labels.list(requireDeviceOperator(session.user));
    return { hhtStatus: 'success', listObject: rows.map((g) => ({ groupId: g.id, groupName: g.name })), totalRecords: rows.length };
  });

  router.add(device.insertGroup, async ({ session, params }) => {
    const orgId = requireDeviceOperator(session.user);
    if (await deps.labels.findByName(orgId, params.groupName)) throw new AppError('group.nameTaken', 409);
    const groupId = await deps.labels.insert(orgId, params.groupName, deps.clock.now());
    return { hhtStatus: 'success', dataObject: { groupId, groupName: params.groupName } };
  });

  router.add(device.saveGroupsAndDevices, async ({ session, params }) => {
    await deps.labels.addDevices(requireDeviceOperator(session.user), params.groupIds, params.deviceIds);
    return { hhtStatus: 'success' };
  });
}
