/**
 * Whether the "login timeout" modal is up. Opening is idempotent so that several requests
 * failing together still show one modal.
 */
type Listener = () => void;

let open = false;
const listeners = new Set<Listener>();

const set = (next: boolean) => {
  if (open === next) return;
  open = next;
  for (const listener of listeners) listener();
};

export const sessionExpiry = {
  open: () => set(true),
  close: () => set(false),
  isOpen: () => open,
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
