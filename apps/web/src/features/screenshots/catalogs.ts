import { useEffect, useState } from 'react';
import { CONTRACT_NS } from '../../i18n';
import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/**
 * The screenshot screens' strings (the detail's Screen tab, the wall view, the labels page's
 * wall button) load with them, never with the sign-in page or the start-up strings.
 */
const catalogs = lazyCatalogs({
  'zh-CN': [
    { namespace: 'translation', load: () => import('./locales/screenshots.zh-CN.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/screenshots.zh-CN.json'),
    },
  ],
  'en-US': [
    { namespace: 'translation', load: () => import('./locales/screenshots.en-US.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/screenshots.en-US.json'),
    },
  ],
});

/** A screen module that needs the screenshot strings: loads both before the screen renders. */
export const withScreenshotCatalogs = catalogs.withCatalogs;

/** True once the screenshot strings are loaded (for a button on a screen that loads without them). */
export function useScreenshotCatalogs() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    catalogs.loadCatalogs().then(
      () => live && setReady(true),
      // A failed chunk load leaves the button out; the next visit tries again.
      () => live && setReady(false),
    );
    return () => {
      live = false;
    };
  }, []);
  return ready;
}
