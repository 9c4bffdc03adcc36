import { Alert, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AllMatchingState } from './useAllMatching';

/** The texts of the device list (its search as the filter) and of a panel picker (its labels). */
function textsOf(filter: string | undefined, labels: string | undefined) {
  if (labels !== undefined)
    return {
      page: 'allMatching.pickerListedChosen',
      choose: 'allMatching.pickerChooseAll',
      chosen: 'allMatching.pickerAllChosen',
    };
  return filter
    ? { page: 'allMatching.pageChosen', choose: 'allMatching.chooseAll', chosen: 'allMatching.allChosen' }
    : {
        page: 'allMatching.pageChosen',
        choose: 'allMatching.chooseAllNoFilter',
        chosen: 'allMatching.allChosenNoFilter',
      };
}

/**
 * Above a panel table: once the whole page is ticked, the offer to choose every panel matching
 * the filter (the server's count); once chosen, what is chosen and how to clear it. The device
 * list's filter is its search; a panel picker's (`labels`) is the labels it ticked, whose panels
 * the server resolves when the call runs (a dynamic label's new members too), so it is offered
 * even when every panel it lists is ticked.
 */
export function MatchingAlert({
  state,
  filter,
  labels,
  pageCount,
  pageChosen,
  onClear,
  testId = 'all-matching',
}: {
  state: Pick<AllMatchingState, 'all' | 'counted' | 'chooseAll'>;
  filter: string | undefined;
  /** A panel picker's ticked labels, by name. */
  labels?: string;
  pageCount: number;
  pageChosen: boolean;
  onClear(): void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { all, counted } = state;
  if (!all && !pageChosen) return null;
  const vars = { count: counted?.count ?? 0, filter: filter ?? '', labels: labels ?? '' };
  const texts = textsOf(filter, labels);
  const offered = counted && (labels !== undefined ? counted.count > 0 : counted.count > pageCount);
  const clear = (
    <Button type="link" size="small" data-testid={`${testId}-clear`} onClick={onClear}>
      {t('allMatching.clear')}
    </Button>
  );
  const message = all ? (
    <Space wrap size={4}>
      <Typography.Text strong data-testid={`${testId}-chosen`} data-count={counted?.count ?? ''}>
        {t(texts.chosen, vars)}
      </Typography.Text>
      {counted?.disabled ? (
        <span>{t('allMatching.disabledLeftOut', { count: counted.disabled })}</span>
      ) : null}
      <Typography.Text type="secondary">{t('allMatching.atAction')}</Typography.Text>
      {clear}
    </Space>
  ) : (
    <Space wrap size={4}>
      <span>{t(texts.page, { count: pageCount })}</span>
      {offered && (
        <Button
          type="link"
          size="small"
          data-testid={`${testId}-choose`}
          data-count={counted.count}
          onClick={state.chooseAll}
        >
          {t(texts.choose, vars)}
        </Button>
      )}
      {clear}
    </Space>
  );
  return <Alert type="info" showIcon data-testid={testId} style={{ marginBottom: 12 }} title={message} />;
}
