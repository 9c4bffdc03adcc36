import { machineTypes, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { MachineTypeService } from './service.js';

export function machineTypeRoutes(router: Router, service: MachineTypeService) {
  router.add(machineTypes.listMachineTypes, async ({ session, params }) => {
    const { rows, total } = await service.list(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });

  router.add(machineTypes.selectByMachineTypeId, async ({ session, params }) => ({
    hhtStatus: 'success',
    dataObject: await service.one(session.user, params.machineTypeId),
  }));

  router.add(machineTypes.listInputSources, async ({ session }) => {
    const rows = await service.inputSources(session.user);
    return { hhtStatus: 'success', listObject: rows, totalRecords: rows.length };
  });

  router.add(machineTypes.sourcesOfMachineType, async ({ session, params }) => {
    const rows = await service.sourceOptions(session.user, params.machineTypeId);
    return { hhtStatus: 'success', listObject: rows, totalRecords: rows.length };
  });

  router.add(machineTypes.insertMachineType, async ({ session, params, ip, language }) => ({
    hhtStatus: 'success',
    hhtMsg: translate(language, 'machineType.added'),
    dataObject: { machineTypeId: await service.add(session.user, params, ip) },
  }));

  router.add(machineTypes.updateMachineType, async ({ session, params, ip, language }) => {
    await service.update(session.user, params.machineTypeId, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'machineType.updated') };
  });

  router.add(machineTypes.deleteMachineType, async ({ session, params, ip, language }) => {
    await service.delete(session.user, params.machineTypeId, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'machineType.deleted') };
  });
}
