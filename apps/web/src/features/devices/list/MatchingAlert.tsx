import { Alert, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AllMatchingState } from './useAllMatching';

/**
 * Above the device table: once the whole page is ticked, the offer to choose every panel matching
 * the filter (the server's count); once chosen, what is chosen and how to clear it.
 */
export function MatchingAlert({
  state,
  filter,
  pageCount,
  pageChosen,
  onClear,
}: {
  state: AllMatchingState;
  filter: string | undefined;
  pageCount: number;
  pageChosen: boolean;
  onClear(): void;
}) {
  const { t } = useTranslation();
  const { all, counted } = state;
  if (!all && !pageChosen) return null;
  const vars = { count: counted?.count ?? 0, filter: filter ?? '' };
  const clear = (
    <Button type="link" size="small" data-testid="all-matching-clear" onClick={onClear}>
      {t('allMatching.clear')}
    </Button>
  );
  const message = all ? (
    <Space wrap size={4}>
      <Typography.Text strong data-testid="all-matching-chosen" data-count={counted?.count ?? ''}>
        {t(filter ? 'allMatching.allChosen' : 'allMatching.allChosenNoFilter', vars)}
      </Typography.Text>
      {counted?.disabled ? (
        <span>{t('allMatching.disabledLeftOut', { count: counted.disabled })}</span>
      ) : null}
      <Typography.Text type="secondary">{t('allMatching.atAction')}</Typography.Text>
      {clear}
    </Space>
  ) : (
    <Space wrap size={4}>
      <span>{t('allMatching.pageChosen', { count: pageCount })}</span>
      {counted && counted.count > pageCount && (
        <Button
          type="link"
          size="small"
          data-testid="all-matching-choose"
          data-count={counted.count}
          onClick={state.chooseAll}
        >
          {t(filter ? 'allMatching.chooseAll' : 'allMatching.chooseAllNoFilter', vars)}
        </Button>
      )}
      {clear}
    </Space>
  );
  return (
    <Alert type="info" showIcon data-testid="all-matching" style={{ marginBottom: 12 }} title={message} />
  );
}
