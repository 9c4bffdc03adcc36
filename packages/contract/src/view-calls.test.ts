import { describe, expect, it } from 'vitest';
import { mayCall, type Access } from './access.js';
import { allowedViews, USER_TYPES, type ViewName } from './menus.js';
import * as apk from './calls/apk.js';
import * as certificate from './calls/certificate.js';
import * as logs from './calls/logs.js';
import * as machineTypes from './calls/machine-types.js';
import * as ota from './calls/ota.js';
import * as otaRules from './calls/ota-rules.js';
import * as settings from './calls/settings.js';
import * as tips from './calls/tips.js';
import * as device from './device/calls.js';

/**
 * Issue 25 item 10: no screen that always fails. Every view a user may open (menu, tabs, header)
 * can read what it lists: the call that fills it lets that user in.
 */
const FILLED_BY: Partial<Record<ViewName, Access>> = {
  operationLog: logs.listOperationLog.access,
  abnormalLog: logs.listAbnormalLog.access,
  otaLog: ota.listOtaLog.access,
  renew: ota.listOtaTasks.access,
  otaVersion: ota.listOtaVersions.access,
  machineManage: machineTypes.listMachineTypes.access,
  upgradeTactics: otaRules.listOtaRules.access,
  apkRenew: apk.listApkCards.access,
  apk: apk.listApkCards.access,
  deviceManage: device.listDevices.access,
  Labels: device.listGroups.access,
  feedBack: device.listFeedback.access,
  setting: settings.listSetting.access,
  certificate: certificate.queryCertificate.access,
  errorMsg: tips.listTips.access,
  warningMsg: tips.listWarning.access,
};

describe('the views a user may open', () => {
  it('are filled by calls that user may make', () => {
    const refused: string[] = [];
    // The special deployment signs in its OTA staff (type 1) only; only a company account (type 2)
    // signs in before it is activated.
    for (const special of [false, true])
      for (const userType of USER_TYPES.filter((type) => !special || type === '1'))
        for (const state of userType === '2' ? ([0, 1] as const) : ([1] as const))
          for (const view of allowedViews({ userType, state }, { special })) {
            const access = FILLED_BY[view];
            if (access && !mayCall(access, { userType, activated: state, programRole: 0 }, special))
              refused.push(`type ${userType} state ${state}${special ? ' special' : ''}: ${view}`);
          }
    expect(refused).toEqual([]);
  });
});
