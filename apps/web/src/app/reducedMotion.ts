import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

const reduced = () => window.matchMedia(QUERY).matches;

/**
 * Whether the operator's system asks for less motion (an accessibility setting): the console then
 * opens dialogs, menus and messages without their zoom and slide animations.
 */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, reduced, () => false);
}
