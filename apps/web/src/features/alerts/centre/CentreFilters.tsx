import { useState } from 'react';
import { DatePicker, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { alerts } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { FilterToolbar, SearchText } from '../../../lists/ListToolbar';
import { ALERTS_KEY } from '../useAlertCounts';
import { OPEN_ALERTS, type CentreFilter } from '../centreFilter';

interface CentreFiltersProps {
  onFilter(filter: CentreFilter): void;
  extra: React.ReactNode;
}

/** The centre's filters: state, severity, rule, text, time raised. Refresh goes back to the open alerts. */
export function CentreFilters({ onFilter, extra }: CentreFiltersProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<CentreFilter>(OPEN_ALERTS);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  // The organisation has at most 200 rules: the first 100 by newest are offered here.
  const rules = useQuery({
    queryKey: [...ALERTS_KEY, 'ruleNames'],
    queryFn: () => call(alerts.listAlertRules, { start: 1, size: 100 }).then((reply) => reply.listObject),
  });
  const current = (): CentreFilter => ({
    ...filter,
    from: range?.[0] ? range[0].startOf('day').valueOf() : undefined,
    to: range?.[1] ? range[1].endOf('day').valueOf() + 1 : undefined,
  });
  const search = () => onFilter(current());
  return (
    <FilterToolbar
      onSearch={search}
      onRefresh={() => {
        setFilter(OPEN_ALERTS);
        setRange(null);
        onFilter(OPEN_ALERTS);
      }}
      extra={extra}
    >
      <Select
        mode="multiple"
        allowClear
        data-testid="alert-filter-state"
        placeholder={t('alerts.filter.state')}
        value={filter.states}
        onChange={(states) => setFilter({ ...filter, states })}
        options={alerts.ALERT_STATES.map((state) => ({ value: state, label: t(`alerts.state.${state}`) }))}
        style={{ minWidth: 200 }}
      />
      <Select
        mode="multiple"
        allowClear
        data-testid="alert-filter-severity"
        placeholder={t('alerts.filter.severity')}
        value={filter.severities}
        onChange={(severities) => setFilter({ ...filter, severities })}
        options={alerts.ALERT_SEVERITIES.map((severity) => ({
          value: severity,
          label: t(`alerts.severity.${severity}`),
        }))}
        style={{ minWidth: 160 }}
      />
      <Select
        mode="multiple"
        allowClear
        data-testid="alert-filter-rule"
        placeholder={t('alerts.filter.rule')}
        value={filter.ruleIds}
        onChange={(ruleIds) => setFilter({ ...filter, ruleIds })}
        loading={rules.isFetching}
        optionFilterProp="label"
        options={(rules.data ?? []).map((rule) => ({ value: rule.id, label: rule.name }))}
        style={{ minWidth: 160 }}
      />
      <SearchText
        placeholder={t('alerts.filter.text')}
        value={filter.q}
        onChange={(q) => setFilter({ ...filter, q })}
        onSearch={search}
      />
      <DatePicker.RangePicker
        data-testid="alert-filter-range"
        value={range}
        onChange={(value) => setRange(value)}
        placeholder={[t('alerts.filter.from'), t('alerts.filter.to')]}
      />
    </FilterToolbar>
  );
}
