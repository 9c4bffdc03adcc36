import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SavedSettingsTab } from './SavedSettingsTab';

/**
 * View `setting` (spec 2 "Setting page"): tab Setting (templates per series) and tab Source
 * Setting (pictures per system, series and input); the tab is part of the URL (?tab=source).
 */
export default function SettingView() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const active = params.get('tab') === 'source' ? 'source' : 'setting';
  return (
    <Card title={t('views.setting')}>
      <Tabs
        activeKey={active}
        onChange={(key) => setParams(key === 'source' ? { tab: 'source' } : {})}
        destroyOnHidden
        items={[
          {
            key: 'setting',
            label: <span data-testid="tab-templates">{t('settingPage.tabSetting')}</span>,
            children: <SavedSettingsTab type="0" />,
          },
          {
            key: 'source',
            label: <span data-testid="tab-sources">{t('settingPage.tabSource')}</span>,
            children: <SavedSettingsTab type="1" />,
          },
        ]}
      />
    </Card>
  );
}
