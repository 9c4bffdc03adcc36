import { Card, Tabs } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';
import { homeView } from '../../paths';
import { LicensesTab } from './LicensesTab';
import { SalespeopleTab } from './SalespeopleTab';

/** Views `license` and `saleMan`: one page, two tabs, each tab its own URL. */
export default function LicenseView({ view }: { view: ViewName }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const active = view === 'saleMan' ? 'saleMan' : 'license';
  return (
    <Card title={t('views.license')}>
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(homeView(key))}
        destroyOnHidden
        items={[
          { key: 'license', label: t('licenses.tab'), children: <LicensesTab /> },
          { key: 'saleMan', label: t('views.saleMan'), children: <SalespeopleTab /> },
        ]}
      />
    </Card>
  );
}
