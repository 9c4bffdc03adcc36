import { useQuery } from '@tanstack/react-query';
import { allowedViews, auth, type UserType, type ViewName } from '@panelfleet/contract';
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
  /** Force upgrade, cancel, pause, resume: the company's device operators (types 2 and 4). */
  operator: boolean;
  /** The OTA version catalog is written by the platform (type 0) only. */
  catalogEditor: boolean;
}

export function useOtaAccess(): OtaAccess {
  const config = useRuntimeConfig();
  const session = useQuery({ queryKey: USER_TYPE_QUERY_KEY, queryFn: () => call(auth.userType, {}) });
  const user = session.data;
  const allowed = user
    ? allowedViews({ userType: user.userType, state: user.state }, { special: config.roleFlag === 1 })
    : new Set<ViewName>();
  return {
    userType: user?.userType,
    allowed,
    operator: user?.userType === '2' || user?.userType === '4',
    catalogEditor: user?.userType === '0',
  };
}
