import { useQuery } from '@tanstack/react-query';
import {
  accounts,
  alerts,
  allowedViews,
  auth,
  device,
  mayCall,
  webhooks,
  type Access,
  type ViewName,
} from '@panelfleet/contract';
import { call } from '../../api/client';
import { USER_TYPE_QUERY_KEY } from '../../app/queryClient';
import { useRuntimeConfig } from '../../app/RuntimeConfig';

/**
 * What the signed-in user may do on the alert screens. The server decides every call; this only
 * keeps actions it would refuse off the screen (the contract's access declarations).
 */
export interface AlertAccess {
  allowed: Set<ViewName>;
  acknowledge: boolean;
  clear: boolean;
  exportList: boolean;
  editRules: boolean;
  deleteRules: boolean;
  editWebhooks: boolean;
  deleteWebhooks: boolean;
  testWebhooks: boolean;
  rotateSecrets: boolean;
  redeliver: boolean;
  /** The organisation's labels (for a rule's scope). */
  readLabels: boolean;
  /** The organisation's users (as mail recipients). */
  readUsers: boolean;
}

export function useAlertAccess(): AlertAccess {
  const config = useRuntimeConfig();
  const session = useQuery({ queryKey: USER_TYPE_QUERY_KEY, queryFn: () => call(auth.userType, {}) });
  const user = session.data;
  const special = config.roleFlag === 1;
  const may = (access: Access) =>
    user !== undefined &&
    mayCall(access, { userType: user.userType, activated: user.state, programRole: 0 }, special);
  return {
    allowed: user ? allowedViews({ userType: user.userType, state: user.state }, { special }) : new Set(),
    acknowledge: may(alerts.acknowledgeAlerts.access),
    clear: may(alerts.clearAlerts.access),
    exportList: may(alerts.exportAlerts.access),
    editRules: may(alerts.saveAlertRule.access),
    deleteRules: may(alerts.deleteAlertRule.access),
    editWebhooks: may(webhooks.saveWebhook.access),
    deleteWebhooks: may(webhooks.deleteWebhook.access),
    testWebhooks: may(webhooks.testWebhook.access),
    rotateSecrets: may(webhooks.rotateWebhookSecret.access),
    redeliver: may(webhooks.redeliver.access),
    readLabels: may(device.listGroups.access),
    readUsers: may(accounts.userList.access),
  };
}
