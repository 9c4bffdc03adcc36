import { device } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import { reachOf, type MatchingDevices } from './matching-repository.js';

/** "All N matching": how many panels a bulk action to the list's filter reaches, counted exactly. */
export function deviceMatchingRoutes(router: Router, matching: MatchingDevices) {
  router.add(device.countMatchingDevices, async ({ session, params }) => ({
    hhtStatus: 'success',
    dataObject: await matching.count(reachOf(session.user), {
      deviceName: params.deviceName ?? '',
      ...(params.tagIds?.length ? { tagIds: params.tagIds } : {}),
    }),
  }));
}
