import { lazy, Suspense, useState } from 'react';
import { Badge, Collapse, Modal, Space, Spin, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppsTab } from './AppsTab';
import { ClockSkewAlert } from './ClockSkewAlert';
import { ClonePanel } from './ClonePanel';
import { DownloadTab } from './DownloadTab';
import { InfoTab } from './InfoTab';
import { NotificationPanel } from './NotificationPanel';
import { PositionPanel } from './PositionPanel';
import { PowerPanel } from './PowerPanel';
import { RemoteControlPanel } from './RemoteControlPanel';
import { SettingPanel } from './SettingPanel';
import { StorageTab } from './StorageTab';
import { useScreenshotCatalogs, withScreenshotCatalogs } from '../../screenshots/catalogs';
import { withPanelHistoryCatalogs } from '../history/catalogs';
import { withOtaCatalogs } from '../../ota/catalogs';
import { useDeviceDetail, usePanelSettings } from './useDeviceDetail';
import { useSettingsPush } from './useSettingsPush';
import { useResetOnOpen } from '../../../lists/useResetOnOpen';
import { SavedSettingsActions } from '../../settings/SavedSettingsActions';

export interface DeviceDetailModalProps {
  deviceId: number | undefined;
  open: boolean;
  onClose(): void;
}

// The Screen tab and its strings load when it is first opened.
const ScreenshotTab = lazy(withScreenshotCatalogs(() => import('../../screenshots/ScreenshotTab')));

type TabKey = 'info' | 'storage' | 'download' | 'apps' | 'screen' | 'history';

// The history's charts (ECharts) are a chunk of their own, loaded when the tab is first opened,
// with its strings and the OTA strings (the states of its OTA tasks).
const HistoryTab = lazy(withPanelHistoryCatalogs(withOtaCatalogs(() => import('../history/HistoryTab'))));

/**
 * The device detail modal of spec 2 (900 wide, not closed by the mask): name and online marker,
 * tabs on the left, the accordion of controls on the right. Polls every 5 s while open.
 */
export function DeviceDetailModal({ deviceId, open, onClose }: DeviceDetailModalProps) {
  const { t } = useTranslation();
  const { detail, reload } = useDeviceDetail(deviceId, open);
  const { settings, reload: reloadSettings } = usePanelSettings(deviceId, open);
  const push = useSettingsPush(deviceId ?? 0, reloadSettings);
  const [tab, setTab] = useState<TabKey>('info');
  const screenReady = useScreenshotCatalogs();
  useResetOnOpen(open, () => setTab('info'));
  const online = detail?.isOnline === '1';

  const title = detail && (
    <Space data-testid="detail-title">
      <span>{detail.deviceName}</span>
      <Badge
        status={online ? 'success' : 'default'}
        text={t(online ? 'lists.online' : 'lists.offline')}
        data-testid="detail-online"
        data-online={online ? '1' : '0'}
      />
    </Space>
  );

  return (
    <Modal
      title={title ?? t('deviceDetail.title')}
      open={open}
      width={900}
      footer={null}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      modalRender={(node) => <div data-testid="device-detail">{node}</div>}
    >
      {!detail ? (
        <Spin style={{ display: 'block', margin: '80px auto' }} />
      ) : (
        <>
          <ClockSkewAlert detail={detail} />
          <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
            <Tabs
              style={{ flex: '1 1 0', minWidth: 0 }}
              activeKey={tab}
              onChange={(key) => setTab(key as TabKey)}
              items={[
                { key: 'info', label: t('deviceDetail.tab.info'), children: <InfoTab detail={detail} /> },
                {
                  key: 'storage',
                  label: t('deviceDetail.tab.storage'),
                  children: <StorageTab detail={detail} />,
                },
                {
                  key: 'download',
                  label: t('deviceDetail.tab.download'),
                  children: <DownloadTab detail={detail} />,
                },
                {
                  key: 'apps',
                  label: t('deviceDetail.tab.apps'),
                  children: <AppsTab deviceId={detail.deviceId} online={online} active={tab === 'apps'} />,
                },
                {
                  key: 'screen',
                  label: <span data-testid="tab-screen">{screenReady ? t('screenshots.tab') : '…'}</span>,
                  children: (
                    <Suspense fallback={<Spin />}>
                      <ScreenshotTab deviceId={detail.deviceId} online={online} />
                    </Suspense>
                  ),
                },
                {
                  key: 'history',
                  label: <span data-testid="detail-tab-history">{t('panelHistory.tab')}</span>,
                  children: tab === 'history' && (
                    <Suspense fallback={<Spin />}>
                      <HistoryTab deviceId={detail.deviceId} />
                    </Suspense>
                  ),
                },
              ]}
            />
            <Collapse
              accordion
              size="small"
              style={{ width: 360, flex: 'none' }}
              defaultActiveKey="remote"
              data-testid="detail-accordion"
              items={[
                {
                  key: 'remote',
                  label: t('deviceDetail.panel.remote'),
                  children: <RemoteControlPanel detail={detail} reload={reload} />,
                },
                {
                  key: 'position',
                  label: t('deviceDetail.panel.position'),
                  children: <PositionPanel detail={detail} />,
                },
                {
                  key: 'power',
                  label: t('deviceDetail.panel.power'),
                  children: <PowerPanel settings={settings} online={online} push={push} />,
                },
                {
                  key: 'notification',
                  label: t('deviceDetail.panel.notification'),
                  children: <NotificationPanel detail={detail} />,
                },
                {
                  key: 'setting',
                  label: t('deviceDetail.panel.setting'),
                  children: (
                    <>
                      <SavedSettingsActions detail={detail} />
                      <SettingPanel settings={settings} online={online} push={push} />
                    </>
                  ),
                },
                {
                  key: 'clone',
                  label: t('deviceDetail.panel.clone'),
                  children: <ClonePanel detail={detail} settings={settings} />,
                },
              ].map((item) => ({
                ...item,
                label: <span data-testid={`accordion-${item.key}`}>{item.label}</span>,
              }))}
            />
          </div>
        </>
      )}
    </Modal>
  );
}
