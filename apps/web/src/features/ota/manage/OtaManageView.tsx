import { lazy, Suspense, type ReactNode } from 'react';
import { Spin, Tabs } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '@panelfleet/contract';
import { homeView } from '../../../paths';
import { useOtaAccess } from './useOtaAccess';
import { withApkCatalogs } from '../../apk/catalogs';
import { withReportCatalogs } from '../../reports/catalogs';

// Each tab loads when it is opened.
const OtaFilesTab = lazy(() => import('../files/OtaFilesTab'));
const ApkView = lazy(withApkCatalogs(() => import('../../apk/ApkView')));
const TasksTab = lazy(() => import('../tasks/TasksTab'));
const PoliciesView = lazy(() => import('../policies/PoliciesView'));
const OtaVersionsView = lazy(() => import('../versions/OtaVersionsView'));
const MachineTypesView = lazy(() => import('../../machineTypes/MachineTypesView'));
const SourcesView = lazy(() => import('../../sources/SourcesView'));
const WarningsView = lazy(withReportCatalogs(() => import('../../tips/WarningsView')));

/** The tabs after the file list, in order; each is a view of its own (its own URL). */
const TAB_VIEWS: { view: ViewName; label: string; render: () => ReactNode }[] = [
  { view: 'apk', label: 'views.apk', render: () => <ApkView /> },
  { view: 'renew', label: 'ota.tabs.tasks', render: () => <TasksTab /> },
  { view: 'upgradeTactics', label: 'views.upgradeTactics', render: () => <PoliciesView /> },
  { view: 'otaVersion', label: 'views.otaVersion', render: () => <OtaVersionsView /> },
  { view: 'machineManage', label: 'views.machineManage', render: () => <MachineTypesView /> },
  { view: 'sourceManage', label: 'views.sourceManage', render: () => <SourcesView /> },
  { view: 'warningMsg', label: 'views.warningMsg', render: () => <WarningsView /> },
];

/**
 * The distributor's menu entry "APK renewal" is the APK tab of this screen, opened under its own
 * view: as "Upgrade strategy" opens the policies tab, it opens the APK tab, not the files.
 */
const TAB_ALIASES: Partial<Record<ViewName, ViewName>> = { apkRenew: 'apk' };

/** Views that open this screen: the host (otaPromote or upgradeManage), its tabs and their aliases. */
export const OTA_MANAGE_VIEWS: readonly ViewName[] = [
  'otaPromote',
  'upgradeManage',
  ...TAB_VIEWS.map((tab) => tab.view),
  ...(Object.keys(TAB_ALIASES) as ViewName[]),
];

/**
 * OTA management (spec 3 section 2.1): views `otaPromote` (types 0, 1, 3) and `upgradeManage`
 * (type 4). Tabs: OTA files, the APK repository (apk), the task list (renew), upgrade policies, and, unless the role flag is
 * "1", OTA versions, machine types and signal sources (allowedViews leaves them out there);
 * reminders where the user may read them. Each tab is its own URL (/home/<view>).
 */
export default function OtaManageView({ view }: { view: ViewName }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { allowed } = useOtaAccess();
  const host: ViewName = allowed.has('upgradeManage') ? 'upgradeManage' : 'otaPromote';
  // Opened as an alias, the tab keeps the alias's URL (and menu entry) while it is the one shown.
  const alias = TAB_ALIASES[view];
  const tabs = TAB_VIEWS.filter((tab) => allowed.has(tab.view) || tab.view === alias).map((tab) =>
    tab.view === alias ? { ...tab, view } : tab,
  );
  const active = tabs.some((tab) => tab.view === view) ? view : host;
  const lazyTab = (node: ReactNode) => (
    <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>{node}</Suspense>
  );
  return (
    <Tabs
      type="card"
      activeKey={active}
      onChange={(key) => void navigate(homeView(key))}
      destroyOnHidden
      items={[
        {
          key: host,
          label: <span data-testid="tab-ota-files">{t('ota.tabs.files')}</span>,
          children: lazyTab(<OtaFilesTab />),
        },
        ...tabs.map((tab) => ({
          key: tab.view,
          label: <span data-testid={`sub-view-${tab.view}`}>{t(tab.label)}</span>,
          children: lazyTab(tab.render()),
        })),
      ]}
    />
  );
}
