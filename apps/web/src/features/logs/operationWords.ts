import { useTranslation } from 'react-i18next';
import { oplog } from '@panelfleet/contract';
import { CONTRACT_NS } from '../../i18n';

/**
 * The operation log's rows in the console's language: the type's name, and the content put into
 * words from its structured form (rows older than it show the text the server stored). A language
 * switch re-renders them without asking the server again.
 */
export function useOperationWords() {
  const { t } = useTranslation();
  const translate: oplog.Translate = (key, vars) => t(key, { ns: CONTRACT_NS, ...vars });
  return {
    typeOf: (code: string) => oplog.operationTypeText(code, translate),
    contentOf: (row: { content: string; detail: oplog.OperationContent | null }) =>
      row.detail ? oplog.operationText(row.detail, translate) : row.content,
  };
}
