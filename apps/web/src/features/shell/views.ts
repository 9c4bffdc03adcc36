import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { VIEW_NAMES, type ViewName } from '@panelfleet/contract';

type ViewComponent = LazyExoticComponent<ComponentType<{ view: ViewName }>>;

const placeholder: ViewComponent = lazy(() => import('../placeholders/ViewPlaceholder'));

/** Real screens replace the placeholder here, one lazy import each, as they are built. */
const licenses: ViewComponent = lazy(() => import('../licenses/LicenseView'));
const screens: Partial<Record<ViewName, ViewComponent>> = {
  customerActive: lazy(() => import('../personal/CustomerActiveView')),
  personCenter: lazy(() => import('../personal/PersonCenterView')),
  modifyPassword: lazy(() => import('../personal/ModifyPasswordView')),
  customer: lazy(() => import('../accounts/ConsoleUsersView')),
  customerManage: lazy(() => import('../accounts/CustomersView')),
  license: licenses,
  saleMan: licenses,
  netSpeed: lazy(() => import('../netSpeed/NetSpeedView')),
};

export const viewComponent = (view: ViewName): ViewComponent => screens[view] ?? placeholder;

export const isViewName = (value: string | undefined): value is ViewName =>
  value !== undefined && (VIEW_NAMES as readonly string[]).includes(value);
