import { CONTRACT_NS } from '../../i18n';
import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/**
 * The operation log's words (the contract's `oplog` catalog: operation types, content sentences,
 * orders, settings fields) load with the screens that show the log, the operation log and the
 * reports, not with the shell.
 */
const operationWords = lazyCatalogs({
  'zh-CN': [
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/oplog.zh-CN.json'),
    },
  ],
  'en-US': [
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/oplog.en-US.json'),
    },
  ],
});

/** A screen module that shows operation-log rows: loads the words before the screen renders. */
export const withOperationWords = operationWords.withCatalogs;
