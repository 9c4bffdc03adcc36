/**
 * Failure notices the api client raised, waiting for the notice area (ReplyNotices) to show them:
 * that area is a chunk of its own, loaded with the first notice, so a page that never fails (the
 * sign-in page, usually) does not download antd's notifications and modals.
 */
/** Seconds a notice stays up. */
export const NOTICE_SECONDS = 3;

type Listener = () => void;

let pending: string[] = [];
const listeners = new Set<Listener>();

const changed = () => {
  for (const listener of listeners) listener();
};

export const failNotices = {
  push(message: string) {
    pending = [...pending, message];
    changed();
  },
  /** The notices not shown yet, in order; they are the caller's to show from now on. */
  take(): string[] {
    const taken = pending;
    if (!taken.length) return taken;
    pending = [];
    changed();
    return taken;
  },
  count: () => pending.length,
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
