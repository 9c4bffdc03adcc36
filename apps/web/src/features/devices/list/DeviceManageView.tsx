import { lazy, Suspense } from 'react';
import { Card, Spin, Tabs } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';
import { homeView } from '../../../paths';
import { LabelsPanel } from '../../labels/LabelsPanel';
import { withScreenshotCatalogs } from '../../screenshots/catalogs';
import { withDashboardCatalogs } from '../../dashboards/catalogs';
import { DeviceListTab } from './DeviceListTab';

// The fleet map and ECharts load only when the Map tab is opened.
const FleetMapView = lazy(withDashboardCatalogs(() => import('../../dashboards/FleetMapView')));
// A label's wall of screenshots (/home/Labels?wall=<labelId>) loads when opened.
const WallView = lazy(withScreenshotCatalogs(() => import('../../screenshots/WallView')));

/** Views `deviceManage`, `Labels` and `Map` (spec 2 section 2): one page, three top tabs, each its own URL. */
export default function DeviceManageView({ view }: { view: ViewName }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const active = view === 'Labels' || view === 'Map' ? view : 'deviceManage';
  const wall = Number(search.get('wall'));
  const wallLabel = view === 'Labels' && Number.isInteger(wall) && wall > 0 ? wall : undefined;
  return (
    <Card title={t('views.deviceManage')}>
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(homeView(key))}
        destroyOnHidden
        items={[
          {
            key: 'deviceManage',
            label: <span data-testid="tab-device-list">{t('devices.listTab')}</span>,
            children: <DeviceListTab />,
          },
          {
            key: 'Labels',
            label: <span data-testid="tab-labels">{t('views.Labels')}</span>,
            children: wallLabel ? (
              <Suspense fallback={<Spin />}>
                <WallView labelId={wallLabel} />
              </Suspense>
            ) : (
              <LabelsPanel />
            ),
          },
          {
            key: 'Map',
            label: <span data-testid="tab-map">{t('views.Map')}</span>,
            children: (
              <Suspense fallback={<Spin />}>
                <FleetMapView />
              </Suspense>
            ),
          },
        ]}
      />
    </Card>
  );
}
