import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { VIEW_NAMES, type ViewName } from '@panelfleet/contract';

type ViewComponent = LazyExoticComponent<ComponentType<{ view: ViewName }>>;

const placeholder: ViewComponent = lazy(() => import('../placeholders/ViewPlaceholder'));

/** Real screens replace the placeholder here, one lazy import each, as they are built. */
const licenses: ViewComponent = lazy(() => import('../licenses/LicenseView'));
const deviceManage: ViewComponent = lazy(() => import('../devices/list/DeviceManageView'));
const screens: Partial<Record<ViewName, ViewComponent>> = {
  customerActive: lazy(() => import('../personal/CustomerActiveView')),
  personCenter: lazy(() => import('../personal/PersonCenterView')),
  modifyPassword: lazy(() => import('../personal/ModifyPasswordView')),
  customer: lazy(() => import('../accounts/ConsoleUsersView')),
  customerManage: lazy(() => import('../accounts/CustomersView')),
  license: licenses,
  saleMan: licenses,
  netSpeed: lazy(() => import('../netSpeed/NetSpeedView')),
  deviceManage,
  Labels: deviceManage,
  sourceManage: lazy(() => import('../sources/SourcesView')),
  machineManage: lazy(() => import('../machineTypes/MachineTypesView')),
  feedBack: lazy(() => import('../feedback/FeedbackView')),
  ServeList: lazy(() => import('../servers/ServerListView')),
};

export const viewComponent = (view: ViewName): ViewComponent => screens[view] ?? placeholder;

export const isViewName = (value: string | undefined): value is ViewName =>
  value !== undefined && (VIEW_NAMES as readonly string[]).includes(value);
