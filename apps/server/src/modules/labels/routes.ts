import { device, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { LabelService } from './service.js';
import { parseStoredFilter } from '../label-membership/repository.js';

export function labelRoutes(
  router: Router,
  deps: { labels: LabelService; isOnline: (deviceKey: string) => boolean },
) {
  router.add(device.listGroups, async ({ session }) => {
    const rows = await deps.labels.listWithFilters(session.user.orgId);
    return {
      hhtStatus: 'success',
      listObject: rows.map((label) => {
        const filter = parseStoredFilter(label.filter);
        return {
          groupId: label.id,
          groupName: label.name,
          dynamic: label.filter !== null,
          filter: filter === 'broken' ? null : filter,
        };
      }),
      totalRecords: rows.length,
    };
  });

  router.add(device.insertGroup, async ({ session, params, ip }) => {
    const labelId = await deps.labels.create(session.user, ip, params.groupName);
    return { hhtStatus: 'success', dataObject: { groupId: labelId, groupName: params.groupName } };
  });

  router.add(device.saveDynamicGroup, async ({ session, params, ip }) => {
    const groupId = await deps.labels.saveDynamic(session.user, ip, params);
    return {
      hhtStatus: 'success',
      dataObject: { groupId, groupName: params.groupName, dynamic: true, filter: params.filter },
    };
  });

  router.add(device.countGroupFilter, async ({ session, params }) => {
    const count = await deps.labels.countMatching(session.user.orgId, params.filter);
    return { hhtStatus: 'success', dataObject: { count } };
  });

  router.add(device.saveGroupsAndDevices, async ({ session, params, ip, language }) => {
    await deps.labels.saveDevices(session.user, ip, params.deviceIds, params.groupIds);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'group.saved') };
  });

  router.add(device.selectByTag, async ({ session, params }) => {
    const { rows, total } = await deps.labels.devicePage(
      session.user,
      {
        labelIds: params.tags,
        start: params.start,
        size: params.size,
        machineTypeId: params.machineTypeId,
        otaFileId: params.otaFileId,
      },
      deps.isOnline,
    );
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });
}
