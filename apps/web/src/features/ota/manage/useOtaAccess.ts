import { useQuery } from '@tanstack/react-query';
import {
  allowedViews,
  apk,
  auth,
  mayCall,
  ota,
  type Access,
  type UserType,
  type ViewName,
} from '@panelfleet/contract';
import { call } from '../../../api/client';
import { USER_TYPE_QUERY_KEY } from '../../../app/queryClient';
import { useRuntimeConfig } from '../../../app/RuntimeConfig';

/**
 * What the signed-in user may do on the OTA screens. The server decides every call; this only
 * keeps actions that would be refused off the screen (docs/ota-console.md, "Who sees what").
 */
export interface OtaAccess {
  userType: UserType | undefined;
  /** Views this user may open (menu, tabs, header pages). */
  allowed: Set<ViewName>;
  /** Force upgrade, cancel, pause, resume: whoever the contract lets force an upgrade. */
  operator: boolean;
  /** Install an APK version on panels: whoever the contract lets install. */
  installer: boolean;
  /** The OTA version catalog: whoever the contract lets add versions. */
  catalogEditor: boolean;
}

export function useOtaAccess(): OtaAccess {
  const config = useRuntimeConfig();
  const session = useQuery({ queryKey: USER_TYPE_QUERY_KEY, queryFn: () => call(auth.userType, {}) });
  const user = session.data;
  const allowed = user
    ? allowedViews({ userType: user.userType, state: user.state }, { special: config.roleFlag === 1 })
    : new Set<ViewName>();
  // The contract's access declarations decide; a button that the server would refuse is not shown.
  const may = (access: Access) =>
    user !== undefined &&
    mayCall(
      access,
      { userType: user.userType, activated: user.state, programRole: 0 },
      config.roleFlag === 1,
    );
  return {
    userType: user?.userType,
    allowed,
    operator: may(ota.forceUpdate.access),
    installer: may(apk.installApk.access),
    catalogEditor: may(ota.insertOtaVersion.access),
  };
}
