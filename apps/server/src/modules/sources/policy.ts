import { allowedViews, sources, type Deployment, type ViewName } from '@panelfleet/contract';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';

/**
 * The hardware catalog (signal sources, machine types) belongs to the deployment, not to a
 * company. Reading follows the console's views: whoever may open the view may read it (the
 * special deployment's staff may not). Changing it is the platform's alone, because a change
 * reaches the panels of every company.
 */
export const mayOpen = (user: SessionUser, deployment: Deployment, view: ViewName) =>
  allowedViews({ userType: user.userType, state: user.activated }, deployment).has(view);

export function requireCatalogReader(user: SessionUser, deployment: Deployment, view: ViewName): void {
  if (!mayOpen(user, deployment, view)) throw new AppError('common.forbidden', 403);
}

export function requireCatalogEditor(user: SessionUser, deployment: Deployment): void {
  if (!sources.mayEditCatalogs(user.userType) || deployment.special) throw new AppError('catalog.platformOnly', 403);
}
