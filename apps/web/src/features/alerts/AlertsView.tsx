import { lazy, Suspense, type ReactNode } from 'react';
import { Card, Spin, Tabs } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';
import { homeView } from '../../paths';
import { AlertCentre } from './centre/AlertCentre';

// The rules and webhooks tabs load when they are opened.
const RulesPanel = lazy(() => import('./rules/RulesPanel'));
const WebhooksPanel = lazy(() => import('./webhooks/WebhooksPanel'));

const TABS: { view: ViewName; testId: string; render: () => ReactNode }[] = [
  { view: 'alerts', testId: 'tab-alerts', render: () => <AlertCentre /> },
  { view: 'alertRules', testId: 'tab-alert-rules', render: () => <RulesPanel /> },
  { view: 'webhooks', testId: 'tab-webhooks', render: () => <WebhooksPanel /> },
];

/**
 * Views `alerts` (the notification centre), `alertRules` and `webhooks` (issue 26): one page,
 * three tabs, each its own URL (/home/<view>).
 */
export default function AlertsView({ view }: { view: ViewName }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const active = TABS.some((tab) => tab.view === view) ? view : 'alerts';
  return (
    <Card title={t('views.alerts')}>
      <Tabs
        activeKey={active}
        onChange={(key) => void navigate(homeView(key))}
        destroyOnHidden
        items={TABS.map((tab) => ({
          key: tab.view,
          label: <span data-testid={tab.testId}>{t(`views.${tab.view}`)}</span>,
          children: (
            <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
              {tab.render()}
            </Suspense>
          ),
        }))}
      />
    </Card>
  );
}
