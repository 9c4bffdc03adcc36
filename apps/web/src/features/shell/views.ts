import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { VIEW_NAMES, type ViewName } from '@panelfleet/contract';

type ViewComponent = LazyExoticComponent<ComponentType<{ view: ViewName }>>;

const placeholder: ViewComponent = lazy(() => import('../placeholders/ViewPlaceholder'));

/** Real screens replace the placeholder here, one lazy import each, as they are built. */
const screens: Partial<Record<ViewName, ViewComponent>> = {};

export const viewComponent = (view: ViewName): ViewComponent => screens[view] ?? placeholder;

export const isViewName = (value: string | undefined): value is ViewName =>
  value !== undefined && (VIEW_NAMES as readonly string[]).includes(value);
