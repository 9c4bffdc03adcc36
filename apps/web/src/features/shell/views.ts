import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { VIEW_NAMES, type ViewName } from '@panelfleet/contract';
import { withOperationWords } from '../logs/catalogs';
import { withOtaCatalogs } from '../ota/catalogs';
import { withAlertCatalogs } from '../alerts/catalogs';
import { withReportCatalogs } from '../reports/catalogs';
import { withDashboardCatalogs } from '../dashboards/catalogs';
import { withCertificateCatalogs } from '../certificate/catalogs';
import { withSettingCatalogs } from '../settings/catalogs';
import { withDeviceImportCatalogs } from '../devices/list/catalogs';
import { withApiTokenCatalogs } from '../personal/apiTokens/catalogs';

/** A screen, told which of its views it was opened as (a host shows that tab). */
type ViewComponent = LazyExoticComponent<ComponentType<{ view: ViewName }>>;

/** Every view's screen, one lazy import each; a view without one does not compile. */
const licenses: ViewComponent = lazy(() => import('../licenses/LicenseView'));
// The device screens push and show saved settings (the settings strings) and import panels.
const deviceManage: ViewComponent = lazy(
  withSettingCatalogs(withDeviceImportCatalogs(() => import('../devices/list/DeviceManageView'))),
);
// Dashboards: index1 is Dashboard B (types 1, 3 and the platform admin), index2 Dashboard A (types 2, 4).
const dashboardB: ViewComponent = lazy(withDashboardCatalogs(() => import('../dashboards/DashboardB')));
const dashboardA: ViewComponent = lazy(withDashboardCatalogs(() => import('../dashboards/DashboardA')));
// OTA management: the host (otaPromote, upgradeManage) and each of its tabs, every tab its own URL.
const otaManage: ViewComponent = lazy(withOtaCatalogs(() => import('../ota/manage/OtaManageView')));
const otaLog: ViewComponent = lazy(
  // The OTA log's host also shows the abnormal log (the report strings).
  withOtaCatalogs(withReportCatalogs(() => import('../ota/log/OtaLogView'))),
);
// Issue 26: the notification centre and its tabs (rules, webhooks), every tab its own URL.
const alertsHost: ViewComponent = lazy(
  // The alert centre opens a panel's detail, which shows its saved settings.
  withAlertCatalogs(withSettingCatalogs(() => import('../alerts/AlertsView'))),
);
const screens: Record<ViewName, ViewComponent> = {
  customerActive: lazy(() => import('../personal/CustomerActiveView')),
  personCenter: lazy(withApiTokenCatalogs(() => import('../personal/PersonCenterView'))),
  modifyPassword: lazy(() => import('../personal/ModifyPasswordView')),
  customer: lazy(() => import('../accounts/ConsoleUsersView')),
  customerManage: lazy(() => import('../accounts/CustomersView')),
  license: licenses,
  saleMan: licenses,
  netSpeed: lazy(() => import('../netSpeed/NetSpeedView')),
  deviceManage,
  Labels: deviceManage,
  sourceManage: otaManage,
  machineManage: otaManage,
  feedBack: lazy(() => import('../feedback/FeedbackView')),
  ServeList: lazy(() => import('../servers/ServerListView')),
  setting: lazy(withSettingCatalogs(() => import('../settings/SettingView'))),
  certificate: lazy(withCertificateCatalogs(() => import('../certificate/CertificateView'))),
  report: lazy(withOperationWords(withReportCatalogs(() => import('../reports/ReportView')))),
  apk: otaManage,
  // The spec's older list variant of the APK page (type 1's menu): the same repository screen,
  // which searches, uploads with a remark and installs to panels chosen by key or name, shown as
  // the APK tab of OTA management like the distributor's other entry there (upgradeTactics).
  apkRenew: otaManage,
  ssoSettings: lazy(() => import('../sso/SsoSettingsView')),
  operationLog: lazy(withOperationWords(withReportCatalogs(() => import('../logs/OperationLogView')))),
  abnormalLog: otaLog,
  errorMsg: lazy(withReportCatalogs(() => import('../tips/ErrorTipsView'))),
  warningMsg: otaManage,
  otaPromote: otaManage,
  upgradeManage: otaManage,
  renew: otaManage,
  otaVersion: otaManage,
  upgradeTactics: otaManage,
  otaLog,
  index1: dashboardB,
  index2: dashboardA,
  Map: deviceManage,
  Broadcast: lazy(() => import('../broadcast/BroadcastView')),
  alerts: alertsHost,
  alertRules: alertsHost,
  webhooks: alertsHost,
};

export const viewComponent = (view: ViewName): ViewComponent => screens[view];

export const isViewName = (value: string | undefined): value is ViewName =>
  value !== undefined && (VIEW_NAMES as readonly string[]).includes(value);
