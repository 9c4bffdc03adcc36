import { useState } from 'react';

/** Runs `reset` while rendering when the dialog opens, so it starts from the panel's current values. */
export function useResetOnOpen(open: boolean, reset: () => void) {
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) reset();
  }
}
