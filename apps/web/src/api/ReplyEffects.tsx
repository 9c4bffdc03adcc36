import { lazy, Suspense, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { configureClient } from './client';
import { failNotices } from './failNotices';
import { sessionExpiry } from './sessionExpiry';

export { NOTICE_SECONDS } from './failNotices';

const ReplyNotices = lazy(() => import('./ReplyNotices'));

/**
 * Connects the api client to the router, the failure notices and the login-timeout modal. The
 * notices and the modal (ReplyNotices, with antd's notification and Modal) load with the first
 * notice or expiry, and stay.
 */
export function ReplyEffects() {
  const navigate = useNavigate();
  const waiting = useSyncExternalStore(failNotices.subscribe, failNotices.count);
  const expired = useSyncExternalStore(sessionExpiry.subscribe, sessionExpiry.isOpen);
  const needed = useRef(false);
  if (waiting > 0 || expired) needed.current = true;

  // A layout effect, so the effects are in place before any query starts fetching.
  useLayoutEffect(() => {
    configureClient({
      effects: {
        sessionExpired: sessionExpiry.open,
        fail: failNotices.push,
        navigate: (path) => navigate(path),
      },
    });
  }, [navigate]);

  if (!needed.current) return null;
  return (
    <Suspense fallback={null}>
      <ReplyNotices />
    </Suspense>
  );
}
