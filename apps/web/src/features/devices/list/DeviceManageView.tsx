import { Card, Tabs } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';
import { homeView } from '../../../paths';
import { LabelsPanel } from '../../labels/LabelsPanel';
import { DeviceListTab } from './DeviceListTab';

/** Views `deviceManage` and `Labels` (spec 2 section 2): one page, two top tabs, each its own URL. */
export default function DeviceManageView({ view }: { view: ViewName }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const active = view === 'Labels' ? 'Labels' : 'deviceManage';
  return (
    <Card title={t('views.deviceManage')}>
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(homeView(key))}
        destroyOnHidden
        items={[
          { key: 'deviceManage', label: <span data-testid="tab-device-list">{t('devices.listTab')}</span>, children: <DeviceListTab /> },
          { key: 'Labels', label: <span data-testid="tab-labels">{t('views.Labels')}</span>, children: <LabelsPanel /> },
        ]}
      />
    </Card>
  );
}
